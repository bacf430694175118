// One channel run over a real SQLite store, with a scripted platform and injected time: batch
// plans, waits, storage after each batch, publish dates, per-video outcomes, stopping. How a run
// chooses between the feed alone and a full listing is in channel-listing.test.ts.

import { expect } from 'chai';
import { runChannel, type ChannelRunDeps } from '../../crawler/channel-run';
import { PROFILES, type CrawlProfile } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { PlatformError } from '../../shared/platform/types';
import { UNKNOWN_PUBLISHED_MS, type ChannelRecord, type VideoRecord } from '../../shared/store/types';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';
import { ScriptedPlatform, makeVideos, transcriptFor } from './support/scripted-platform';
import { probeStore, type StoreProbe } from './support/store-probe';
import { tempStore, type TempStore } from '../support/temp-store';
import { mainTranscripts } from '../support/factories';

const CH = 'UCcrawlerunittest0000001';
const HOUR = 3_600_000;

describe('crawler channel run', () => {
  let ts: TempStore;
  let probe: StoreProbe;
  let events: string[];
  let timing: FakeTiming;

  beforeEach(async () => {
    ts = await tempStore();
    probe = probeStore(ts.store);
    events = [];
    timing = new FakeTiming(events);
  });
  afterEach(async () => ts.cleanup());

  const register = (wanted: number): Promise<ChannelRecord> => ts.store.registerChannel({ channelId: CH, wanted }, timing.now());
  /** The channel as a later run sees it: listed before (its first listing starts with browse). */
  const listedBefore = async (wanted: number): Promise<ChannelRecord> => ({ ...(await register(wanted)), lastOutcome: 'ok' });
  const deps = (platform: ScriptedPlatform, profile: CrawlProfile = PROFILES.fast, extra: Partial<ChannelRunDeps> = {}): ChannelRunDeps => ({
    store: probe.store, platform, unblockers: [], profile, timing, logger: silentLogger(), ...extra,
  });
  const stored = async (ids: string[]): Promise<Map<string, VideoRecord>> =>
    new Map((await ts.store.getVideos(ids)).map((v) => [v.videoId, v]));
  const ids = (n: number): string[] => makeVideos(n).map((v) => v.videoId);

  it('fast profile: 50 videos are three batches of 20, 20, 10, each stored in one write with 2 s between', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    const seenBetweenBatches: { stored: number; feed: number }[] = [];
    timing.onSleep = async () => {
      seenBetweenBatches.push({ stored: (await ts.store.getVideos(ids(50))).length, feed: (await ts.store.listFeedEntries(CH, 100)).length });
    };
    const result = await runChannel(deps(platform), await register(50), new AbortController().signal);

    expect(result).to.deep.include({ outcome: 'ok', listed: 50, pending: 50, stored: 50, skipped: 0, batchesDone: 3, batchesPlanned: 3, title: 'Scripted Channel' });
    expect(probe.upserts).to.deep.equal([20, 20, 10]);
    expect(timing.sleeps).to.deep.equal([2000, 2000]);
    // A feed request between two batches already sees the batches before it.
    expect(seenBetweenBatches).to.deep.equal([{ stored: 20, feed: 20 }, { stored: 40, feed: 40 }]);
    expect(platform.count('transcript:')).to.equal(50);
    const v = (await stored(['v000'])).get('v000');
    expect(v).to.deep.include({ state: 'ready', language: 'en', kind: 'manual', title: 'Video 0', channelId: CH, attempts: 1 });
    expect((await mainTranscripts(ts.store, ['v000'])).get('v000')?.paragraphs).to.deep.equal(transcriptFor('v000').paragraphs);
  });

  it('gentle profile: ten batches of 5, 10–20 s between requests and 60–90 s between batches', async () => {
    timing = new FakeTiming(events, undefined, [0, 0.999999, 0.25, 0.5, 0.75]);
    const platform = new ScriptedPlatform(makeVideos(50), events);
    const result = await runChannel(deps(platform, PROFILES.gentle), await register(50), new AbortController().signal);

    expect(result.outcome).to.equal('ok');
    expect(probe.upserts).to.deep.equal(Array(10).fill(5));
    const batchWaits = timing.sleeps.filter((ms) => ms >= 60000);
    const requestWaits = timing.sleeps.filter((ms) => ms < 60000);
    expect(batchWaits).to.have.length(9);
    batchWaits.forEach((ms) => expect(ms).to.be.within(60000, 90000));
    requestWaits.forEach((ms) => expect(ms).to.be.within(10000, 20000));
    expect(new Set(timing.sleeps).size, 'waits are random, not fixed').to.be.greaterThan(2);
    // Every two consecutive platform requests are separated by exactly one wait.
    const requests = events.map((e, i) => ({ e, i })).filter(({ e }) => !e.startsWith('sleep:'));
    for (let k = 1; k < requests.length; k += 1) {
      const between = events.slice(requests[k - 1]!.i + 1, requests[k]!.i);
      expect(between, `between ${requests[k - 1]!.e} and ${requests[k]!.e}`).to.have.length(1);
    }
    // 51 requests: the full listing (a first crawl of 50 starts with browse), 50 transcripts.
    expect(requestWaits).to.have.length(51 - 1 - 9);
  });

  it('no waits at all with zero waits configured (fast with CRAWL_BATCH_WAIT=0)', async () => {
    const platform = new ScriptedPlatform(makeVideos(45), events);
    const profile: CrawlProfile = { ...PROFILES.fast, batchWaitMs: [0, 0] };
    await runChannel(deps(platform, profile), await register(45), new AbortController().signal);
    expect(probe.upserts).to.deep.equal([20, 20, 5]);
    expect(timing.sleeps.every((ms) => ms === 0)).to.equal(true);
  });

  it('keeps only the newest `wanted` videos and skips those already stored', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await runChannel(deps(platform), await register(10), new AbortController().signal);
    expect(probe.upserts).to.deep.equal([10]);

    // More wanted: only the 15 not yet stored are fetched.
    const second = await runChannel(deps(platform), await register(25), new AbortController().signal);
    expect(second).to.deep.include({ listed: 25, pending: 15, stored: 15 });
    expect(platform.count('transcript:')).to.equal(25);
  });

  it('learns a missing publish date after the player, never invents one, and records the undated with backoff', async () => {
    const videos = makeVideos(5, { listedDates: false });
    const platform = new ScriptedPlatform(videos, events);
    platform.dateScript.set('v002', [null]);
    platform.dateScript.set('v003', [new PlatformError('transient', 'HTTP 503')]);
    platform.transcriptScript.set('v004', [new PlatformError('unavailable', 'This video is unavailable')]);
    const t0 = timing.now().getTime();
    const result = await runChannel(deps(platform), await register(5), new AbortController().signal);

    expect(result).to.deep.include({ stored: 5, skipped: 0 });
    // The player first; the watch page only for an answer the feed would show.
    expect(events.filter((e) => e.endsWith(':v000'))).to.deep.equal(['transcript:v000', 'date:v000']);
    expect(events.filter((e) => e.endsWith(':v004')), 'a gone video costs one request').to.deep.equal(['transcript:v004']);
    const rows = await stored(ids(5));
    expect(rows.get('v001')).to.deep.include({ state: 'ready', publishedAt: videos[1]!.watchDate });
    const unknown = new Date(UNKNOWN_PUBLISHED_MS);
    for (const id of ['v002', 'v003']) {
      expect(rows.get(id), id).to.deep.include({ state: 'failed', publishedAt: unknown, lastError: 'publish date unknown', language: null });
      expect(rows.get(id)!.nextAttemptAt!.getTime() - t0).to.equal(10 * 60_000);
    }
    expect(rows.get('v004')).to.deep.include({ state: 'unavailable', publishedAt: unknown });
    expect((await ts.store.listFeedEntries(CH, 10)).map((v) => v.videoId), 'the undated are never shown').to.deep.equal(['v000', 'v001']);

    // The next run asks nothing about them: they back off like any failure.
    const before = events.length;
    expect(await runChannel(deps(platform), await listedBefore(5), new AbortController().signal)).to.deep.include({ pending: 0 });
    expect(events.slice(before)).to.deep.equal([`list:${CH}`]);

    // Once due, the two are tried again and stored with the date the watch page now gives.
    timing.advance(10 * 60_000);
    const later = await runChannel(deps(platform), await register(5), new AbortController().signal);
    expect(later).to.deep.include({ pending: 2, stored: 2 });
    const after = await stored(ids(5));
    expect(after.get('v002')).to.deep.include({ state: 'ready', attempts: 2, publishedAt: videos[2]!.watchDate });
    expect(after.get('v003')).to.deep.include({ state: 'ready', attempts: 2, publishedAt: videos[3]!.watchDate });
    expect(after.get('v004')).to.deep.include({ state: 'unavailable', attempts: 1 });
  });

  it('records every outcome per video; a bad video never stops the batch; attempts are counted', async () => {
    const platform = new ScriptedPlatform(makeVideos(6), events);
    platform.transcriptScript.set('v001', [new PlatformError('no_captions', 'no captions'), transcriptFor('v001')]);
    platform.transcriptScript.set('v002', [new PlatformError('unavailable', 'This video is unavailable')]);
    platform.transcriptScript.set('v003', [new PlatformError('transient', 'timeout after 20000 ms')]);
    platform.transcriptScript.set('v004', [new TypeError("Cannot read properties of undefined (reading 'runs')")]);
    platform.transcriptScript.set('v005', [{ language: 'en', kind: 'automatic', cueCount: 0, paragraphs: [] }]);
    const t0 = timing.now().getTime();
    const result = await runChannel(deps(platform), await register(6), new AbortController().signal);

    expect(result).to.deep.include({ outcome: 'ok', stored: 6, skipped: 0 });
    const rows = await stored(ids(6));
    const view = (id: string) => {
      const r = rows.get(id)!;
      return { state: r.state, next: r.nextAttemptAt === null ? null : r.nextAttemptAt.getTime() - t0, attempts: r.attempts };
    };
    expect(view('v000')).to.deep.equal({ state: 'ready', next: null, attempts: 1 });
    expect(view('v001')).to.deep.equal({ state: 'no_transcript', next: HOUR, attempts: 1 });
    expect(view('v002')).to.deep.equal({ state: 'unavailable', next: 7 * 24 * HOUR, attempts: 1 });
    expect(view('v003')).to.deep.equal({ state: 'failed', next: 10 * 60_000, attempts: 1 });
    expect(view('v004').state).to.equal('failed');
    expect(rows.get('v004')!.lastError).to.contain('runs');
    expect(view('v005'), 'an empty transcript is not stored as ready').to.deep.equal({ state: 'no_transcript', next: HOUR, attempts: 1 });

    // Two hours later: the due ones are tried again, the unavailable one is not; attempts grow.
    timing.advance(2 * HOUR);
    const again = await runChannel(deps(platform), await register(6), new AbortController().signal);
    expect(again.pending).to.equal(4);
    const after = await stored(ids(6));
    expect(after.get('v001')).to.deep.include({ state: 'ready', attempts: 2, nextAttemptAt: null });
    expect((await mainTranscripts(ts.store, ['v001'])).get('v001')?.paragraphs).to.deep.equal(transcriptFor('v001').paragraphs);
    expect(after.get('v003')).to.deep.include({ state: 'ready', attempts: 2 });
    expect(after.get('v002')).to.deep.include({ state: 'unavailable', attempts: 1 });
  });

  it('an unexpected error (a bug) is logged at ERROR with its stack and given up after three attempts, not retried forever', async () => {
    const platform = new ScriptedPlatform(makeVideos(1), events);
    const bug = () => new TypeError("Cannot read properties of undefined (reading 'runs')");
    platform.transcriptScript.set('v000', [bug(), bug(), bug(), bug()]);
    const { logger, lines } = captureLogs();
    const t0 = timing.now().getTime();
    const nexts: (number | null)[] = [];
    for (let run = 1; run <= 3; run += 1) {
      await runChannel(deps(platform, PROFILES.fast, { logger }), await register(1), new AbortController().signal);
      const v = (await stored(['v000'])).get('v000')!;
      expect(v).to.deep.include({ state: 'failed', attempts: run });
      expect(v.lastError).to.equal("unexpected error: Cannot read properties of undefined (reading 'runs')");
      nexts.push(v.nextAttemptAt === null ? null : v.nextAttemptAt.getTime() - timing.now().getTime());
      timing.advance(12 * HOUR);
    }
    // Backed off like a transient failure twice, then never again.
    expect(nexts).to.deep.equal([10 * 60_000, 20 * 60_000, null]);
    expect(timing.now().getTime() - t0).to.equal(36 * HOUR);
    const again = await runChannel(deps(platform, PROFILES.fast, { logger }), await register(1), new AbortController().signal);
    expect(again.pending).to.equal(0);
    expect(platform.count('transcript:v000')).to.equal(3);

    const errors = lines.filter((l) => l.level === 'ERROR');
    const unexpected = errors.filter((l) => l.msg === 'unexpected error fetching a transcript');
    expect(unexpected).to.have.length(3);
    for (const l of unexpected) {
      expect(l).to.deep.include({ videoId: 'v000', channelId: CH });
      expect(l.err).to.deep.include({ type: 'TypeError', message: "Cannot read properties of undefined (reading 'runs')" });
      expect((l.err as { stack: string }).stack).to.match(/^TypeError: Cannot read properties[^\n]*\n\s+at /);
    }
    expect(errors.filter((l) => /^gave up the video after 3 attempts/.test(l.msg))).to.have.length(1);
  });

  it('turns channel-level failures into the run outcome', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    platform.listScript = [new PlatformError('transient', 'HTTP 502'), new PlatformError('not_found', 'This channel does not exist.')];
    const ch = await register(3);
    expect(await runChannel(deps(platform), ch, new AbortController().signal)).to.deep.include({ outcome: 'error', error: 'HTTP 502', stored: 0 });
    expect(await runChannel(deps(platform), ch, new AbortController().signal)).to.deep.include({ outcome: 'not_found', stored: 0 });
    expect(probe.upserts).to.deep.equal([]);
  });

  it('stops after the request in flight and stores the finished part of the batch', async () => {
    const platform = new ScriptedPlatform(makeVideos(50), events);
    const stop = new AbortController();
    platform.onTranscript = (id) => {
      if (id === 'v025') stop.abort();
    };
    const result = await runChannel(deps(platform), await register(50), stop.signal);

    expect(result).to.deep.include({ outcome: 'stopped', stored: 26, batchesDone: 2 });
    expect(probe.upserts).to.deep.equal([20, 6]);
    expect(events.filter((e) => e.startsWith('transcript:')).at(-1)).to.equal('transcript:v025');
    expect((await stored(ids(50))).size).to.equal(26);
  });

  it('logs each batch under crawler.batch with channel, position, counts and time', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(30, { listedDates: false }), events);
    // A video whose date stays unknown is stored too (recorded for a retry), not skipped.
    platform.dateScript.set('v021', [null]);
    await runChannel(deps(platform, PROFILES.fast, { logger }), await register(30), new AbortController().signal);
    const batches = lines.filter((l) => l.category === 'crawler.batch' && l.msg === 'batch stored');
    expect(batches.map((l) => [l.level, l.channelId, l.batch, l.stored, l.skipped])).to.deep.equal([
      ['INFO', CH, '1/2', 20, 0],
      ['INFO', CH, '2/2', 10, 0],
    ]);
    batches.forEach((l) => expect(l.ms).to.be.a('number'));
  });
});
