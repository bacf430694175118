// The fake's answers keep the real captures' shapes: the key paths a client reads in a capture are
// present in the fake's answer, and the error statuses are laid out exactly as captured.

import { expect } from 'chai';
import { makeChannel, startFakePlatform, type FakePlatform } from './index';
import type { FakeChannelSpec, FakeVideoSpec } from './types';
import {
  ANDROID_CONTEXT,
  at,
  capture,
  captureText,
  innertube,
  keyPaths,
  missingPaths,
  VIDEOS_TAB,
  WEB_CONTEXT,
  type Json,
} from './test-support';

function videoOf(channel: FakeChannelSpec, captions: FakeVideoSpec['captions']): FakeVideoSpec {
  const video = channel.videos.find((v) => v.captions === captions);
  if (!video) throw new Error(`no ${captions} video`);
  return video;
}

function topKeys(value: Json): string[] {
  return Object.keys(value as object).sort();
}

function has(value: Json, key: string): boolean {
  return at(value, key) !== undefined;
}

describe('fake platform: shapes of the real captures', () => {
  let fake: FakePlatform;
  const channel = makeChannel({
    handle: 'shapes',
    count: 80,
    captionsMix: { both: 1, none: 1, unavailable: 1, age_restricted: 1 },
  });

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
  });
  after(() => fake.close());

  it('resolve_url of a handle has the paths of resolve_url-handle.json', async () => {
    const { status, json } = await innertube(fake.url, 'navigation/resolve_url', {
      context: WEB_CONTEXT,
      url: 'https://www.youtube.com/@shapes',
    });
    expect(status).to.equal(200);
    expect(missingPaths(capture('resolve_url-handle.json'), json)).to.deep.equal([]);
    expect(at(json, 'endpoint.browseEndpoint.browseId')).to.equal(channel.channelId);
    expect(at(json, 'endpoint.commandMetadata.webCommandMetadata.webPageType')).to.equal('WEB_PAGE_TYPE_CHANNEL');
  });

  it('resolve_url of an unknown handle answers 404 with the captured body, exactly', async () => {
    const { status, json } = await innertube(fake.url, 'navigation/resolve_url', {
      context: WEB_CONTEXT,
      url: 'https://www.youtube.com/@nobody-here',
    });
    expect(status).to.equal(404);
    expect(json).to.deep.equal(capture('resolve_url-unknown-handle-404.json'));
  });

  it('browse of the Videos tab has every path a parser reads in browse-videos-tab-first-page.json', async () => {
    const { json } = await innertube(fake.url, 'browse', { context: WEB_CONTEXT, browseId: channel.channelId, params: VIDEOS_TAB });
    const read = new RegExp(
      [
        String.raw`^contents\.twoColumnBrowseResultsRenderer\.tabs\[\]\.tabRenderer\.(title|selected|endpoint\.browseEndpoint\.\w+)$`,
        String.raw`richItemRenderer\.content\.lockupViewModel\.(contentId|contentType|metadata\.lockupMetadataViewModel\.(title\.content|metadata\.contentMetadataViewModel\..*))$`,
        String.raw`richGridRenderer\.contents\[\]\.continuationItemRenderer\.continuationEndpoint\.continuationCommand\.token$`,
        String.raw`richGridRenderer\.header\.chipBarViewModel\.chips\[\]\.chipViewModel\.(text|selected|tapCommand\.innertubeCommand\.continuationCommand\.token)$`,
        String.raw`^metadata\.channelMetadataRenderer\.(title|externalId|channelUrl|rssUrl)$`,
        String.raw`^microformat\.microformatDataRenderer\.urlCanonical$`,
      ].join('|'),
    );
    const missing = missingPaths(capture('browse-videos-tab-first-page.json'), json, read);
    expect(missing).to.deep.equal([]);
    // And the parser-relevant paths are really there (the regexp did match something).
    expect([...keyPaths(json)].filter((p) => read.test(p)).length).to.be.greaterThan(15);
  });

  it('browse of an unknown channel answers 200 with alerts like browse-channel-removed.json', async () => {
    const { status, json } = await innertube(fake.url, 'browse', { context: WEB_CONTEXT, browseId: 'UC' + 'x'.repeat(22) });
    expect(status).to.equal(200);
    const real = capture('browse-channel-removed.json');
    expect(missingPaths(real, json, /^alerts/)).to.deep.equal([]);
    expect(at(json, 'alerts[0].alertRenderer')).to.deep.equal({ type: 'ERROR', text: { simpleText: 'This channel does not exist.' } });
    expect(has(json, 'contents')).to.equal(false);
  });

  describe('player (ANDROID)', () => {
    const player = (videoId: string) => innertube(fake.url, 'player', { context: ANDROID_CONTEXT, videoId });

    it('OK with captions has the playabilityStatus, captions and videoDetails paths of player-android-ok.json', async () => {
      const { json } = await player(videoOf(channel, 'both').videoId);
      const real = capture('player-android-ok.json');
      expect(at(json, 'playabilityStatus.status')).to.equal('OK');
      const keep = /^(playabilityStatus\.(status|playableInEmbed|miniplayer\..*|contextParams)|captions\..*|videoDetails\..*)$/;
      expect(missingPaths(real, json, keep)).to.deep.equal([]);
      // Nothing the real answer lacks: the fake's captions and videoDetails paths are all real ones.
      expect(missingPaths(json, real, /^(captions|videoDetails)\./)).to.deep.equal([]);
    });

    it('OK without captions matches player-android-transcripts_disabled.json: status OK, no captions key', async () => {
      const { json } = await player(videoOf(channel, 'none').videoId);
      const real = capture('player-android-transcripts_disabled.json');
      expect(at(json, 'playabilityStatus.status')).to.equal(at(real, 'playabilityStatus.status'));
      expect(has(json, 'captions')).to.equal(has(real, 'captions'));
      expect(missingPaths(real, json, /^videoDetails\./)).to.deep.equal([]);
    });

    const cases: [string, string, (c: FakeChannelSpec) => string][] = [
      ['player-android-age_restricted.json', 'age restricted', (c) => videoOf(c, 'age_restricted').videoId],
      ['player-android-video_unavailable.json', 'unavailable', (c) => videoOf(c, 'unavailable').videoId],
    ];
    for (const [file, what, pick] of cases) {
      it(`${what} has exactly the playabilityStatus of ${file}`, async () => {
        const { json } = await player(pick(channel));
        const real = capture(file);
        expect(at(json, 'playabilityStatus.status')).to.equal(at(real, 'playabilityStatus.status'));
        expect(at(json, 'playabilityStatus.reason')).to.equal(at(real, 'playabilityStatus.reason'));
        expect([...keyPaths(at(json, 'playabilityStatus'))].sort()).to.deep.equal([...keyPaths(at(real, 'playabilityStatus'))].sort());
        expect(has(json, 'videoDetails')).to.equal(has(real, 'videoDetails'));
        expect(has(json, 'captions')).to.equal(false);
      });
    }

    it('an unknown video answers like player-android-video_unavailable.json', async () => {
      const { status, json } = await player('AAAAAAAAAAA');
      expect(status).to.equal(200);
      expect(at(json, 'playabilityStatus.reason')).to.equal('This video is unavailable');
    });

    it('the bot check has exactly the playabilityStatus of player-android-request_blocked.json', async () => {
      fake.scenario.botCheck(1);
      const { json } = await player(videoOf(channel, 'both').videoId);
      const real = capture('player-android-request_blocked.json');
      expect(at(json, 'playabilityStatus.reason')).to.equal('Sign in to confirm you\u2019re not a bot');
      expect(at(json, 'playabilityStatus.reason')).to.equal(at(real, 'playabilityStatus.reason'));
      expect([...keyPaths(at(json, 'playabilityStatus'))].sort()).to.deep.equal([...keyPaths(at(real, 'playabilityStatus'))].sort());
      expect(topKeys(json).filter((k) => !has(real, k))).to.deep.equal([]);
    });
  });

  it('the consent page keeps consent-page.html\u2019s form: POST to consent.youtube.com/s with the same hidden inputs', async () => {
    fake.scenario.consentWall(true);
    try {
      const page = await (await fetch(`${fake.url}/@shapes`)).text();
      const inputs = (html: string) => [...html.matchAll(/<form action="https:\/\/consent\.youtube\.com\/s"[^>]*>(.*?)<\/form>/gs)].map((m) =>
        [...(m[1] ?? '').matchAll(/type="hidden" name="(\w+)"/g)].map((i) => i[1]),
      );
      expect(inputs(page)).to.deep.equal(inputs(captureText('consent-page.html')));
      expect(page).to.match(/name="v" value="cb\.[^"]+"/);
    } finally {
      fake.scenario.consentWall(false);
    }
  });

  it('the 429 captcha page keeps captcha-429.html\u2019s markers (g-recaptcha, form to /das_captcha)', async () => {
    fake.scenario.block429({ requests: 1 });
    const res = await fetch(`${fake.url}/watch?v=${channel.videos[0]?.videoId ?? ''}`);
    const page = await res.text();
    expect(res.status).to.equal(429);
    const real = captureText('captcha-429.html');
    for (const marker of ['class="g-recaptcha"', 'action="/das_captcha?fw=1"', 'name="action_recaptcha_verify2"', 'recaptcha/api.js']) {
      expect(real, marker).to.include(marker);
      expect(page, marker).to.include(marker);
    }
  });
  it('visitor_id has the paths of visitor_id-android-2026.json; the VISIONOS player answer those of player-visionos-ok-2026.json', async () => {
    const visitor = await innertube(fake.url, 'visitor_id', { context: { client: { clientName: 'VISIONOS', clientVersion: '1.02' } } });
    expect(visitor.status).to.equal(200);
    expect(missingPaths(capture('visitor_id-visionos-2026.json'), visitor.json)).to.deep.equal([]);
    expect(missingPaths(capture('visitor_id-android-2026.json'), visitor.json, /^responseContext\.visitorData$/)).to.deep.equal([]);
    const video = videoOf(channel, 'both');
    const { json } = await innertube(fake.url, 'player', { context: { client: { clientName: 'VISIONOS', clientVersion: '1.02' } }, videoId: video.videoId });
    const read = /^(playabilityStatus\.status|videoDetails\.(videoId|title|lengthSeconds|shortDescription)|captions\.playerCaptionsTracklistRenderer\.captionTracks\[\]\.(baseUrl|languageCode|name\.runs\[\]\.text|vssId|kind))$/;
    expect(missingPaths(capture('player-visionos-ok-2026.json'), json, read)).to.deep.equal([]);
    expect(at(json, 'microformat'), 'app answers carry no microformat').to.equal(undefined);
  });

  it('a field-masked WEB player answer has the paths of player-web-fields-microformat-2026.json that the mask names', async () => {
    const video = videoOf(channel, 'both');
    const res = await fetch(`${fake.url}/youtubei/v1/player?prettyPrint=false&$fields=microformat,videoDetails.videoId`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ context: WEB_CONTEXT, videoId: video.videoId }),
    });
    const json = (await res.json()) as Json;
    expect(topKeys(json)).to.deep.equal(['microformat', 'videoDetails']);
    expect(missingPaths(capture('player-web-fields-microformat-2026.json'), json, /^(videoDetails\.videoId|microformat\.playerMicroformatRenderer\.(publishDate|uploadDate))$/)).to.deep.equal([]);
  });
});
