// Lease renewal over a real store with injected time: the test owns the clock and fires the
// renewal ticks itself, so nothing depends on how fast the machine runs. A working crawler keeps
// its channel, and a renewal that fails tells the run to stop (once).

import { expect } from 'chai';
import { keepLease, type Every } from '../../crawler/lease-keeper';
import { silentLogger } from '../../shared/logger';
import { StoreUnavailableError } from '../../shared/store/types';
import { probeStore } from './support/store-probe';
import { tempStore, type TempStore } from '../support/temp-store';
import { until } from '../support/poll';

const CH = 'UCcrawlerleasekeeper0001';

/** An `every` the test drives: records the period asked for and fires ticks on demand. */
function manualEvery(): { every: Every; periods: number[]; tick(): void; stopped: () => boolean } {
  const fns: (() => void)[] = [];
  const periods: number[] = [];
  let stopped = false;
  return {
    every: (ms, fn) => {
      periods.push(ms);
      fns.push(fn);
      return () => void (stopped = true);
    },
    periods,
    tick: () => fns.forEach((fn) => fn()),
    stopped: () => stopped,
  };
}

describe('crawler lease keeper', () => {
  let ts: TempStore;
  beforeEach(async () => {
    ts = await tempStore();
  });
  afterEach(async () => ts.cleanup());

  it('renews the lease at a third of its length, so nobody else can claim the channel meanwhile', async () => {
    let clock = Date.parse('2026-07-01T12:00:00Z');
    const now = (): Date => new Date(clock);
    const leaseMs = 90_000;
    await ts.store.registerChannel({ channelId: CH, wanted: 1 }, now());
    const claimed = await ts.store.claimDueChannel('me', leaseMs, now());
    expect(claimed?.channelId).to.equal(CH);
    const expiry = async (): Promise<number> => (await ts.store.getChannel(CH))!.leaseExpiresAt!.getTime();

    const lost: string[] = [];
    const timer = manualEvery();
    const keeper = keepLease({ store: ts.store, channelId: CH, owner: 'me', leaseMs, now, logger: silentLogger(), onLost: (r) => void lost.push(r), every: timer.every });
    expect(timer.periods).to.deep.equal([30_000]);

    // Six renewals, a third of a lease apart: two whole lease lengths during which the lease is
    // always ours, each renewal pushing the expiry a lease length past the clock.
    for (let i = 1; i <= 6; i++) {
      clock += 30_000;
      timer.tick();
      const expected = clock + leaseMs;
      await until(`renewal ${i}`, async () => (await expiry()) === expected);
      expect(await ts.store.claimDueChannel('other', leaseMs, now()), `claim after renewal ${i}`).to.equal(null);
    }
    expect(lost).to.deep.equal([]);

    keeper.stop();
    expect(timer.stopped()).to.equal(true);
    // Not renewed any more: once it expires another crawler takes over.
    clock += leaseMs - 1;
    expect(await ts.store.claimDueChannel('other', leaseMs, now()), 'still ours until it expires').to.equal(null);
    clock += 1;
    expect((await ts.store.claimDueChannel('other', leaseMs, now()))?.channelId).to.equal(CH);
  });

  it('reports the lease lost, once, when it was taken over or the store fails', async () => {
    const now = () => new Date(Date.parse('2026-07-01T12:00:00Z'));
    await ts.store.registerChannel({ channelId: CH, wanted: 1 }, now());
    await ts.store.claimDueChannel('me', 60_000, now());
    const probe = probeStore(ts.store);
    const renewals: string[] = [];
    const realRenew = ts.store.renewLease.bind(ts.store);
    probe.override.renewLease = (...args: unknown[]) => {
      renewals.push(String(args[1]));
      return realRenew(...(args as Parameters<typeof realRenew>));
    };
    const timer = manualEvery();
    const lost: string[] = [];
    keepLease({ store: probe.store, channelId: CH, owner: 'someone-else', leaseMs: 60_000, now, logger: silentLogger(), onLost: (r) => void lost.push(r), every: timer.every });
    timer.tick();
    await until('lost', () => lost.length === 1);
    // Once lost, a later tick neither asks the store again nor reports a second time.
    timer.tick();
    expect(renewals).to.deep.equal(['someone-else']);
    expect(lost).to.deep.equal(['lease taken over or expired']);

    const lost2: string[] = [];
    probe.override.renewLease = () => Promise.reject(new StoreUnavailableError('database is locked'));
    const timer2 = manualEvery();
    keepLease({ store: probe.store, channelId: CH, owner: 'me', leaseMs: 60_000, now, logger: silentLogger(), onLost: (r) => void lost2.push(r), every: timer2.every });
    timer2.tick();
    await until('lost', () => lost2.length === 1);
    expect(lost2[0]).to.match(/renewal failed: database is locked/);
  });
});
