// Playlist feeds end to end: the real crawler (in process) against the fake platform over HTTP,
// storing into the API's SQLite store; the real app answers GET /?playlist_id=… over HTTP. A
// playlist of 15 comes from the playlist feed alone; one of 60 (among private and deleted entries)
// through the playlist page and its continuations; both in the playlist's own order, each entry
// dated with its video's publish date. Videos are shared: a channel feed asked for afterwards
// fetches only what no playlist stored. Private and deleted playlists answer their own 404.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import type { Scheduler } from '../../crawler/scheduler';
import { realTiming } from '../../crawler/timing';
import { asArray, startApi, type TestApi } from '../api/support';
import { endedOutcome, startInProcessCrawler } from '../crawler/support/in-process-crawler';
import { captureLogs } from '../support/logs';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform, type FakePlaylistSpec } from '../fake-platform';
import { jsonFeedViolations } from '../transcript/json-feed-rules';
import { until } from '../support/poll';

const PL15 = 'PLcourse15_aaaaaaaaaaaaaaaaaaaaaaaaa';
const PL60 = 'PLlong60_bbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const PRIVATE = 'PLprivate_cccccccccccccccccccccccccccc';
const DELETED = 'PLdeleted_dddddddddddddddddddddddddddd';

/** Every video of both channels, captions that always give a transcript, so every entry is shown. */
const teacher: FakeChannelSpec = makeChannel({ handle: 'teacher', title: 'The Teacher', count: 70, seed: 'teacher', captionsMix: { manual: 1 } });
const guest: FakeChannelSpec = makeChannel({ handle: 'guest', title: 'A Guest', count: 20, seed: 'guest', captionsMix: { automatic: 1 } });

/** A course order: not the upload order (oldest lesson first, a guest's video in between). */
const course = [...teacher.videos.slice(50, 60).reverse(), guest.videos[3]!, ...teacher.videos.slice(60, 64).reverse()].map((v) => v.videoId);
/** 60 available entries from both channels in a shuffled but fixed order, plus three gaps. */
const long = [...teacher.videos.slice(0, 45), ...guest.videos.slice(5, 20)].map((v) => v.videoId).sort();

const PLAYLISTS: FakePlaylistSpec[] = [
  { playlistId: PL15, title: 'Bread & Butter: the course', ownerChannelId: teacher.channelId, entries: course.map((videoId) => ({ videoId })) },
  {
    playlistId: PL60,
    title: 'Everything, in order',
    ownerChannelId: teacher.channelId,
    entries: [
      ...long.slice(0, 10).map((videoId) => ({ videoId })),
      { videoId: 'gonePrivat1', gone: 'private' as const },
      ...long.slice(10, 40).map((videoId) => ({ videoId })),
      { videoId: 'goneDelete1', gone: 'deleted' as const },
      { videoId: 'goneDelete2', gone: 'deleted' as const },
      ...long.slice(40).map((videoId) => ({ videoId })),
    ],
  },
  { playlistId: PRIVATE, title: 'Secret', ownerChannelId: teacher.channelId, entries: course.slice(0, 3).map((videoId) => ({ videoId })), state: 'private' },
  { playlistId: DELETED, title: 'Gone', ownerChannelId: teacher.channelId, entries: [], state: 'deleted' },
];

const published = new Map([...teacher.videos, ...guest.videos].map((v) => [v.videoId, v.publishedAt.toISOString().slice(0, 19)]));
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' });

