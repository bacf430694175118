// Finding a channel and listing its videos: resolve, handle and channel pages, the 15-entry feed
// with its quirks, and the browse continuation chain.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { makeChannel, startFakePlatform, TAB_PARAMS, type FakePlatform } from './index';
import { arr, at, embeddedJson, innertube, str, VIDEOS_TAB, WEB_CONTEXT, type Json } from './test-support';

const GRID = 'contents.twoColumnBrowseResultsRenderer.tabs[1].tabRenderer.content.richGridRenderer';

/** The ids in a list of grid items, from either item shape; and the continuation token if any. */
function readItems(items: Json[]): { ids: string[]; token: string | null; shapes: Set<string> } {
  const ids: string[] = [];
  const shapes = new Set<string>();
  let token: string | null = null;
  for (const item of items) {
    const renderer = at(item, 'richItemRenderer.content.videoRenderer');
    const lockup = at(item, 'richItemRenderer.content.lockupViewModel');
    if (renderer) {
      shapes.add('videoRenderer');
      ids.push(str(at(renderer, 'videoId')));
      expect(str(at(renderer, 'title.runs[0].text'))).to.not.equal('');
      expect(str(at(renderer, 'publishedTimeText.simpleText'))).to.match(/^\d+ (second|minute|hour|day|week|month|year)s? ago$/);
      expect(str(at(renderer, 'lengthText.simpleText'))).to.match(/^\d+:\d\d(:\d\d)?$/);
    } else if (lockup) {
      shapes.add('lockupViewModel');
      expect(at(lockup, 'contentType')).to.equal('LOCKUP_CONTENT_TYPE_VIDEO');
      ids.push(str(at(lockup, 'contentId')));
      expect(str(at(lockup, 'metadata.lockupMetadataViewModel.title.content'))).to.not.equal('');
      const parts = 'metadata.lockupMetadataViewModel.metadata.contentMetadataViewModel.metadataRows[0].metadataParts';
      expect(str(at(lockup, `${parts}[0].text.content`))).to.match(/^[\d.,]+[KM]? views?$/);
      expect(str(at(lockup, `${parts}[1].text.content`))).to.match(/ ago$/);
    } else if (at(item, 'continuationItemRenderer')) {
      token = str(at(item, 'continuationItemRenderer.continuationEndpoint.continuationCommand.token'));
    } else {
      throw new Error(`unexpected grid item ${Object.keys(item as object).join(',')}`);
    }
  }
  return { ids, token, shapes };
}

