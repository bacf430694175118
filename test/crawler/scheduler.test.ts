// The crawler loop over a real SQLite store: claim → run → release with the next due time (the
// channel's upload rhythm), the listing share and what a reader asked for, the hourly schedule
// report, store outage pause and resume, unexpected errors, lease loss, the drain on stop, and
// two loops sharing one store.

import { expect } from 'chai';
import type { ChannelRunDeps } from '../../crawler/channel-run';
import { ListingShare } from '../../crawler/listing-share';
import { NOT_FOUND_RETIRED_MS } from '../../crawler/next-due';
import { DEFAULT_LISTING_BOUNDS, RHYTHM_SAMPLE, rhythmIntervalMs } from '../../crawler/rhythm';
import { Scheduler, type SchedulerOptions } from '../../crawler/scheduler';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { PlatformError } from '../../shared/platform/types';
import { StoreUnavailableError, type Store } from '../../shared/store/types';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';
import { ScriptedPlatform, blocked, makeVideos } from './support/scripted-platform';
import { probeStore, type StoreProbe } from './support/store-probe';
import { tempStore, type TempStore } from '../support/temp-store';
import { refreshAll } from '../support/refresh';

const CH = 'UCcrawlerschedulertest01';
const CH2 = 'UCcrawlerschedulertest02';
const noCron = () => ({ stop: () => undefined });

