// The blocked path in order: blocked wait → challenge proxy → browser → retry; and giving up after
// repeated blocks with everything already stored left intact.

import { expect } from 'chai';
import { BlockedPath, RunBlockedError, RunStoppedError } from '../../crawler/blocked-path';
import { runChannel } from '../../crawler/channel-run';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { PlatformError } from '../../shared/platform/types';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from './support/logs';
import { ScriptedPlatform, ScriptedUnblocker, blocked, makeVideos } from './support/scripted-platform';
import { probeStore } from './support/store-probe';
import { tempStore, type TempStore } from './support/temp-store';

const CH = 'UCcrawlerblockedtest0001';
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

  const path = (unblockers: ScriptedUnblocker[], signal = new AbortController().signal, logger = silentLogger()) =>
    new BlockedPath({ unblockers, blockedWaitMs: [30000, 60000], maxBlocks: 3, timing, logger, signal });

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

  it('gives up on the third block in a run without waiting it out', async () => {
    const bp = path([]);
    await bp.request(ctx, scripted(events, [blocked()]));
    const err = await bp.request(ctx, scripted(events, [blocked(), blocked('bot check')])).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RunBlockedError);
    expect((err as RunBlockedError).reason).to.equal('bot check');
    expect(events).to.deep.equal(['request', 'sleep:45000', 'request', 'request', 'sleep:45000', 'request']);
    expect(bp.blockCount).to.equal(3);
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
      platform.transcriptScript.set('v025', [blocked('HTTP 429'), blocked('HTTP 429'), blocked('HTTP 429')]);
      const proxy = new ScriptedUnblocker('proxy', events, true, false);
      const browser = new ScriptedUnblocker('browser', events, true, true);
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 50 }, timing.now());
      const profile = { ...PROFILES.fast, blockedWaitMs: [50, 100] as const };
      const result = await runChannel(
        { store: probe.store, platform, unblockers: [proxy, browser], profile, timing, logger: silentLogger() },
        channel, new AbortController().signal,
      );

      expect(result).to.deep.include({ outcome: 'blocked', error: 'HTTP 429', stored: 25, batchesDone: 2, batchesPlanned: 3 });
      expect(probe.upserts).to.deep.equal([20, 5]);
      const rows = await ts.store.getVideos(makeVideos(50).map((v) => v.videoId));
      expect(rows.map((r) => r.videoId).sort()).to.deep.equal(makeVideos(25).map((v) => v.videoId));
      rows.forEach((r) => expect(r.state).to.equal('ready'));
      expect(events).not.to.include('transcript:v026');
      // Two recoveries (wait, proxy, browser), then the third block ends the run.
      const fromBlock = events.slice(events.indexOf('transcript:v025'));
      expect(fromBlock.filter((e) => e.startsWith('sleep:'))).to.deep.equal(['sleep:75', 'sleep:75']);
      expect(fromBlock.filter((e) => e === 'transcript:v025')).to.have.length(3);
      expect(fromBlock.filter((e) => e === 'browser:unblock:/watch?v=v025')).to.have.length(2);
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
      expect(events.slice(0, 5)).to.deep.equal([`list:${CH}`, 'sleep:45000', 'proxy:available', `proxy:unblock:/channel/${CH}/videos`, `list:${CH}`]);
    });
  });
});
