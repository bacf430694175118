// Lease renewal with real timers over a real store: a working crawler keeps its channel, and a
// renewal that fails tells the run to stop (once).

import { expect } from 'chai';
import { keepLease } from '../../crawler/lease-keeper';
import { silentLogger } from '../../shared/logger';
import { StoreUnavailableError } from '../../shared/store/types';
import { until } from './support/logs';
import { probeStore } from './support/store-probe';
import { tempStore, type TempStore } from './support/temp-store';

const CH = 'UCcrawlerleasekeeper0001';

describe('crawler lease keeper', function () {
  this.timeout(20_000);
  let ts: TempStore;
  beforeEach(async () => {
    ts = await tempStore();
  });
  afterEach(async () => ts.cleanup());

  it('renews the lease at a third of its length, so nobody else can claim the channel meanwhile', async () => {
    await ts.store.registerChannel({ channelId: CH, wanted: 1 }, new Date());
    // Long enough that a busy machine still renews in time (every 300 ms).
    const leaseMs = 900;
    const claimed = await ts.store.claimDueChannel('me', leaseMs, new Date());
    expect(claimed?.channelId).to.equal(CH);
    const lost: string[] = [];
    const keeper = keepLease({ store: ts.store, channelId: CH, owner: 'me', leaseMs, now: () => new Date(), logger: silentLogger(), onLost: (r) => void lost.push(r) });
    try {
      const firstExpiry = claimed!.leaseExpiresAt!.getTime();
      await until('a renewal', async () => (await ts.store.getChannel(CH))!.leaseExpiresAt!.getTime() > firstExpiry);
      // Two lease lengths later the lease is still ours.
      await new Promise((r) => setTimeout(r, 2 * leaseMs));
      expect(await ts.store.claimDueChannel('other', leaseMs, new Date())).to.equal(null);
      expect(lost).to.deep.equal([]);
    } finally {
      keeper.stop();
    }
    // Not renewed any more: after it expires another crawler takes over.
    await new Promise((r) => setTimeout(r, 2 * leaseMs));
    expect((await ts.store.claimDueChannel('other', leaseMs, new Date()))?.channelId).to.equal(CH);
  });

  it('reports the lease lost, once, when it was taken over or the store fails', async () => {
    await ts.store.registerChannel({ channelId: CH, wanted: 1 }, new Date());
    await ts.store.claimDueChannel('me', 60_000, new Date());
    const probe = probeStore(ts.store);
    const ticks: (() => void)[] = [];
    const lost: string[] = [];
    keepLease({
      store: probe.store, channelId: CH, owner: 'someone-else', leaseMs: 60_000, now: () => new Date(), logger: silentLogger(),
      onLost: (r) => void lost.push(r), every: (_ms, fn) => { ticks.push(fn); return () => undefined; },
    });
    ticks[0]!();
    await until('lost', () => lost.length === 1);
    ticks[0]!();
    await new Promise((r) => setTimeout(r, 10));
    expect(lost).to.deep.equal(['lease taken over or expired']);

    const lost2: string[] = [];
    probe.override.renewLease = () => Promise.reject(new StoreUnavailableError('database is locked'));
    keepLease({
      store: probe.store, channelId: CH, owner: 'me', leaseMs: 60_000, now: () => new Date(), logger: silentLogger(),
      onLost: (r) => void lost2.push(r), every: (_ms, fn) => { fn(); return () => undefined; },
    });
    await until('lost', () => lost2.length === 1);
    expect(lost2[0]).to.match(/renewal failed: database is locked/);
  });
});