describe('crawler scheduler', () => {
  let ts: TempStore;
  let probe: StoreProbe;
  let events: string[];
  let timing: FakeTiming;
  let schedulers: Scheduler[];

  beforeEach(async () => {
    ts = await tempStore();
    probe = probeStore(ts.store);
    events = [];
    // The loop runs in the background: stepped, so it moves as the test looks at it.
    timing = new FakeTiming(events, undefined, [0.5], true);
    schedulers = [];
  });
  afterEach(async () => {
    timing.free();
    await Promise.all(schedulers.map((s) => s.stop()));
    await ts.cleanup();
  });

  const start = (platform: ScriptedPlatform, o: Partial<SchedulerOptions> & { store?: Store; logger?: ChannelRunDeps['logger'] } = {}): Scheduler => {
    const runDeps: ChannelRunDeps = {
      store: o.store ?? probe.store, platform, unblockers: [], timing, logger: o.logger ?? silentLogger(),
      profile: { ...PROFILES.fast, batchWaitMs: [0, 0], blockedWaitMs: [10, 20] },
    };
    const s = new Scheduler({ runDeps, owner: 'test-a', leaseMs: 60_000, pollMs: 1000, scheduleCron: noCron, ...o });
    schedulers.push(s);
    s.start();
    return s;
  };
  const channel = (id = CH) => ts.store.getChannel(id);
  const released = async (id = CH) => {
    const c = await channel(id);
    return c !== null && c.lastCrawlAt !== null && c.leaseOwner === null;
  };

  /** The interval the rhythm gives the channel's stored publish dates at `at`. */
  const rhythmAt = async (at: Date, foundNew: boolean, id = CH) =>
    rhythmIntervalMs((await ts.store.recentPublishTimes(id, RHYTHM_SAMPLE)).map((d) => d.getTime()), at.getTime(), DEFAULT_LISTING_BOUNDS, foundNew);

  it('claims a due channel, runs it, and releases it due again after its upload rhythm', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(30), events);
    await ts.store.registerChannel({ channelId: CH, wanted: 30 }, timing.now());
    start(platform, { logger });
    await timing.until('the channel to be released', () => released());

    const c = (await channel())!;
    expect(c).to.deep.include({ lastOutcome: 'ok', consecutiveFailures: 0, leaseOwner: null, lastError: null, title: 'Scripted Channel' });
    expect(c.dueAt.getTime() - c.lastCrawlAt!.getTime(), 'the rhythm after a run that found new uploads').to.equal(await rhythmAt(c.lastCrawlAt!, true));
    expect((await ts.store.listFeedEntries(CH, 100)).length).to.equal(30);
    const runLines = lines.filter((l) => l.category === 'crawler.scheduler' && l.channelId === CH);
    expect(runLines.map((l) => [l.level, l.msg])).to.deep.equal([['INFO', 'run started'], ['INFO', 'run ended']]);
    expect(runLines[1]).to.deep.include({ outcome: 'ok', stored: 30, batches: '2/2' });
  });

  it('picks up a newly registered channel at the next poll, and the next due one right after a run', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    start(platform);
    await timing.until('a few idle polls', () => timing.sleeps.filter((ms) => ms === 1000).length >= 2);
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    await ts.store.registerChannel({ channelId: CH2, wanted: 3 }, timing.now());
    await timing.until('both channels released', async () => (await released(CH)) && (await released(CH2)));
    const lists = events.filter((e) => e.startsWith('list:'));
    const i = events.indexOf(lists[0]!);
    const j = events.indexOf(lists[1]!);
    expect(events.slice(i, j).filter((e) => e === 'sleep:1000'), 'no idle poll between two due channels').to.have.length(0);
  });

  it('records failures with backoff: errors and blocks raise the count, a good run resets it', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    platform.listScript = [new PlatformError('transient', 'HTTP 503')];
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    const s = start(platform);
    await timing.until('the failed run', () => released());
    let c = (await channel())!;
    expect(c).to.deep.include({ lastOutcome: 'error', lastError: 'HTTP 503', consecutiveFailures: 1 });
    expect(c.dueAt.getTime() - c.lastCrawlAt!.getTime()).to.equal(5 * 60_000);

    // The backoff is waited out (the refresh no longer cancels it, see below).
    const waitOut = async () => timing.advance((await channel())!.dueAt.getTime() - timing.now().getTime());
    platform.listScript = [blocked(), blocked(), blocked()];
    await waitOut();
    s.wake();
    await timing.until('the blocked run', async () => (await channel())!.lastOutcome === 'blocked');
    c = (await channel())!;
    expect(c.consecutiveFailures).to.equal(2);
    expect(c.dueAt.getTime() - c.lastCrawlAt!.getTime()).to.equal(60 * 60_000);

    await waitOut();
    s.wake();
    await timing.until('the good run', async () => (await channel())!.lastOutcome === 'ok');
    expect((await channel())!.consecutiveFailures).to.equal(0);
  });

  it('lists the channel again when its rhythm says; a new upload found brings the next look closer', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    const s = start(platform);
    await timing.until('the first run', () => released());
    const first = (await channel())!;
    const nothingNew = async () => {
      timing.advance(Math.max(0, (await channel())!.dueAt.getTime() - timing.now().getTime()));
      const before = (await channel())!.lastCrawlAt!.getTime();
      s.wake();
      await timing.until('the next run', async () => (await released()) && (await channel())!.lastCrawlAt!.getTime() > before);
      return (await channel())!;
    };
    const quiet = await nothingNew();
    expect([platform.count('deep:'), platform.count('list:')], 'listed in full first (browse first), then by the feed once due').to.deep.equal([1, 1]);
    expect(quiet.dueAt.getTime() - quiet.lastCrawlAt!.getTime(), 'nothing new: the plain rhythm').to.equal(await rhythmAt(quiet.lastCrawlAt!, false));
    expect(quiet.dueAt.getTime() > first.dueAt.getTime()).to.equal(true);

    platform.videos = [{ videoId: 'vnew', title: 'New upload', listedAt: timing.now(), watchDate: timing.now() }, ...platform.videos];
    const found = await nothingNew();
    expect((await ts.store.getVideos(['vnew'])).length, 'the new upload is stored').to.equal(1);
    const after = found.dueAt.getTime() - found.lastCrawlAt!.getTime();
    expect(after).to.equal(await rhythmAt(found.lastCrawlAt!, true));
    expect(after, 'closer than the quiet run\'s interval').to.be.below(quiet.dueAt.getTime() - quiet.lastCrawlAt!.getTime());
  });

  it('listings stay within their share of the hour; a channel a reader asked for runs anyway', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(3), events);
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    const share = new ListingShare(1, () => timing.now().getTime());
    const s = start(platform, { logger, listingShare: share });
    await timing.until('the first run', () => released());
    expect(share.usedInLastHour()).to.equal(1);

    // A second channel, new: asked for by a reader, it runs although the share is used up.
    await ts.store.registerChannel({ channelId: CH2, wanted: 3 }, timing.now());
    s.wake();
    await timing.until('the asked-for channel', () => released(CH2));
    expect(share.usedInLastHour()).to.equal(2);

    // Both due again by the rhythm within the hour: no listing until the share has room.
    await refreshAll(ts.store, timing.now());
    const listed = platform.count('list:');
    s.wake();
    await timing.until('the share to be found full', async () => lines.some((l) => l.msg.startsWith('listings used their half of the hourly request budget')));
    expect(platform.count('list:'), 'nothing listed while the share is used up').to.equal(listed);
    const due = (await ts.store.listingBacklog(timing.now())).due;
    expect(due).to.equal(2);
    // An hour on, the share has room for one listing: the most overdue channel goes, the other waits.
    timing.advance(3_600_000);
    s.wake();
    await timing.until('one listed an hour later', async () => platform.count('list:') === listed + 1 && (await ts.store.listingBacklog(timing.now())).due === 1);
    expect(platform.count('list:')).to.equal(listed + 1);
  });

  it('reports once an hour how far behind the listing schedule is', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(3), events);
    let report: (() => Promise<void>) | null = null;
    const s = start(platform, {
      logger, scheduleCron: (expr, task) => { expect(expr).to.equal('0 * * * *'); report = task; return { stop: () => undefined }; },
    });
    await report!();
    const reports = () => lines.filter((l) => l.category === 'crawler.scheduler' && String(l.msg).startsWith('listing schedule'));
    expect(reports().map((l) => l.msg)).to.deep.equal(['listing schedule on time']);
    // With the loop stopped, two channels fall behind: due 90 and 30 minutes ago.
    await s.stop();
    const ago = (min: number) => new Date(timing.now().getTime() - min * 60_000);
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, ago(90));
    await ts.store.registerChannel({ channelId: CH2, wanted: 3 }, ago(30));
    await report!();
    expect(reports()[1]).to.deep.include({ msg: 'listing schedule 90 min behind: 2 channel(s) due', due: 2, behindMinutes: 90 });
  });

  it('a channel the platform never showed (no title, no good run) is retired at its first "does not exist"', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    platform.listScript = [new PlatformError('not_found', 'This channel does not exist.')];
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    start(platform);
    await timing.until('run 1', async () => (await channel())!.consecutiveFailures === 1 && (await released()));
    const retired = (await channel())!;
    expect(retired.lastOutcome).to.equal('not_found');
    expect(retired.dueAt.getTime() - retired.lastCrawlAt!.getTime(), 'not asked again daily: a month').to.equal(NOT_FOUND_RETIRED_MS);
    expect(platform.count('deep:'), 'one listing').to.equal(1);
  });

  it('keeps backoffs; a channel seen before and not found three times in a row is retired', async () => {
    const platform = new ScriptedPlatform(makeVideos(3), events);
    const notFound = () => new PlatformError('not_found', 'This channel does not exist.');
    platform.listScript = [notFound(), notFound(), notFound()];
    await ts.store.registerChannel({ channelId: CH, wanted: 3, title: 'A channel once listed' }, timing.now());
    const s = start(platform);
    const runs = async (n: number) => timing.until(`run ${n}`, async () => (await channel())!.consecutiveFailures === n && (await released()));

    await runs(1);
    const backingOff = (await channel())!;
    expect(backingOff.dueAt.getTime() - backingOff.lastCrawlAt!.getTime()).to.equal(24 * 3_600_000);

    for (const n of [2, 3]) {
      timing.advance((await channel())!.dueAt.getTime() - timing.now().getTime());
      s.wake();
      await runs(n);
    }
    const retired = (await channel())!;
    expect(retired.lastOutcome).to.equal('not_found');
    expect(retired.dueAt.getTime() - retired.lastCrawlAt!.getTime(), 'retired: looked at again in a month').to.equal(NOT_FOUND_RETIRED_MS);
    expect([platform.count('deep:'), platform.count('list:')], 'three listings in all, each one browse-first call, never the feed').to.deep.equal([3, 0]);
  });

  it('pauses while the store is unavailable, with growing waits, and resumes when it is back', async () => {
    const { logger, lines } = captureLogs();
    probe.down = true;
    const platform = new ScriptedPlatform(makeVideos(3), events);
    start(platform, { logger, storeBackoff: { baseMs: 1000, capMs: 4000 } });
    await timing.until('four failed claims', () => probe.failedCalls.length >= 4);
    probe.down = false;
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    await timing.until('the channel done after the outage', () => released());

    const pauses = lines.filter((l) => l.msg === 'store unavailable; pausing');
    expect(pauses.slice(0, 4).map((l) => [l.level, l.ms])).to.deep.equal([['WARNING', 1000], ['WARNING', 2000], ['WARNING', 4000], ['WARNING', 4000]]);
    expect(lines.some((l) => l.msg === 'store is back; resuming')).to.equal(true);
    expect((await channel())!.lastOutcome).to.equal('ok');
  });

  it('a store outage in the middle of a run pauses the loop; once the store is back the channel is finished at once, its lease taken back', async () => {
    const platform = new ScriptedPlatform(makeVideos(30), events);
    platform.onTranscript = (id) => {
      if (id === 'v025') probe.down = true;
    };
    await ts.store.registerChannel({ channelId: CH, wanted: 30 }, timing.now());
    const { logger, lines } = captureLogs();
    start(platform, { logger, storeBackoff: { baseMs: 1000, capMs: 1000 } });
    await timing.until('the outage noticed', () => probe.failedCalls.includes('upsertVideos'));
    expect((await ts.store.getVideos(makeVideos(30).map((v) => v.videoId))).length, 'first batch kept').to.equal(20);
    await timing.until('the run summary', () => lines.some((l) => l.msg === 'run ended'));
    expect(lines.find((l) => l.msg === 'run ended'), 'the summary of a run the outage ended counts the batch it stored').to.deep.include({ outcome: 'stopped', stored: 20, batches: '1/2' });
    // Every release attempt met the outage: the lease (60 s) is still this crawler's.
    expect((await ts.store.getChannel(CH))!.leaseOwner).to.equal('test-a');
    platform.onTranscript = null;
    probe.down = false;
    // One pause (1 s) later the loop finds the store back, takes its own leftover lease back and
    // finishes the channel, long before the lease would have expired.
    timing.advance(1000);
    await timing.until('the channel complete', async () => (await ts.store.getVideos(makeVideos(30).map((v) => v.videoId))).length === 30);
    await timing.until('released', () => released());
    expect(lines.find((l) => l.msg === 'store is back; resuming')).to.deep.include({ reclaimed: 1 });
    expect((await ts.store.getChannel(CH))!).to.deep.include({ consecutiveFailures: 0, lastOutcome: 'ok' });
  });

  it('a release that meets a briefly unavailable store is tried again, not left to expire', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(3), events);
    let refusals = 2;
    const realRelease = ts.store.releaseChannel.bind(ts.store);
    probe.override.releaseChannel = (...args: unknown[]) => {
      if (refusals-- > 0) return Promise.reject(new StoreUnavailableError('SQLite store unavailable: database is locked'));
      return realRelease(...(args as Parameters<typeof realRelease>));
    };
    await ts.store.registerChannel({ channelId: CH, wanted: 3 }, timing.now());
    start(platform, { logger });
    await timing.until('released', () => released());
    expect((await channel())!).to.deep.include({ leaseOwner: null, lastOutcome: 'ok' });
    const retries = lines.filter((l) => l.msg === 'release failed; trying again');
    expect(retries.map((l) => [l.attempt, l.ms])).to.deep.equal([[1, 500], [2, 1000]]);
    expect(lines.some((l) => l.msg.startsWith('could not release'))).to.equal(false);
    expect(lines.find((l) => l.msg === 'run ended')).to.deep.include({ outcome: 'ok', stored: 3 });
  });

  it('logs an unexpected error at ERROR, records it on the channel and goes on with the next one', async () => {
    const { logger, lines } = captureLogs();
    const platform = new ScriptedPlatform(makeVideos(2), events);
    const broken = new ScriptedPlatform(makeVideos(2), events);
    broken.listVideos = () => Promise.reject(new TypeError('boom'));
    const store = probe.store;
    // CH fails unexpectedly (its first listing throws a TypeError); CH2 uses the good platform.
    const dispatch = new ScriptedPlatform(makeVideos(2), events);
    dispatch.listVideos = (id, limit) => (id === CH ? broken.listVideos(id, limit) : platform.listVideos(id, limit));
    await ts.store.registerChannel({ channelId: CH, wanted: 2 }, timing.now());
    await ts.store.registerChannel({ channelId: CH2, wanted: 2 }, timing.now());
    start(dispatch, { logger, store });
    await timing.until('both released', async () => (await released(CH)) && (await released(CH2)));
    expect((await channel(CH))!).to.deep.include({ lastOutcome: 'error', lastError: 'boom', consecutiveFailures: 1 });
    expect((await channel(CH2))!.lastOutcome).to.equal('ok');
    expect(lines.some((l) => l.level === 'ERROR' && l.channelId === CH && l.msg === 'run failed unexpectedly')).to.equal(true);
  });

  it('stops a run after the current request when the lease cannot be renewed', async () => {
    const { logger, lines } = captureLogs();
    let tick: (() => void) | null = null;
    probe.override.renewLease = async () => false;
    const platform = new ScriptedPlatform(makeVideos(30), events);
    platform.onTranscript = async (id) => {
      if (id === 'v003') {
        tick!();
        await new Promise((r) => setImmediate(r));
      }
    };
    await ts.store.registerChannel({ channelId: CH, wanted: 30 }, timing.now());
    start(platform, { logger, every: (ms, fn) => { expect(ms).to.equal(20_000); tick = fn; return () => undefined; } });
    await timing.until('the run ended', () => lines.some((l) => l.msg === 'run ended'));
    // Handed back due at once, the channel may be claimed again right away: look at the first run.
    const firstRun = events.slice(0, events.indexOf(`list:${CH}`, 1) === -1 ? undefined : events.indexOf(`list:${CH}`, 1));
    expect(firstRun.filter((e) => e.startsWith('transcript:')).at(-1)).to.equal('transcript:v003');
    expect(probe.upserts[0]).to.equal(4);
    expect(lines.find((l) => l.msg === 'run ended')).to.deep.include({ outcome: 'stopped', stored: 4 });
    expect(lines.some((l) => l.level === 'WARNING' && l.msg.startsWith('lease lost'))).to.equal(true);
  });

  it('drains on stop: the request in flight finishes, the finished videos are stored, the lease is released', async () => {
    const platform = new ScriptedPlatform(makeVideos(30), events);
    let stopping: Promise<void> | null = null;
    let s: Scheduler | null = null;
    platform.onTranscript = (id) => {
      if (id === 'v007') stopping = s!.stop();
    };
    await ts.store.registerChannel({ channelId: CH, wanted: 30 }, timing.now());
    s = start(platform);
    await timing.until('stop requested', () => stopping !== null);
    await stopping;
    await s.stop();
    expect(probe.upserts).to.deep.equal([8]);
    const c = (await channel())!;
    expect(c).to.deep.include({ leaseOwner: null, lastOutcome: 'stopped' });
    expect(c.dueAt.getTime()).to.be.at.most(timing.now().getTime());
    // The loop has returned, so nothing can claim again: a wake-up or a start after stop asks the
    // store for nothing.
    const claimsAfterStop: string[] = [];
    probe.override.claimDueChannel = () => {
      claimsAfterStop.push('claim');
      return Promise.resolve(null);
    };
    await ts.store.registerChannel({ channelId: CH2, wanted: 5 }, timing.now());
    s.wake();
    s.start();
    await s.done;
    expect(claimsAfterStop, 'nothing runs after stop').to.deep.equal([]);
  });

  it('two loops on one store never work the same channel', async () => {
    const other = await ts.reopen();
    const platform = new ScriptedPlatform(makeVideos(4), events);
    const ids = Array.from({ length: 6 }, (_, i) => `UCcrawlerschedulershare${i}`);
    for (const id of ids) await ts.store.registerChannel({ channelId: id, wanted: 4 }, timing.now());
    start(platform, { owner: 'a' });
    start(platform, { owner: 'b', store: other });
    await timing.until('all released', async () => (await Promise.all(ids.map((id) => released(id)))).every(Boolean));
    for (const id of ids) expect(platform.count(`deep:${id}`), id).to.equal(1);
  });
});