describe('fake platform: channel lookup and listing', () => {
  let fake: FakePlatform;
  const big = makeChannel({ handle: 'BigChannel', count: 95, shortsRatio: 0.15, seed: 7 });
  const small = makeChannel({ handle: 'small', count: 4 });

  before(async () => {
    fake = await startFakePlatform({ channels: [big, small] });
  });
  after(() => fake.close());

  describe('handle → channel id', () => {
    it('resolve_url finds a handle case-insensitively and counts one resolve', async () => {
      fake.resetCounters();
      const { json } = await innertube(fake.url, 'navigation/resolve_url', { context: WEB_CONTEXT, url: 'https://www.youtube.com/@bigchannel' });
      expect(at(json, 'endpoint.browseEndpoint.browseId')).to.equal(big.channelId);
      expect(fake.counters.resolve).to.equal(1);
      expect(fake.counters.total).to.equal(1);
    });

    it('resolve_url without a client context is refused with 400', async () => {
      const { status, json } = await innertube(fake.url, 'navigation/resolve_url', { url: 'https://www.youtube.com/@small' });
      expect(status).to.equal(400);
      expect(at(json, 'error.status')).to.equal('FAILED_PRECONDITION');
    });

    it('the handle page embeds ytInitialData with the channel metadata and a canonical link', async () => {
      const res = await fetch(`${fake.url}/@small`);
      const page = await res.text();
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      expect(page).to.include(`<link rel="canonical" href="https://www.youtube.com/channel/${small.channelId}">`);
      const data = embeddedJson(page, 'ytInitialData');
      expect(at(data, 'metadata.channelMetadataRenderer')).to.include({
        externalId: small.channelId,
        channelUrl: `https://www.youtube.com/channel/${small.channelId}`,
        rssUrl: `https://www.youtube.com/feeds/videos.xml?channel_id=${small.channelId}`,
        title: small.title,
      });
      expect(at(data, 'microformat.microformatDataRenderer.urlCanonical')).to.equal(`https://www.youtube.com/channel/${small.channelId}`);
      expect(page).to.match(/"INNERTUBE_API_KEY":"AIza[\w-]{35}"/);
    });

    it('the /channel/<id> page is the same page; unknown handles and ids get an HTML 404', async () => {
      fake.resetCounters();
      const page = await (await fetch(`${fake.url}/channel/${small.channelId}/videos`)).text();
      expect(at(embeddedJson(page, 'ytInitialData'), 'metadata.channelMetadataRenderer.externalId')).to.equal(small.channelId);
      const unknownHandle = await fetch(`${fake.url}/@no-such-handle`);
      const unknownId = await fetch(`${fake.url}/channel/UC${'z'.repeat(22)}`);
      expect([unknownHandle.status, unknownId.status]).to.deep.equal([404, 404]);
      expect(await unknownHandle.text()).to.include('<title>Error 404 (Not Found)!!1</title>');
      expect(fake.counters).to.include({ channelPage: 2, handlePage: 1, total: 3 });
    });
  });

  describe('the channel feed', () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

    it('has exactly the 15 newest uploads, newest first, Shorts included with /shorts/ links', async () => {
      const res = await fetch(`${fake.url}/feeds/videos.xml?channel_id=${big.channelId}`);
      expect(res.headers.get('content-type')).to.equal('text/xml; charset=UTF-8');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=900');
      const text = await res.text();
      expect(text).to.include('xmlns:yt="http://www.youtube.com/xml/schemas/2015"');
      expect(text).to.include('xmlns:media="http://search.yahoo.com/mrss/"');
      expect(text).to.include('xmlns="http://www.w3.org/2005/Atom"');
      const entries = arr(at(parser.parse(text), 'feed.entry'));
      const newest = [...big.videos].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime()).slice(0, 15);
      expect(entries.map((e) => at(e, 'yt:videoId'))).to.deep.equal(newest.map((v) => v.videoId));
      expect(newest.some((v) => v.short)).to.equal(true, 'the seed should put a Short among the 15 newest');
      entries.forEach((e, i) => {
        const video = newest[i];
        if (!video) throw new Error('missing video');
        expect(at(e, 'yt:channelId')).to.equal(big.channelId);
        expect(at(e, 'title')).to.equal(video.title);
        expect(at(e, 'link.@rel')).to.equal('alternate');
        expect(at(e, 'link.@href')).to.equal(
          video.short ? `https://www.youtube.com/shorts/${video.videoId}` : `https://www.youtube.com/watch?v=${video.videoId}`,
        );
        expect(at(e, 'published')).to.equal(video.publishedAt.toISOString().replace('.000Z', '+00:00'));
        expect(str(at(e, 'updated'))).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
        expect(at(e, 'media:group.media:title')).to.equal(video.title);
        expect(str(at(e, 'media:group.media:description'))).to.not.equal('');
        expect(str(at(e, 'media:group.media:thumbnail.@url'))).to.include(video.videoId);
      });
    });

    it('drops the leading UC in the feed-level id and yt:channelId (the real quirk)', async () => {
      const feed = at(parser.parse(await (await fetch(`${fake.url}/feeds/videos.xml?channel_id=${big.channelId}`)).text()), 'feed');
      expect(at(feed, 'id')).to.equal(`yt:channel:${big.channelId.slice(2)}`);
      expect(at(feed, 'yt:channelId')).to.equal(big.channelId.slice(2));
      expect(at(feed, 'title')).to.equal(big.title);
    });

    it('a channel with fewer than 15 uploads lists them all', async () => {
      const feed = parser.parse(await (await fetch(`${fake.url}/feeds/videos.xml?channel_id=${small.channelId}`)).text()) as Json;
      expect(arr(at(feed, 'feed.entry'))).to.have.length(4);
    });

    it('an unknown channel gets an HTML 404', async () => {
      const res = await fetch(`${fake.url}/feeds/videos.xml?channel_id=UC${'q'.repeat(22)}`);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
    });
  });

  describe('browse', () => {
    const browse = (body: object) => innertube(fake.url, 'browse', { context: WEB_CONTEXT, ...body });

    it('pages through the Videos tab: every non-Short exactly once, newest first, ending without a token', async () => {
      fake.resetCounters();
      const first = await browse({ browseId: big.channelId, params: VIDEOS_TAB });
      const tab = arr(at(first.json, 'contents.twoColumnBrowseResultsRenderer.tabs')).find((t) => at(t, 'tabRenderer.selected') === true);
      expect(at(tab, 'tabRenderer.title')).to.equal('Videos');
      let page = readItems(arr(at(tab, 'tabRenderer.content.richGridRenderer.contents')));
      const seen = [...page.ids];
      const tokens: string[] = [];
      const shapes = new Set(page.shapes);
      expect(page.ids).to.have.length(30);
      while (page.token) {
        expect(page.token.length).to.be.within(1500, 3000);
        expect(page.token).to.match(/^[A-Za-z0-9_-]+$/);
        tokens.push(page.token);
        const next = await browse({ continuation: page.token });
        page = readItems(arr(at(next.json, 'onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems')));
        seen.push(...page.ids);
        page.shapes.forEach((s) => shapes.add(s));
      }
      const expected = big.videos.filter((v) => !v.short).map((v) => v.videoId);
      expect(seen).to.deep.equal(expected);
      expect(new Set(tokens).size).to.equal(tokens.length);
      expect([...shapes].sort()).to.deep.equal(['lockupViewModel', 'videoRenderer']);
      expect(fake.counters).to.include({ browse: 1, browseContinuation: tokens.length });
    });

    it('mixes both item shapes on the first page itself', async () => {
      const first = await browse({ browseId: big.channelId, params: VIDEOS_TAB });
      expect([...readItems(arr(at(first.json, `${GRID}.contents`))).shapes].sort()).to.deep.equal(['lockupViewModel', 'videoRenderer']);
    });

    it('chips carry their own tokens (other sort orders), not the page continuation', async () => {
      const first = await browse({ browseId: big.channelId, params: VIDEOS_TAB });
      const chips = arr(at(first.json, `${GRID}.header.chipBarViewModel.chips`));
      expect(chips.map((c) => at(c, 'chipViewModel.text'))).to.deep.equal(['Latest', 'Popular', 'Oldest']);
      const pageToken = readItems(arr(at(first.json, `${GRID}.contents`))).token;
      const chipTokens = chips.map((c) => str(at(c, 'chipViewModel.tapCommand.innertubeCommand.continuationCommand.token')));
      expect(chipTokens).to.not.include(pageToken);
      const reload = await browse({ continuation: chipTokens[2] });
      const items = arr(at(reload.json, 'onResponseReceivedActions[0].reloadContinuationItemsCommand.continuationItems'));
      const nonShorts = big.videos.filter((v) => !v.short);
      expect(readItems(items).ids[0]).to.equal(nonShorts[nonShorts.length - 1]?.videoId);
    });

    it('a small channel fits one page and has no continuation', async () => {
      const first = await browse({ browseId: small.channelId, params: VIDEOS_TAB });
      const page = readItems(arr(at(first.json, `${GRID}.contents`)));
      expect(page.ids).to.have.length(4);
      expect(page.token).to.equal(null);
    });

    it('an upload arriving mid-listing does not shift the following pages', async () => {
      const channel = makeChannel({ handle: 'growing', count: 40, captionsMix: { manual: 1 } });
      fake.addChannel(channel);
      const first = await browse({ browseId: channel.channelId, params: VIDEOS_TAB });
      const page1 = readItems(arr(at(first.json, `${GRID}.contents`)));
      fake.addUpload(channel.channelId);
      const next = await browse({ continuation: page1.token });
      const page2 = readItems(arr(at(next.json, 'onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems')));
      expect([...page1.ids, ...page2.ids]).to.deep.equal(channel.videos.map((v) => v.videoId));
    });

    it('other tabs are answered with that tab selected', async () => {
      const home = await browse({ browseId: big.channelId, params: TAB_PARAMS.Home });
      const selected = arr(at(home.json, 'contents.twoColumnBrowseResultsRenderer.tabs')).filter((t) => at(t, 'tabRenderer.selected'));
      expect(selected.map((t) => at(t, 'tabRenderer.title'))).to.deep.equal(['Home']);
    });

    it('a malformed id is a 400 INVALID_ARGUMENT; a garbled token too', async () => {
      const bad = await browse({ browseId: 'not-a-channel', params: VIDEOS_TAB });
      expect(bad.status).to.equal(400);
      expect(at(bad.json, 'error.status')).to.equal('INVALID_ARGUMENT');
      const garbled = await browse({ continuation: '4qmFsgLgarbage' });
      expect(garbled.status).to.equal(400);
    });
  });
});
