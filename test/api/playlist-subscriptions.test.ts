// Followed playlists over real HTTP: a playlist feed request records the follow; the OPML and JSON
// exports list the playlist (its title, else its id; its feed on this service with the key; its
// page), newsboat imports that OPML and its playlist URL answers the playlist's feed; DELETE takes
// it off; an import names playlists by URL; the combined feed holds the playlists' videos.

import { expect } from 'chai';
import { newsboatImport } from '../support/newsboat';
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { CHANNEL, KEY, startApi, video, type TestApi } from './support';

const PL = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
const PL2 = 'PL1234567890ABCDEF';
const OTHER = 'UCBa659QWEk1AI4Tg--mrJ2A';
const BASE = 'https://feeds.example.org';
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

describe('subscriptions: followed playlists', function () {
  let api: TestApi;
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'outline' || name === 'entry' });
  const outlines = async (): Promise<Record<string, string>[]> =>
    (parser.parse(await (await api.get('/subscriptions')).text()) as { opml: { body: { outline?: Record<string, string>[] } } }).opml.body.outline ?? [];

  beforeEach(async function () {
    api = await startApi({ publicBaseUrl: BASE });
    await api.store.upsertVideos([video(1), video(2), video(3)]);
    await api.store.putPlaylist({ playlistId: PL, title: 'A course <1> & "2"', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000003', 'vid00000001'] }, api.now);
  });
  afterEach(async function () {
    await api.close();
  });

  it('a playlist feed request records the follow; the exports list it with its title, feed (with the key) and page', async function () {
    expect((await api.get(`/?playlist_url=${encodeURIComponent(`https://www.youtube.com/playlist?list=${PL}`)}`)).status).to.equal(200);
    expect((await api.get(`/?playlist_id=${PL2}`)).status, 'followed even before anything is stored').to.equal(404);
    expect(await api.store.listSubscriptions(keyIdOf(KEY))).to.have.deep.members([
      { channelId: PL, kind: 'playlist', handle: null, title: null, source: 'feed', since: api.now },
      { channelId: PL2, kind: 'playlist', handle: null, title: null, source: 'feed', since: api.now },
    ]);
    // The crawler names the playlist when it lists it.
    await api.store.claimDueChannel('w1', 60_000, api.now);
    await api.store.claimDueChannel('w1', 60_000, api.now);
    await api.store.releaseChannel(PL, 'w1', { nextDueAt: new Date(api.now.getTime() + 60_000), outcome: 'ok', consecutiveFailures: 0, title: 'A course <1> & "2"' }, api.now);
    const opml = await outlines();
    const byUrl = new Map(opml.map((o) => [o.xmlUrl, o]));
    expect(byUrl.get(`${BASE}/?playlist_id=${PL}&api_key=${KEY}`)).to.deep.include({ type: 'rss', text: 'A course <1> & "2"', title: 'A course <1> & "2"', htmlUrl: `https://www.youtube.com/playlist?list=${PL}` });
    expect(byUrl.get(`${BASE}/?playlist_id=${PL2}&api_key=${KEY}`), 'its id until its title is known').to.deep.include({ title: PL2, htmlUrl: `https://www.youtube.com/playlist?list=${PL2}` });
    const json = (await (await api.get('/subscriptions?format=Json')).json()) as { subscriptions: Record<string, string>[] };
    expect(json.subscriptions.find((s) => s.playlist_id === PL)).to.deep.include({ title: 'A course <1> & "2"', feed_url: `${BASE}/?playlist_id=${PL}&api_key=${KEY}`, html_url: `https://www.youtube.com/playlist?list=${PL}`, source: 'feed' });
    expect(json.subscriptions.every((s) => s.channel_id === undefined)).to.equal(true);
  });

  it('DELETE /subscriptions/<playlist_id> takes the playlist off; a later feed request follows it again', async function () {
    await api.get(`/?playlist_id=${PL}`);
    const res = await api.get(`/subscriptions/${PL}`, { method: 'DELETE' });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ removed: PL });
    expect(await api.store.listSubscriptions(keyIdOf(KEY))).to.deep.equal([]);
    expect((await api.store.getChannel(PL))?.followed).to.equal(false);
    expect((await api.get(`/subscriptions/${PL}`, { method: 'DELETE' })).status).to.equal(404);
    expect((await api.get('/subscriptions/RDdQw4w9WgXcQ', { method: 'DELETE' })).status, 'not a playlist id the service accepts').to.equal(400);
    await api.get(`/?playlist_id=${PL}`);
    expect((await api.store.listSubscriptions(keyIdOf(KEY))).map((s) => s.channelId)).to.deep.equal([PL]);
  });

  it('an import names playlists by their page, the platform’s playlist feed or a transcript feed URL', async function () {
    const body = [
      `https://www.youtube.com/playlist?list=${PL}`,
      `https://www.youtube.com/feeds/videos.xml?playlist_id=${PL2}`,
      `${BASE}/?playlist_id=${PL}&api_key=other`,
      `https://www.youtube.com/playlist?list=RDdQw4w9WgXcQ`,
      `https://www.youtube.com/channel/${OTHER}`,
    ].join('\n');
    const res = await api.get('/subscriptions', { method: 'POST', body, headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).to.equal(200);
    const answer = (await res.json()) as { imported: number; channels: Record<string, string>[]; rejected: { line: number }[] };
    expect(answer.imported).to.equal(3);
    expect(answer.channels.map((c) => c.playlist_id ?? c.channel_id)).to.deep.equal([PL, PL2, OTHER]);
    expect(answer.channels[1]!.feed_url).to.equal(`${BASE}/?playlist_id=${PL2}&api_key=${KEY}`);
    expect(answer.rejected.map((r) => r.line)).to.deep.equal([4]);
    expect(await api.store.getChannel(PL2)).to.deep.include({ kind: 'playlist', followed: true });

    const opml = `<?xml version="1.0"?><opml version="2.0"><body><outline text="Course" xmlUrl="https://www.youtube.com/feeds/videos.xml?playlist_id=${PL}"/></body></opml>`;
    const again = (await (await api.get('/subscriptions', { method: 'POST', body: opml })).json()) as { imported: number; already: number };
    expect(again).to.deep.include({ imported: 0, already: 1 });
  });

  it('imports as is into newsboat (-i), whose playlist URL then answers the playlist’s feed', async function () {
    await api.get(`/?playlist_id=${PL}`);
    await api.get(`/?channel_id=${CHANNEL}`);
    const opml = await (await api.get('/subscriptions')).text();
    const imported = newsboatImport(api.dir, opml);
    expect(imported).to.have.members([`${BASE}/?playlist_id=${PL}&api_key=${KEY}`, `${BASE}/?channel_id=${CHANNEL}&api_key=${KEY}`]);
    const feed = await fetch(imported.find((u) => u.includes(PL))!.replace(BASE, api.base));
    expect(feed.status).to.equal(200);
    const doc = parser.parse(await feed.text()) as { feed: { entry: { id: string }[] } };
    expect(doc.feed.entry.map((e) => e.id), 'the playlist’s own order').to.deep.equal(['vid00000003', 'vid00000001']);
  });

  it('the combined feed holds the followed playlists’ stored videos beside the channels’, newest first', async function () {
    await api.store.upsertVideos([video(4, { channelId: OTHER }), video(5, { channelId: OTHER })]);
    await api.store.follow(keyIdOf(KEY), [{ channelId: PL, kind: 'playlist' }, { channelId: OTHER }], 'import', 10, api.now);
    const ids = async (): Promise<string[]> => ((await (await api.get('/subscriptions/feed?format=Json')).json()) as { items: { id: string }[] }).items.map((i) => i.id);
    // video n is published n hours before 2024-01-01: newest first is 1, 3 (the playlist's), 4, 5.
    expect(await ids()).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004', 'vid00000005']);
    const first = await api.get('/subscriptions/feed');
    const etag = first.headers.get('etag')!;
    // The crawler lists the playlist again with another entry: a new combined feed.
    await api.store.putPlaylist({ playlistId: PL, title: 'A course', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000002'] }, new Date(api.now.getTime() + 60_000));
    expect((await api.get('/subscriptions/feed', { headers: { 'If-None-Match': etag } })).status).to.equal(200);
    expect(await ids()).to.deep.equal(['vid00000002', 'vid00000004', 'vid00000005']);
    await api.get(`/subscriptions/${PL}`, { method: 'DELETE' });
    expect(await ids()).to.deep.equal(['vid00000004', 'vid00000005']);
  });
});