describe('playlist feeds end to end: crawler → store → GET /?playlist_id=…', function () {
  this.timeout(120_000);
  let fake: FakePlatform;
  let api: TestApi;
  let scheduler: Scheduler;
  let logs: ReturnType<typeof captureLogs>;
  const ended = (id: string) => async (): Promise<boolean> => (await endedOutcome(api.store, id)) !== null;

  before(async () => {
    fake = await startFakePlatform({ channels: [teacher, guest], playlists: PLAYLISTS });
    // Smaller pages than the platform's 100, so that 60 entries take three pages and two continuations.
    fake.scenario.playlistPageSize(25);
    api = await startApi();
    api.now = new Date();
    logs = captureLogs();
  });
  after(async () => {
    await scheduler?.stop();
    await api.close();
    await fake.close();
  });

  it('answers 404 "Henüz işlenmiş video yok" with the playlist id until the first batch is stored', async () => {
    for (const [query, id] of [[`playlist_id=${PL15}&max_items=15`, PL15], [`playlist_url=${encodeURIComponent(`https://www.youtube.com/playlist?list=${PL60}`)}&max_items=60`, PL60], [`playlist_id=${PRIVATE}`, PRIVATE], [`playlist_id=${DELETED}`, DELETED]] as const) {
      const res = await api.get(`/?${query}`);
      expect(res.status, query).to.equal(404);
      expect(await res.json(), query).to.deep.include({ error: 'Henüz işlenmiş video yok', playlist_id: id });
    }
    // The requests registered each playlist as work of its own kind, with the wanted count asked for.
    expect(await api.store.getChannel(PL60)).to.deep.include({ kind: 'playlist', wanted: 60 });
    scheduler = startInProcessCrawler({ fakeUrl: fake.url, configDir: api.dir, store: api.store, timing: realTiming, logger: logs.logger, owner: 'playlists-e2e' });
    for (const id of [PL15, PL60, PRIVATE, DELETED]) await until(`the run of ${id} to end`, ended(id), 60_000);
  });

  it('a playlist of 15: the playlist feed alone, entries in the playlist\'s order with their publish dates, named after the playlist', async () => {
    const res = await api.get(`/?playlist_id=${PL15}&max_items=15&format=Json`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { title: string; home_page_url: string; feed_url: string; authors: { name: string }[]; items: { id: string; date_published: string }[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    expect(doc.items.map((i) => i.id)).to.deep.equal(course);
    expect(doc.items.map((i) => i.date_published.slice(0, 19))).to.deep.equal(course.map((id) => published.get(id)));
    expect(doc.title).to.equal('YouTube Transcripts - Bread & Butter: the course');
    expect(doc.authors[0]!.name).to.equal('The Teacher');
    expect(doc.home_page_url).to.equal(`https://youtube.com/playlist?list=${PL15}`);
    expect(doc.feed_url).to.match(new RegExp(`/\\?playlist_id=${PL15}&format=Json&max_items=15$`));
  });

  it('a playlist of 60: through the playlist page and its continuations, in order, private and deleted entries skipped', async () => {
    expect(fake.counters.browseContinuation).to.be.at.least(2);
    const res = await api.get(`/?playlist_url=${encodeURIComponent(`https://www.youtube.com/playlist?list=${PL60}`)}&max_items=60&format=Rss`);
    expect(res.status).to.equal(200);
    const doc = xml.parse(await res.text()) as { rss: { channel: { title: string; link: string; item: { guid: { '#text': string }; pubDate: string }[] } } };
    const items = asArray(doc.rss.channel.item);
    expect(items.map((i) => i.guid['#text'])).to.deep.equal(long);
    for (const i of items) expect(new Date(i.pubDate).toISOString().slice(0, 19)).to.equal(published.get(i.guid['#text']));
    expect(doc.rss.channel.title).to.equal('YouTube Transcripts - Everything, in order');
    expect(doc.rss.channel.link).to.equal(`https://youtube.com/playlist?list=${PL60}`);
    // The first 15 only, on a smaller max_items; Atom names the playlist's owner as author.
    const atom = await (await api.get(`/?playlist_id=${PL60}&max_items=15`)).text();
    expect([...atom.matchAll(/<entry><id>([^<]+)<\/id>/g)].map((m) => m[1])).to.deep.equal(long.slice(0, 15));
    expect(atom).to.include('<author><name>The Teacher</name></author>');
  });

  it('every video was fetched once: a channel feed asked for afterwards fetches only what no playlist stored', async () => {
    const stored = await api.store.getVideos(long);
    expect(stored.filter((v) => v.channelId === teacher.channelId)).to.have.length(45);
    expect(stored.filter((v) => v.channelId === guest.channelId)).to.have.length(15);
    const storedGuest = new Set((await api.store.storedVideoIds(guest.videos.map((v) => v.videoId))));
    expect(guest.videos.filter((v) => !storedGuest.has(v.videoId)).map((v) => v.videoId)).to.deep.equal([0, 1, 2, 4].map((i) => guest.videos[i]!.videoId));
    const before = fake.counters.timedtext;
    expect((await api.get(`/?channel_id=${guest.channelId}&max_items=20`)).status).to.equal(200);
    // Stored by the playlists: guest videos 3 and 5–19; the channel's run fetches the other four.
    scheduler.wake();
    await until('the guest channel run to end', async () => (await api.store.getChannel(guest.channelId))?.lastOutcome === 'ok', 60_000);
    expect(fake.counters.timedtext - before).to.equal(4);
    const feed = (await (await api.get(`/?channel_id=${guest.channelId}&max_items=20&format=Json`)).json()) as { items: unknown[] };
    expect(feed.items).to.have.length(20);
  });

  it('private and deleted playlists: their own 404 once the crawler has seen the platform\'s answer', async () => {
    const priv = await api.get(`/?playlist_id=${PRIVATE}`);
    expect(priv.status).to.equal(404);
    expect(await priv.json()).to.deep.include({ error: 'Oynatma listesi gizli', playlist_id: PRIVATE });
    const gone = await api.get(`/?playlist_id=${DELETED}`);
    expect(gone.status).to.equal(404);
    expect(await gone.json()).to.deep.include({ error: 'Oynatma listesi bulunamadı', playlist_id: DELETED });
    expect(await api.store.getChannel(PRIVATE)).to.deep.include({ lastOutcome: 'not_found' });
  });

  it('answers 304 to its own ETag; the transcript files its entries link work', async () => {
    const first = await api.get(`/?playlist_id=${PL15}&format=Rss`);
    const etag = first.headers.get('etag')!;
    expect((await api.get(`/?playlist_id=${PL15}&format=Rss`, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    const link = /<podcast:transcript url="([^"]+)"/.exec(await first.text())![1]!.replace(/&amp;/g, '&');
    expect((await api.get(new URL(link).pathname + new URL(link).search)).status).to.equal(200);
  });
});
