// The crawler in process over real HTTP: the fake platform on loopback, the real platform client,
// a real SQLite store, the fast profile with zero waits (the real configuration loader, as an
// operator would set it). Channels go from nothing stored to a full feed; listings past 15 use
// browse continuations; new uploads arrive with the scheduled refresh; blocks are waited out.
// Refreshes cost what the fake's counters say: one feed request for an unchanged channel, one
// feed request plus player and timed text per new upload.

import { expect } from 'chai';
import type { Scheduler } from '../../crawler/scheduler';
import { realTiming } from '../../crawler/timing';
import { UNKNOWN_PUBLISHED_MS, type VideoRecord } from '../../shared/store/types';
import { makeChannel, type FakeChannelSpec, type FakeCounters } from '../fake-platform';
import { emptyCounters } from '../fake-platform/types';
import { probeStore, type StoreProbe } from './support/store-probe';
import { crawlerOnFake, endedOutcome } from './support/in-process-crawler';
import { mainTranscripts, textOf } from '../support/factories';
import { until } from '../support/poll';
import { refreshAll } from '../support/refresh';

const READY_KINDS = new Set(['manual', 'automatic', 'both', 'foreign']);

describe('crawler against the fake platform (in process)', function () {
  this.timeout(60_000);
  const crawler = crawlerOnFake({ storePrefix: 'tf-crawler-it-' });
  let probe: StoreProbe;
  beforeEach(() => {
    probe = probeStore(crawler.ts.store);
  });

  // Real time, moved forward by skewMs to wait out a backoff without waiting (the refresh no longer
  // cancels backoffs, so a test cannot use refreshAll for it).
  let skewMs = 0;
  const skewedTiming = { ...realTiming, now: () => new Date(Date.now() + skewMs) };
  const waitOutBackoff = async (ch: FakeChannelSpec) => {
    skewMs = (await crawler.ts.store.getChannel(ch.channelId))!.dueAt.getTime() - Date.now();
  };

  function startCrawler(env: Record<string, string> = {}): Scheduler {
    skewMs = 0;
    return crawler.start(env, { store: probe.store, timing: skewedTiming });
  }
  const register = (ch: FakeChannelSpec, wanted: number) => crawler.ts.store.registerChannel({ channelId: ch.channelId, wanted }, new Date());
  const outcomeOf = (ch: FakeChannelSpec) => endedOutcome(crawler.ts.store, ch.channelId);
  const records = async (ch: FakeChannelSpec): Promise<Map<string, VideoRecord>> =>
    new Map((await crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId))).map((r) => [r.videoId, r]));
  const runsEnded = (): number => crawler.logs.lines.filter((l) => l.msg === 'run ended').length;
  /** Waits for the next run to end and gives what it cost the platform (counters reset before `start`). */
  async function costOfRun(start: () => Promise<unknown> | void): Promise<FakeCounters> {
    const before = runsEnded();
    crawler.fake.resetCounters();
    await start();
    crawler.scheduler?.wake();
    await until('the run to end', () => runsEnded() > before);
    return crawler.fake.counters;
  }
  /** The scheduled refresh, as the cron makes it. */
  const refresh = () => costOfRun(async () => void (await refreshAll(crawler.ts.store, new Date())));
  const lastRun = () => crawler.logs.lines.filter((l) => l.msg === 'run ended').at(-1)!;
  const newestIds = (ch: FakeChannelSpec, n: number): string[] => crawler.fake.channel(ch.channelId)!.videos.slice(0, n).map((v) => v.videoId);

  it('takes a fresh channel from nothing stored (the API answers 404) to a full feed, exactly as the platform has it', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'freshstart', count: 14, seed: 11 }));
    expect(await crawler.ts.store.listFeedEntries(ch.channelId, 100)).to.deep.equal([]);
    await register(ch, 14);
    startCrawler();
    await until('the run to end', async () => (await outcomeOf(ch)) === 'ok');

    const rows = await records(ch);
    const texts = await mainTranscripts(crawler.ts.store, [...rows.keys()]);
    expect(rows.size).to.equal(14);
    for (const v of ch.videos) {
      const r = rows.get(v.videoId)!;
      expect(r.publishedAt.toISOString(), v.videoId).to.equal(v.publishedAt.toISOString());
      expect(r.title).to.equal(v.title);
      if (READY_KINDS.has(v.captions)) {
        expect(r.state, `${v.videoId} (${v.captions})`).to.equal('ready');
        expect(textOf(texts.get(v.videoId)), v.videoId).not.to.equal('');
      } else if (v.captions === 'none') {
        expect(r).to.deep.include({ state: 'no_transcript', language: null });
        expect(texts.has(v.videoId)).to.equal(false);
        expect(r.nextAttemptAt, 'retried later').not.to.equal(null);
      } else {
        expect(r.state, `${v.videoId} (${v.captions})`).to.equal('unavailable');
      }
    }
    const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 100);
    expect(feed.length).to.equal(ch.videos.filter((v) => READY_KINDS.has(v.captions)).length).and.be.greaterThan(0);
    expect(feed.map((e) => e.publishedAt.getTime())).to.deep.equal(feed.map((e) => e.publishedAt.getTime()).sort((a, b) => b - a));
  });

  it('lists 60 videos through the feed plus browse continuations and stores them as 20, 20, 20', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'sixtyvideos', count: 60, seed: 12, captionsMix: { manual: 1 } }));
    await register(ch, 60);
    startCrawler();
    await until('the run to end', async () => (await outcomeOf(ch)) === 'ok');

    expect(crawler.fake.counters).to.include({ feed: 1, browse: 1 });
    expect(crawler.fake.counters.browseContinuation).to.be.at.least(1);
    expect(probe.upserts).to.deep.equal([20, 20, 20]);
    const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 100);
    expect(feed.map((e) => e.videoId)).to.deep.equal(ch.videos.map((v) => v.videoId));
    // Browse gives only relative dates; the exact ones came from the watch pages, none invented.
    feed.forEach((e, i) => expect(e.publishedAt.toISOString()).to.equal(ch.videos[i]!.publishedAt.toISOString()));
    const texts = await mainTranscripts(crawler.ts.store, feed.map((e) => e.videoId));
    expect(new Set(feed.map((e) => textOf(texts.get(e.videoId)))).size).to.equal(60);
  });

  it('learns that an unchanged channel (wanted 40) has nothing new from exactly one feed request per refresh', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'unchanged40', count: 60, seed: 21 }));
    const first = await costOfRun(async () => {
      await register(ch, 40);
      startCrawler();
    });
    expect(first).to.include({ feed: 1, browse: 1, browseContinuation: 1 });
    for (let i = 0; i < 3; i += 1) {
      expect(await refresh(), `refresh ${i + 1}`).to.deep.equal({ ...emptyCounters(), feed: 1, total: 1 });
      expect(lastRun()).to.deep.include({ outcome: 'ok', listing: 'feed', stored: 0 });
    }
  });

  it('fetches 5 new uploads (wanted 40) for one feed request plus player and timed text each', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'steadystate', count: 60, seed: 22 }));
    await costOfRun(async () => {
      await register(ch, 40);
      startCrawler();
    });
    const uploads = Array.from({ length: 5 }, (_, i) => crawler.fake.addUpload(ch.channelId, { title: `Upload ${i}`, captions: i % 2 ? 'automatic' : 'manual' }));
    const cost = await refresh();
    expect(cost).to.include({ feed: 1, browse: 0, browseContinuation: 0, watch: 0, player: 5, timedtext: 5, total: 11 });
    const rows = await crawler.ts.store.getVideos(uploads.map((u) => u.videoId));
    expect(rows.map((r) => [r.videoId, r.state])).to.deep.equal(uploads.map((u) => [u.videoId, 'ready']));
    rows.forEach((r, i) => expect(r.publishedAt.toISOString()).to.equal(new Date(Math.floor(uploads[i]!.publishedAt.getTime() / 1000) * 1000).toISOString()));
  });

  it('lists in full again when wanted grows from 10 to 50', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'growingwant', count: 70, seed: 23, captionsMix: { manual: 1 } }));
    const first = await costOfRun(async () => {
      await register(ch, 10);
      startCrawler();
    });
    // One visitor_id starts the player client's session; it serves every later video. A first
    // listing asks browse's first page before the feed (it alone says whether the channel exists).
    expect(first).to.include({ feed: 1, browse: 1, visitorId: 1, player: 10, total: 23 });
    const grown = await costOfRun(async () => void (await register(ch, 50)));
    // 40 transcripts; the 35 past the feed's 15 are listed undated by browse, so each costs one more
    // (field-masked WEB) player call for its date, and no watch page.
    expect(grown).to.include({ feed: 1, browse: 1, browseContinuation: 1, player: 40 + 35, timedtext: 40, watch: 0 });
    expect(lastRun()).to.deep.include({ outcome: 'ok', listing: 'deep', stored: 40 });
    expect((await crawler.ts.store.getVideos(newestIds(ch, 50))).filter((r) => r.state === 'ready')).to.have.length(50);
    expect(await refresh()).to.include({ feed: 1, total: 1 });
  });

  // Seed 8: the feed's 15 newest hold 11 regular videos (the feed alone vouches); seed 3: only 9
  // (browse adds the rest). Either way the newest 10 uploads include Shorts, and a first listing
  // asks browse's first page once, before the feed.
  for (const seed of [8, 3] as const) {
    it(`fills a default feed of max_items 10 with 10 regular videos though the newest uploads include Shorts (seed ${seed})`, async () => {
      const ch = crawler.fake.addChannel(makeChannel({ handle: `shortsheavy${seed}`, count: 60, seed, shortsRatio: 0.5, captionsMix: { manual: 1 } }));
      const regularIds = ch.videos.filter((v) => v.short !== true).map((v) => v.videoId);
      expect(ch.videos.slice(0, 10).some((v) => v.short), 'Shorts among the newest 10').to.equal(true);
      const first = await costOfRun(async () => {
        await register(ch, 10);
        startCrawler();
      });
      expect(first, 'one browse page, first, whatever the feed holds').to.include({ browse: 1, browseContinuation: 0, feed: 1 });
      const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 10);
      expect(feed.map((e) => e.videoId), 'the default feed').to.deep.equal(regularIds.slice(0, 10));
      const mixed = await crawler.ts.store.listFeedEntries(ch.channelId, 10, ['regular', 'short']);
      expect(mixed.map((e) => e.videoId), 'include=shorts').to.deep.equal(newestIds(ch, 10));
      expect(await refresh(), 'an unchanged channel').to.deep.equal({ ...emptyCounters(), feed: 1, total: 1 });
    });
  }

  it('falls back to browse during a feed outage, and never fetches undated unavailable videos again', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'outagegone', count: 40, seed: 24, captionsMix: { manual: 0.7, unavailable: 0.3 } }));
    await costOfRun(async () => {
      await register(ch, 40);
      startCrawler();
    });
    const hosted = crawler.fake.channel(ch.channelId)!.videos;
    const gone = hosted.slice(15).filter((v) => v.captions === 'unavailable');
    expect(gone.length, 'the channel has gone videos past the feed').to.be.at.least(2);
    const goneRows = await crawler.ts.store.getVideos(gone.map((v) => v.videoId));
    // Listed by browse without a date, with none on their watch page: recorded, under the sentinel.
    expect(goneRows.map((r) => [r.state, r.publishedAt.getTime()])).to.deep.equal(gone.map(() => ['unavailable', UNKNOWN_PUBLISHED_MS]));

    crawler.fake.scenario.feedOutage(500);
    const uploads = [0, 1].map((i) => crawler.fake.addUpload(ch.channelId, { title: `During the outage ${i}`, captions: 'manual' }));
    const cost = await refresh();
    // The failed feed, browse pages, then per new upload: player, timed text, and the field-masked
    // WEB player call for its date (browse gives none); never the watch page. Nothing for the gone
    // videos: they back off.
    expect(cost).to.include({ feed: 1, browse: 1, watch: 0, player: 4, timedtext: 2 });
    expect(lastRun()).to.deep.include({ outcome: 'ok', listing: 'deep', stored: 2 });
    const rows = await crawler.ts.store.getVideos(uploads.map((u) => u.videoId));
    expect(rows.map((r) => r.state)).to.deep.equal(['ready', 'ready']);
    rows.forEach((r, i) => expect(Math.abs(r.publishedAt.getTime() - uploads[i]!.publishedAt.getTime())).to.be.below(1000));
    const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 100);
    expect(feed.every((e) => e.publishedAt.getTime() !== UNKNOWN_PUBLISHED_MS), 'the sentinel is never shown').to.equal(true);
  });

  it('picks up new uploads when the channel is due again by its rhythm', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'newuploads', count: 5, seed: 13, captionsMix: { manual: 1 } }));
    await register(ch, 5);
    // A one-second rhythm bound, so the next listing comes within the test.
    startCrawler({ CRAWL_LISTING_INTERVAL: '1' });
    await until('the first run', async () => (await outcomeOf(ch)) === 'ok');
    const upload = crawler.fake.addUpload(ch.channelId, { title: 'Brand new upload' });
    await until('the new upload stored', async () => (await crawler.ts.store.getVideos([upload.videoId])).length === 1, 15_000);
    const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 10);
    expect(feed[0]).to.deep.include({ videoId: upload.videoId, title: 'Brand new upload', state: 'ready' });
  });

  it('waits out a 429 window and bot checks, recovers and completes', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'blockedtalks', count: 10, seed: 14, captionsMix: { manual: 1 } }));
    crawler.fake.scenario.block429({ requests: 2 });
    // Two bot checks: the first client's, and the one more client asked after a strong signal.
    crawler.fake.scenario.botCheck(2);
    await register(ch, 10);
    startCrawler();
    await until('the run to end', async () => (await outcomeOf(ch)) !== null);

    expect(await outcomeOf(ch)).to.equal('ok');
    const rows = await records(ch);
    expect([...rows.values()].filter((r) => r.state === 'ready')).to.have.length(10);
    const warnings = crawler.logs.lines.filter((l) => l.level === 'WARNING' && l.outcome === 'blocked');
    expect(warnings.map((w) => w.reason)).to.satisfy((rs: string[]) => rs.some((r) => /429/.test(r)) && rs.some((r) => /bot/.test(r)));
  });

  it('ends a run on a block that does not lift, keeps the stored batch, and completes after the block', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'longblock', count: 30, seed: 15, captionsMix: { manual: 1 } }));
    probe.afterUpsert = () => {
      // After the first batch the platform starts refusing everything until cleared.
      if (probe.upserts.length === 1) crawler.fake.scenario.block429();
    };
    await register(ch, 30);
    const s = startCrawler();
    await until('the blocked run to end', async () => (await outcomeOf(ch)) === 'blocked');
    const blockedChannel = (await crawler.ts.store.getChannel(ch.channelId))!;
    expect(blockedChannel.consecutiveFailures).to.equal(1);
    expect(blockedChannel.dueAt.getTime() - blockedChannel.lastCrawlAt!.getTime()).to.equal(30 * 60_000);
    const kept = [...(await records(ch)).values()].filter((r) => r.state === 'ready');
    expect(kept).to.have.length(20);

    crawler.fake.clearScenarios();
    await waitOutBackoff(ch);
    s.wake();
    await until('the next run to end', async () => (await outcomeOf(ch)) === 'ok');
    const rows = await records(ch);
    const ready = [...rows.values()].filter((r) => r.state === 'ready');
    // The one video the block first hit waits for its own retry time; everything else is there.
    expect(ready.length).to.be.within(29, 30);
    for (const r of kept) expect(rows.get(r.videoId)!.fetchedAt.getTime(), 'stored batch untouched').to.equal(r.fetchedAt.getTime());
  });

  it('records 5xx answers on the channel, backs off, and succeeds once the platform is back', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'flakyserver', count: 4, seed: 16, captionsMix: { manual: 1 } }));
    crawler.fake.scenario.serverError(50, 503);
    await register(ch, 4);
    const s = startCrawler();
    await until('the failed run', async () => (await outcomeOf(ch)) === 'error');
    const failed = (await crawler.ts.store.getChannel(ch.channelId))!;
    expect(failed.consecutiveFailures).to.equal(1);
    expect(failed.lastError).to.match(/503|5\d\d/);
    expect(failed.dueAt.getTime()).to.be.greaterThan(Date.now());

    crawler.fake.clearScenarios();
    await waitOutBackoff(ch);
    s.wake();
    await until('the good run', async () => (await outcomeOf(ch)) === 'ok');
    expect((await crawler.ts.store.getChannel(ch.channelId))!.consecutiveFailures).to.equal(0);
    expect((await crawler.ts.store.listFeedEntries(ch.channelId, 10)).length).to.equal(4);
  });
});
