// The blocked path in order: blocked wait → challenge proxy → browser → retry; and giving up after
// repeated blocks with everything already stored left intact.

import { expect } from 'chai';
import { BlockedPath, RequestBlockedError } from '../../crawler/blocked-path';
import { RunBlockedError, RunStoppedError } from '../../crawler/run-ending';
import { runChannel } from '../../crawler/channel-run';
import { RequestBudget } from '../../crawler/request-budget';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { classifyPlayer } from '../../shared/platform/classify';
import { PlatformError } from '../../shared/platform/types';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';
import { ScriptedPlatform, ScriptedUnblocker, blocked, makeVideos } from './support/scripted-platform';
import { probeStore } from './support/store-probe';
import { tempStore, type TempStore } from '../support/temp-store';

const CH = 'UCcrawlerblockedtest0001';
const COOL_DOWN_MS = 1_800_000;
const ctx = { channelId: CH, videoId: 'abc', path: '/watch?v=abc' };

/** A request that answers with these errors first, then 'ok'. */
function scripted(events: string[], errors: Error[]): () => Promise<string> {
  return async () => {
    events.push('request');
    const e = errors.shift();
    if (e) throw e;
    return 'ok';
  };
}

describe('crawler blocked path', () => {
  let events: string[];
  let timing: FakeTiming;
  beforeEach(() => {
    events = [];
    timing = new FakeTiming(events, undefined, [0.5]);
  });

  const unlimited = (logger = silentLogger()): RequestBudget =>
    new RequestBudget({ perHour: 0, coolDownMs: [COOL_DOWN_MS, COOL_DOWN_MS], timing, sent: () => 0, logger });
  const path = (unblockers: ScriptedUnblocker[], signal = new AbortController().signal, logger = silentLogger()) =>
    new BlockedPath({ unblockers, blockedWaitMs: [30000, 60000], maxBlocks: 3, timing, logger, signal, budget: unlimited(logger) });

  it('waits the blocked wait, tries the proxy, then the browser, then retries', async () => {
    const { logger, lines } = captureLogs();
    const proxy = new ScriptedUnblocker('proxy', events, true, false);
    const browser = new ScriptedUnblocker('browser', events, true, true);
    const result = await path([proxy, browser], undefined, logger).request(ctx, scripted(events, [blocked('captcha wall')]));
    expect(result).to.equal('ok');
    expect(events).to.deep.equal([
      'request', 'sleep:45000', 'proxy:available', 'proxy:unblock:/watch?v=abc', 'browser:available', 'browser:unblock:/watch?v=abc', 'request',
    ]);
    const warning = lines.find((l) => l.level === 'WARNING');
    expect(warning).to.deep.include({ channelId: CH, videoId: 'abc', outcome: 'blocked', reason: 'captcha wall' });
  });

  it('stops escalating at the first way that clears the block', async () => {
    const proxy = new ScriptedUnblocker('proxy', events, true, true);
    const browser = new ScriptedUnblocker('browser', events, true, true);
    await path([proxy, browser]).request(ctx, scripted(events, [blocked()]));
    expect(events).to.deep.equal(['request', 'sleep:45000', 'proxy:available', 'proxy:unblock:/watch?v=abc', 'request']);
  });

  it('skips ways that are not available or fail, and retries anyway', async () => {
    const proxy = new ScriptedUnblocker('proxy', events, false, true);
    const browser = new ScriptedUnblocker('browser', events, true, new Error('chromium crashed'));
    await path([proxy, browser]).request(ctx, scripted(events, [blocked()]));
    expect(events).to.deep.equal(['request', 'sleep:45000', 'proxy:available', 'browser:available', 'browser:unblock:/watch?v=abc', 'request']);
  });

  it('gives up a video request still blocked after a recovery, without stopping the run', async () => {
    const bp = path([]);
    const err = await bp.request(ctx, scripted(events, [blocked(), blocked('empty timed-text answer')])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RequestBlockedError);
    expect((err as RequestBlockedError).reason).to.equal('empty timed-text answer');
    expect(events).to.deep.equal(['request', 'sleep:45000', 'request']);
    expect(await bp.request({ ...ctx, videoId: 'next' }, scripted(events, []))).to.equal('ok');
  });

  it('ends the run on the third block in a row, without waiting it out', async () => {
    const bp = path([]);
    await bp.request(ctx, scripted(events, [blocked(), blocked()])).catch(() => undefined);
    const err = await bp.request({ ...ctx, videoId: 'next' }, scripted(events, [blocked('bot check')])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RunBlockedError);
    expect((err as RunBlockedError).reason).to.equal('bot check');
    expect(events).to.deep.equal(['request', 'sleep:45000', 'request', 'request']);
    expect(bp.blockCount).to.equal(3);
  });

  it('a success between blocks shows the block was lifted: the count in a row starts again', async () => {
    const bp = path([]);
    for (let i = 0; i < 4; i += 1) expect(await bp.request(ctx, scripted(events, [blocked()]))).to.equal('ok');
    expect(bp.blockCount).to.equal(4);
  });

  it('keeps trying a channel listing until the blocks in a row run out', async () => {
    const listing = { channelId: CH, path: `/channel/${CH}/videos` };
    const err = await path([]).request(listing, scripted(events, [blocked(), blocked(), blocked()])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RunBlockedError);
    expect(events).to.deep.equal(['request', 'sleep:45000', 'request', 'sleep:45000', 'request']);
  });

  it('"try again later" waits out the long cool-down, not the blocked wait, and tries no unblocker', async () => {
    const { logger, lines } = captureLogs();
    const proxy = new ScriptedUnblocker('proxy', events, true, true);
    // As the player client throws it: the classifier's verdict on the platform's own answer.
    const verdict = classifyPlayer({ playabilityStatus: { status: 'UNPLAYABLE', reason: "This content isn't available, try again later" } }, 'v1');
    if (verdict.outcome !== 'blocked') throw new Error('"try again later" is a block');
    const rateLimited = new PlatformError('blocked', verdict.reason, { signal: verdict.signal });
    const result = await path([proxy], undefined, logger).request(ctx, scripted(events, [rateLimited]));
    expect(result).to.equal('ok');
    // 30 minutes on the fake clock, in 5-minute steps that each log progress.
    expect(events).to.deep.equal(['request', ...Array.from({ length: 6 }, () => 'sleep:300000'), 'request']);
    const warnings = lines.filter((l) => l.level === 'WARNING').map((l) => l.msg);
    expect(warnings).to.deep.equal([
      `blocked by the platform: ${rateLimited.reason}`,
      'platform rate-limited this session; no platform request for 30 min',
    ]);
  });

  it('passes every other error through untouched', async () => {
    const err = await path([]).request(ctx, scripted(events, [new PlatformError('transient', 'HTTP 503')])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(PlatformError);
    expect(events).to.deep.equal(['request']);
  });

  it('ends the run when a stop arrives during the blocked wait', async () => {
    const stop = new AbortController();
    timing.onSleep = () => stop.abort();
    const proxy = new ScriptedUnblocker('proxy', events, true, true);
    const err = await path([proxy], stop.signal).request(ctx, scripted(events, [blocked()])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RunStoppedError);
    expect(events).to.deep.equal(['request', 'sleep:45000']);
  });

  describe('in a channel run', () => {
    let ts: TempStore;
    beforeEach(async () => {
      ts = await tempStore();
    });
    afterEach(async () => ts.cleanup());

    it('after repeated blocks ends the run, keeping the stored batches and the finished part of the current one', async () => {
      const probe = probeStore(ts.store);
      const platform = new ScriptedPlatform(makeVideos(50), events);
      // From v025 on the platform blocks everything (a 429 window).
      for (let i = 25; i < 50; i += 1) platform.transcriptScript.set(`v0${i}`, [blocked('HTTP 429'), blocked('HTTP 429')]);
      const proxy = new ScriptedUnblocker('proxy', events, true, false);
      const browser = new ScriptedUnblocker('browser', events, true, true);
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 50 }, timing.now());
      const profile = { ...PROFILES.fast, blockedWaitMs: [50, 100] as const };
      const result = await runChannel(
        { store: probe.store, platform, unblockers: [proxy, browser], profile, timing, logger: silentLogger() },
        channel, new AbortController().signal,
      );

      expect(result).to.deep.include({ outcome: 'blocked', error: 'HTTP 429', stored: 26, batchesDone: 2, batchesPlanned: 3 });
      expect(probe.upserts).to.deep.equal([20, 6]);
      const rows = await ts.store.getVideos(makeVideos(50).map((v) => v.videoId));
      expect(rows.map((r) => r.videoId).sort()).to.deep.equal(makeVideos(26).map((v) => v.videoId));
      rows.filter((r) => r.videoId !== 'v025').forEach((r) => expect(r.state).to.equal('ready'));
      // The video the block first hit is recorded for a retry with backoff, not as a transcript.
      expect(rows.find((r) => r.videoId === 'v025')).to.deep.include({ state: 'failed', lastError: 'blocked: HTTP 429', language: null });
      expect(events).not.to.include('transcript:v027');
      // One recovery (wait, proxy, browser) for v025, given up; v026 is the third block in a row.
      const fromBlock = events.slice(events.indexOf('transcript:v025'));
      expect(fromBlock).to.deep.equal([
        'transcript:v025', 'sleep:75', 'proxy:available', 'proxy:unblock:/watch?v=v025', 'browser:available', 'browser:unblock:/watch?v=v025',
        'transcript:v025', 'transcript:v026',
      ]);
    });

    it('a video that stays blocked is recorded for later and the run goes on', async () => {
      const platform = new ScriptedPlatform(makeVideos(6), events);
      platform.transcriptScript.set('v002', Array.from({ length: 5 }, () => blocked('empty timed-text answer')));
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 6 }, timing.now());
      const result = await runChannel(
        { store: ts.store, platform, unblockers: [], profile: PROFILES.fast, timing, logger: silentLogger() },
        channel, new AbortController().signal,
      );
      expect(result).to.deep.include({ outcome: 'ok', stored: 6 });
      const rows = new Map((await ts.store.getVideos(makeVideos(6).map((v) => v.videoId))).map((r) => [r.videoId, r]));
      expect(rows.get('v002')).to.deep.include({ state: 'failed', attempts: 1 });
      expect(rows.get('v002')!.nextAttemptAt!.getTime() - timing.now().getTime()).to.be.greaterThan(0);
      expect(rows.get('v005')!.state).to.equal('ready');
    });

    it('recovers from a block while listing and completes', async () => {
      const platform = new ScriptedPlatform(makeVideos(5), events);
      platform.listScript = [blocked('HTTP 429')];
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 5 }, timing.now());
      const result = await runChannel(
        { store: ts.store, platform, unblockers: [new ScriptedUnblocker('proxy', events, true, true)], profile: PROFILES.fast, timing, logger: silentLogger() },
        channel, new AbortController().signal,
      );
      expect(result).to.deep.include({ outcome: 'ok', stored: 5 });
      // A first listing (browse first) is blocked, unblocked and asked again.
      expect(events.slice(0, 5)).to.deep.equal([`deep:${CH}`, 'sleep:45000', 'proxy:available', `proxy:unblock:/channel/${CH}/videos`, `deep:${CH}`]);
    });
  });
});
