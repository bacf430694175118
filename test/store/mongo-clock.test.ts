// One clock for every host on MongoDB: lease expiry, due times and the rate-limit window are read
// from the server's clock, so hosts whose own clocks drift apart neither take a live lease, nor keep
// a channel from everyone, nor count one minute twice. Two stores on one database play two hosts;
// the `now` each call is given is that host's clock, here set minutes off the real time.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import type { Store } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { mongoTestDatabase } from '../support/mongo-emulator';

const MIN = 60_000;
const LEASE_MS = 5 * MIN;
/** A host clock `ms` away from the real time (the server's, give or take its own small drift). */
const clockOff = (ms: number) => () => new Date(Date.now() + ms);

describe('mongodb store on the server clock (hosts with skewed clocks)', function () {
  this.timeout(30_000);
  let db: Awaited<ReturnType<typeof mongoTestDatabase>>;
  let a: Store;
  let b: Store;
  const onTime = clockOff(0);
  const ahead = clockOff(10 * MIN);
  const behind = clockOff(-10 * MIN);

  beforeEach(async () => {
    db = await mongoTestDatabase();
    a = await connectMongoStore(db.url, { logger: silentLogger() });
    b = await connectMongoStore(db.url, { logger: silentLogger() });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  /** Within two minutes of the real time `offsetMs` from now (a real server's clock may drift a little). */
  const near = (d: Date | null, offsetMs: number): void => {
    expect(d, 'a time').to.be.instanceOf(Date);
    expect(Math.abs(d!.getTime() - (Date.now() + offsetMs)), `${d!.toISOString()} ≈ now + ${offsetMs / MIN} min`).to.be.below(2 * MIN);
  };

  it('a crawler whose clock runs ahead cannot take a lease that is still live', async () => {
    await a.registerChannel({ channelId: 'UC_a', wanted: 5 }, onTime());
    const claimed = await a.claimDueChannel('host-a:crawler-0', LEASE_MS, onTime());
    expect(claimed?.leaseOwner).to.equal('host-a:crawler-0');
    near(claimed!.leaseExpiresAt, LEASE_MS);
    // Ten minutes ahead, this host's clock says the five-minute lease has long expired.
    expect(await b.claimDueChannel('host-b:crawler-0', LEASE_MS, ahead())).to.equal(null);
    // Renewed from a host running behind, the lease still runs LEASE_MS from the server's now.
    expect(await a.renewLease('UC_a', 'host-a:crawler-0', LEASE_MS, behind())).to.equal(true);
    near((await a.getChannel('UC_a'))!.leaseExpiresAt, LEASE_MS);
  });

  it('a channel registered by a host whose clock runs ahead is due at once for the others', async () => {
    const registered = await b.registerChannel({ channelId: 'UC_a', wanted: 5 }, ahead());
    near(registered.dueAt, 0);
    near(registered.createdAt, 0);
    expect((await a.claimDueChannel('host-a:crawler-0', LEASE_MS, onTime()))?.channelId).to.equal('UC_a');
  });

  it('a release keeps the delay the crawler chose, measured from the server clock', async () => {
    await a.registerChannel({ channelId: 'UC_a', wanted: 5 }, onTime());
    const at = ahead();
    expect(await b.claimDueChannel('host-b:crawler-0', LEASE_MS, at)).to.not.equal(null);
    const released = await b.releaseChannel('UC_a', 'host-b:crawler-0', { nextDueAt: new Date(at.getTime() + 30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at);
    expect(released).to.equal(true);
    const c = (await a.getChannel('UC_a'))!;
    near(c.dueAt, 30 * MIN);
    near(c.lastCrawlAt, 0);
    expect(await a.claimDueChannel('host-a:crawler-0', LEASE_MS, onTime()), 'not due for 30 minutes').to.equal(null);
  });

  it('the refresh and a restarted crawler bring channels forward to the server clock, not to their own', async () => {
    await a.registerChannel({ channelId: 'UC_a', wanted: 5 }, onTime());
    await a.claimDueChannel('host-a:crawler-0', LEASE_MS, onTime());
    await a.releaseChannel('UC_a', 'host-a:crawler-0', { nextDueAt: new Date(Date.now() + 5 * MIN), outcome: 'ok', consecutiveFailures: 0 }, onTime());
    // An operator's refresh from a host ten minutes ahead makes the channel due at the server's now.
    expect(await b.makeChannelDue('UC_a', ahead())).to.equal(true);
    near((await a.getChannel('UC_a'))!.dueAt, 0);
    // A crawler restarted on a host running ahead takes back its lease; the channel is due now, not in ten minutes.
    await a.registerChannel({ channelId: 'UC_b', wanted: 5 }, onTime());
    await b.claimDueChannel('host-b:crawler-0', LEASE_MS, ahead());
    await b.claimDueChannel('host-b:crawler-0', LEASE_MS, ahead());
    expect(await b.reclaimLeases('host-b:crawler-0', ahead())).to.equal(2);
    near((await a.getChannel('UC_b'))!.dueAt, 0);
  });

  it('API hosts on skewed clocks count one minute of a key together', async () => {
    // Ninety seconds apart, the two hosts' own clocks are always in different minutes.
    for (let attempt = 1; ; attempt++) {
      const first = await a.hitRateLimit('key-digest', 100, onTime());
      const second = await b.hitRateLimit('key-digest', 100, clockOff(90_000)());
      // The server's minute may turn between the two calls: then the pair proves nothing; go again.
      if (first.resetAt.getTime() !== second.resetAt.getTime() && attempt < 3) continue;
      expect(second.resetAt).to.deep.equal(first.resetAt);
      expect(second.count).to.equal(first.count + 1);
      near(first.resetAt, 30_000);
      break;
    }
  });
});
