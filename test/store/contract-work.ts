// The store contract's work-item cases (registering channels, claiming them, awaited work shared
// fairly between keys), run by contract.ts on every backend.

import { expect } from 'chai';
import type { Store } from '../../shared/store';
import { at, MIN } from './contract-support';
import { refreshAll } from '../support/refresh';

export function workCases(getStore: () => Store): void {
  let store: Store;
  beforeEach(function () {
    store = getStore();
  });

  describe('registerChannel', function () {
    it('creates a channel due now with a lower-cased handle', async function () {
      const c = await store.registerChannel({ channelId: 'UC_a', wanted: 10, handle: '@SomeName', title: 'A' }, at(0));
      expect(c).to.deep.equal({
        channelId: 'UC_a', kind: 'channel', handle: 'somename', title: 'A', wanted: 10, dueAt: at(0), leaseOwner: null,
        leaseExpiresAt: null, lastCrawlAt: null, lastOutcome: null, lastError: null, consecutiveFailures: 0,
        createdAt: at(0), coveredWanted: null, followed: false, askedAt: at(0), awaitedAt: at(0), awaitedBy: null,
      });
      expect(await store.getChannel('UC_a')).to.deep.equal(c);
      expect(await store.getChannel('UC_unknown')).to.equal(null);
    });

    it('keeps the schedule when wanted does not grow, and makes it due now when it grows', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 10 }, at(0));
      const claimed = await store.claimDueChannel('w1', MIN, at(0));
      expect(claimed?.channelId).to.equal('UC_a');
      await store.releaseChannel('UC_a', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(1000));

      const same = await store.registerChannel({ channelId: 'UC_a', wanted: 5, handle: 'other' }, at(2 * MIN));
      expect(same.wanted).to.equal(10);
      expect(same.dueAt).to.deep.equal(at(30 * MIN));
      expect(same.createdAt).to.deep.equal(at(0));
      expect(same.handle, 'a handle is filled in once known').to.equal('other');

      const grown = await store.registerChannel({ channelId: 'UC_a', wanted: 25 }, at(3 * MIN));
      expect(grown.wanted).to.equal(25);
      expect(grown.dueAt).to.deep.equal(at(3 * MIN));
      expect(grown.lastOutcome, 'run history is kept').to.equal('ok');
    });

    it('keeps the first handle and takes a newer title', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 1, handle: 'First', title: 'Old' }, at(0));
      const c = await store.registerChannel({ channelId: 'UC_a', wanted: 1, handle: 'second', title: 'New' }, at(1));
      expect(c.handle).to.equal('first');
      expect(c.title).to.equal('New');
      const untouched = await store.registerChannel({ channelId: 'UC_a', wanted: 1 }, at(2));
      expect(untouched.title).to.equal('New');
    });

    it('names a known channel at once (nameChannel), leaving everything else and unknown ids alone', async function () {
      const before = await store.registerChannel({ channelId: 'UC_a', wanted: 7, handle: 'first' }, at(0));
      expect(before.title).to.equal(null);
      await store.nameChannel('UC_a', 'Kanal & <Başlık>');
      expect(await store.getChannel('UC_a')).to.deep.equal({ ...before, title: 'Kanal & <Başlık>' });
      await store.nameChannel('UC_a', 'Renamed');
      expect((await store.getChannel('UC_a'))!.title).to.equal('Renamed');
      // A registration without a title keeps it.
      expect((await store.registerChannel({ channelId: 'UC_a', wanted: 1 }, at(1))).title).to.equal('Renamed');
      await store.nameChannel('UC_nobody', 'Ghost');
      expect(await store.getChannel('UC_nobody')).to.equal(null);
    });

    it('makes a channel whose wanted grew during a lease due again at release', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 10 }, at(0));
      await store.claimDueChannel('w1', MIN, at(0));
      await store.registerChannel({ channelId: 'UC_a', wanted: 50 }, at(1000));
      await store.releaseChannel('UC_a', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(2000));
      const c = await store.getChannel('UC_a');
      expect(c?.dueAt).to.deep.equal(at(2000));
      expect(c?.leaseOwner).to.equal(null);
    });
  });

  describe('claiming', function () {
    beforeEach(async function () {
      await store.registerChannel({ channelId: 'UC_late', wanted: 1 }, at(2000));
      await store.registerChannel({ channelId: 'UC_early', wanted: 1 }, at(1000));
      await store.registerChannel({ channelId: 'UC_future', wanted: 1 }, at(0));
      await store.claimDueChannel('setup', MIN, at(0)); // UC_future: give it a schedule in the future
      await store.releaseChannel('UC_future', 'setup', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(0));
    });

    it('claims the earliest due channel, then the next, never one not yet due', async function () {
      const first = await store.claimDueChannel('w1', MIN, at(5000));
      expect(first?.channelId).to.equal('UC_early');
      expect(first?.leaseOwner).to.equal('w1');
      expect(first?.leaseExpiresAt).to.deep.equal(at(5000 + MIN));
      expect((await store.claimDueChannel('w2', MIN, at(5000)))?.channelId).to.equal('UC_late');
      expect(await store.claimDueChannel('w3', MIN, at(5000))).to.equal(null);
    });

    it('returns null when nothing is due yet', async function () {
      expect(await store.claimDueChannel('w1', MIN, at(500))).to.equal(null);
    });

    it('lets another owner take over an expired lease', async function () {
      await store.claimDueChannel('w1', MIN, at(5000)); // UC_early
      await store.claimDueChannel('w1', MIN, at(5000)); // UC_late
      expect(await store.claimDueChannel('w2', MIN, at(5000 + MIN - 1))).to.equal(null);
      const taken = await store.claimDueChannel('w2', MIN, at(5000 + MIN));
      expect(taken?.channelId).to.equal('UC_early');
      expect(taken?.leaseOwner).to.equal('w2');
      expect(await store.renewLease('UC_early', 'w1', MIN, at(5000 + MIN)), 'old owner lost it').to.equal(false);
    });

    it('renews only for the owner', async function () {
      await store.claimDueChannel('w1', MIN, at(5000));
      expect(await store.renewLease('UC_early', 'w2', MIN, at(6000))).to.equal(false);
      expect(await store.renewLease('UC_early', 'w1', 5 * MIN, at(6000))).to.equal(true);
      expect((await store.getChannel('UC_early'))?.leaseExpiresAt).to.deep.equal(at(6000 + 5 * MIN));
      const next = await store.claimDueChannel('w2', MIN, at(5000 + 2 * MIN));
      expect(next?.channelId, 'the renewed lease still holds').to.equal('UC_late');
    });

    it('releases only for the owner and records the run', async function () {
      await store.claimDueChannel('w1', MIN, at(5000));
      const result = { nextDueAt: at(90 * MIN), outcome: 'blocked', error: 'HTTP 429', consecutiveFailures: 2, title: 'Early' };
      expect(await store.releaseChannel('UC_early', 'w2', result, at(7000))).to.equal(false);
      expect(await store.releaseChannel('UC_early', 'w1', result, at(7000))).to.equal(true);
      const c = await store.getChannel('UC_early');
      expect(c).to.include({ leaseOwner: null, leaseExpiresAt: null, lastOutcome: 'blocked', lastError: 'HTTP 429', consecutiveFailures: 2, title: 'Early' });
      expect(c?.dueAt).to.deep.equal(at(90 * MIN));
      expect(c?.lastCrawlAt).to.deep.equal(at(7000));
      expect(await store.releaseChannel('UC_early', 'w1', result, at(8000)), 'released twice').to.equal(false);
    });

    it('records the coverage a release states, keeps it across registrations, forgets it when left out', async function () {
      await store.claimDueChannel('w1', MIN, at(5000)); // UC_early
      const ok = { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0, coveredWanted: 40 };
      expect(await store.releaseChannel('UC_early', 'w1', ok, at(6000))).to.equal(true);
      expect((await store.getChannel('UC_early'))?.coveredWanted).to.equal(40);
      const grown = await store.registerChannel({ channelId: 'UC_early', wanted: 60, title: 'Early' }, at(7000));
      expect(grown.coveredWanted, 'registering does not touch it').to.equal(40);
      // UC_late (due since 2000) comes first, then UC_early (due again since its wanted grew).
      const claimed = [await store.claimDueChannel('w1', MIN, at(7000)), await store.claimDueChannel('w1', MIN, at(7000))];
      expect(claimed.find((c) => c?.channelId === 'UC_early')?.coveredWanted).to.equal(40);
      await store.releaseChannel('UC_early', 'w1', { nextDueAt: at(30 * MIN), outcome: 'stopped', consecutiveFailures: 0 }, at(8000));
      expect((await store.getChannel('UC_early'))?.coveredWanted, 'a run that does not state it leaves it unknown').to.equal(null);
    });

    it('reclaimLeases frees only this owner\'s leases and makes those channels due, keeping their history', async function () {
      const mine = (await store.claimDueChannel('host:crawler-0', 300_000, at(1000)))!;
      expect(mine.channelId).to.equal('UC_early');
      const theirs = (await store.claimDueChannel('other:crawler-0', 300_000, at(2000)))!;
      expect(theirs.channelId).to.equal('UC_late');
      // UC_future (released by 'setup' with a schedule in an hour) is not leased: left alone.
      expect(await store.reclaimLeases('host:crawler-0', at(3000))).to.equal(1);
      expect(await store.getChannel('UC_early')).to.deep.include({ leaseOwner: null, leaseExpiresAt: null, dueAt: at(1000), wanted: 1 });
      expect((await store.getChannel('UC_late'))?.leaseOwner, 'another crawler\'s lease untouched').to.equal('other:crawler-0');
      expect((await store.getChannel('UC_future'))?.dueAt).to.deep.equal(at(60 * MIN));
      expect((await store.claimDueChannel('host:crawler-0', 300_000, at(3000)))?.channelId, 'claimable again at once').to.equal('UC_early');
      expect(await store.reclaimLeases('nobody', at(3000))).to.equal(0);
    });

    it('refreshAll leaves channels in a failure backoff where they are', async function () {
      const plan: Record<string, { outcome: string; failures: number; dueMs: number }> = {
        UC_blocked: { outcome: 'blocked', failures: 2, dueMs: 12 * 60 * MIN },
        UC_gone: { outcome: 'not_found', failures: 1, dueMs: 24 * 60 * MIN },
        UC_fine: { outcome: 'ok', failures: 0, dueMs: 30 * MIN },
      };
      for (const id of Object.keys(plan)) await store.registerChannel({ channelId: id, wanted: 1 }, at(0));
      for (let i = 0; i < 3; i++) {
        const c = (await store.claimDueChannel('w', MIN, at(0)))!.channelId;
        const p = plan[c]!;
        expect(await store.releaseChannel(c, 'w', { nextDueAt: at(p.dueMs), outcome: p.outcome, consecutiveFailures: p.failures }, at(1))).to.equal(true);
      }
      expect(await refreshAll(store, at(10 * MIN)), 'UC_fine and UC_future move').to.equal(2);
      expect((await store.getChannel('UC_fine'))?.dueAt).to.deep.equal(at(10 * MIN));
      expect((await store.getChannel('UC_blocked'))?.dueAt, 'blocked backoff kept').to.deep.equal(at(12 * 60 * MIN));
      expect((await store.getChannel('UC_gone'))?.dueAt, 'not-found backoff kept').to.deep.equal(at(24 * 60 * MIN));
    });

    it('refreshAll brings every later schedule forward to now', async function () {
      expect(await refreshAll(store, at(10 * MIN))).to.equal(1);
      expect((await store.getChannel('UC_future'))?.dueAt).to.deep.equal(at(10 * MIN));
      expect((await store.getChannel('UC_early'))?.dueAt, 'earlier ones untouched').to.deep.equal(at(1000));
      const claimed: string[] = [];
      for (let i = 0; i < 3; i++) claimed.push((await store.claimDueChannel('w', MIN, at(10 * MIN)))?.channelId ?? 'none');
      expect(claimed.sort()).to.deep.equal(['UC_early', 'UC_future', 'UC_late']);
    });

    it('claims what a reader asked for (new, or wanted grew) before the backlog, earliest asked first, until a run served it', async function () {
      // UC_future was served (released); UC_late and UC_early are new, not yet served.
      const first = await store.claimAskedChannel('w1', MIN, at(5000));
      expect(first?.channelId, 'asked at 1000, before UC_late at 2000').to.equal('UC_early');
      expect(first?.leaseOwner).to.equal('w1');
      expect((await store.claimAskedChannel('w1', MIN, at(5000)))?.channelId).to.equal('UC_late');
      expect(await store.claimAskedChannel('w1', MIN, at(5000)), 'a served channel is not asked for').to.equal(null);
      await store.releaseChannel('UC_early', 'w1', { nextDueAt: at(2 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(6000));
      await store.releaseChannel('UC_late', 'w1', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(6000));
      expect(await store.claimAskedChannel('w2', MIN, at(3 * MIN)), 'served: due again by its schedule only').to.equal(null);
      expect((await store.claimDueChannel('w2', MIN, at(3 * MIN)))?.channelId).to.equal('UC_early');
      // A larger wanted asks again; an equal one does not.
      await store.registerChannel({ channelId: 'UC_future', wanted: 1 }, at(7000));
      expect(await store.claimAskedChannel('w3', MIN, at(7000))).to.equal(null);
      await store.registerChannel({ channelId: 'UC_future', wanted: 5 }, at(8000));
      expect((await store.claimAskedChannel('w3', MIN, at(8000)))?.channelId).to.equal('UC_future');
    });

    it('keeps a channel asked for when wanted grew during its lease', async function () {
      await store.claimAskedChannel('w1', MIN, at(5000)); // UC_early
      await store.releaseChannel('UC_early', 'w1', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(6000));
      await store.claimAskedChannel('other', 120 * MIN, at(6000)); // UC_late
      expect((await store.claimDueChannel('w1', MIN, at(60 * MIN)))?.channelId).to.equal('UC_early');
      await store.registerChannel({ channelId: 'UC_early', wanted: 20 }, at(60 * MIN + 1));
      await store.releaseChannel('UC_early', 'w1', { nextDueAt: at(120 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(60 * MIN + 2));
      expect((await store.claimAskedChannel('w2', MIN, at(60 * MIN + 3)))?.channelId).to.equal('UC_early');
    });

    it('says how far behind the listing schedule is: channels due and free, and the earliest due time', async function () {
      expect(await store.listingBacklog(at(0))).to.deep.equal({ due: 0, oldestDueAt: null });
      expect(await store.listingBacklog(at(5000))).to.deep.equal({ due: 2, oldestDueAt: at(1000) });
      await store.claimDueChannel('w1', MIN, at(5000)); // UC_early, leased: not behind, being worked
      expect(await store.listingBacklog(at(5000))).to.deep.equal({ due: 1, oldestDueAt: at(2000) });
      expect(await store.listingBacklog(at(60 * MIN))).to.deep.equal({ due: 3, oldestDueAt: at(1000) });
    });
  });

  describe('awaited work shared fairly between keys', function () {
    const claimAll = async (n: number, now: Date): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push((await store.claimAskedChannel('w', MIN, now))?.channelId ?? 'none');
      return out;
    };

    it('serves awaited channels round-robin by the key that asked: one key\'s many never keep another\'s one waiting', async function () {
      for (let i = 0; i < 4; i++) await store.registerChannel({ channelId: `UC_a${i}`, wanted: 1, keyId: 'key-a' }, at(1000 + i));
      await store.registerChannel({ channelId: 'UC_b0', wanted: 1, keyId: 'key-b' }, at(2000));
      expect(await store.getChannel('UC_b0')).to.deep.include({ awaitedAt: at(2000), awaitedBy: 'key-b' });
      expect(await store.awaitedWorkWaiting('UC_a0', at(3000)), 'key-b waits in round 0').to.equal(true);
      expect(await store.awaitedWorkWaiting('UC_a0', at(1500)), 'key-b has not asked yet; key-a\'s own do not count').to.equal(false);
      expect(await claimAll(2, at(3000))).to.deep.equal(['UC_a0', 'UC_b0']);
      expect(await store.awaitedWorkWaiting('UC_b0', at(3000)), 'key-a\'s next is a round later').to.equal(false);
      // key-b asks again while its first is still running: its next is one round later, beside key-a's.
      await store.registerChannel({ channelId: 'UC_b1', wanted: 1, keyId: 'key-b' }, at(4000));
      expect(await claimAll(5, at(5000))).to.deep.equal(['UC_a1', 'UC_b1', 'UC_a2', 'UC_a3', 'none']);
      expect(await store.awaitedWorkWaiting('UC_a3', at(5000)), 'everything is leased').to.equal(false);
      await store.releaseChannel('UC_b0', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(6000));
      expect(await store.getChannel('UC_b0')).to.deep.include({ awaitedAt: null, awaitedBy: null });
    });

    it('a key with nothing waiting joins the round being served, never ahead of it; a larger wanted asks as its key', async function () {
      for (let i = 0; i < 3; i++) await store.registerChannel({ channelId: `UC_a${i}`, wanted: 1, keyId: 'key-a' }, at(1000 + i));
      expect(await claimAll(2, at(2000))).to.deep.equal(['UC_a0', 'UC_a1']);
      await store.releaseChannel('UC_a0', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(2000));
      await store.releaseChannel('UC_a1', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(2000));
      // UC_a2 waits in round 2; key-b's new channel joins round 2, after it (it waited longer).
      await store.registerChannel({ channelId: 'UC_b0', wanted: 1, keyId: 'key-b' }, at(3000));
      await store.registerChannel({ channelId: 'UC_a0', wanted: 5, keyId: 'key-b' }, at(3001));
      expect(await store.getChannel('UC_a0')).to.deep.include({ awaitedAt: at(3001), awaitedBy: 'key-b' });
      expect(await claimAll(4, at(4000))).to.deep.equal(['UC_a2', 'UC_b0', 'UC_a0', 'none']);
    });

    it('a run that yields keeps its channel awaited and due now, one round later', async function () {
      await store.registerChannel({ channelId: 'UC_a0', wanted: 1, keyId: 'key-a' }, at(1000));
      await store.registerChannel({ channelId: 'UC_a1', wanted: 1, keyId: 'key-a' }, at(1001));
      expect(await claimAll(1, at(2000))).to.deep.equal(['UC_a0']);
      await store.registerChannel({ channelId: 'UC_b0', wanted: 1, keyId: 'key-b' }, at(2000));
      expect(await store.awaitedWorkWaiting('UC_a0', at(2000))).to.equal(true);
      await store.releaseChannel('UC_a0', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0, yielded: true }, at(3000));
      expect(await store.getChannel('UC_a0')).to.deep.include({ dueAt: at(3000), awaitedAt: at(1000), awaitedBy: 'key-a', leaseOwner: null });
      expect(await claimAll(1, at(4000))).to.deep.equal(['UC_b0']);
      expect(await store.awaitedWorkWaiting('UC_b0', at(4000)), 'the yielded one went a round later: no handing back').to.equal(false);
      expect(await claimAll(3, at(4000))).to.deep.equal(['UC_a0', 'UC_a1', 'none']);
    });

    it('a yielded run of a channel nobody awaits is only due again now', async function () {
      await store.registerChannel({ channelId: 'UC_plain', wanted: 1 }, at(0));
      expect((await store.claimDueChannel('w', MIN, at(5000)))?.channelId).to.equal('UC_plain');
      await store.releaseChannel('UC_plain', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(5000));
      expect((await store.claimDueChannel('w', MIN, at(70 * MIN)))?.channelId).to.equal('UC_plain');
      expect(await store.awaitedWorkWaiting('UC_plain', at(70 * MIN))).to.equal(false);
      await store.registerChannel({ channelId: 'UC_new', wanted: 1, keyId: 'key-a' }, at(70 * MIN));
      expect(await store.awaitedWorkWaiting('UC_plain', at(70 * MIN)), 'a run nobody awaits yields to any awaited work').to.equal(true);
      await store.releaseChannel('UC_plain', 'w', { nextDueAt: at(200 * MIN), outcome: 'ok', consecutiveFailures: 0, yielded: true }, at(70 * MIN));
      expect(await store.getChannel('UC_plain')).to.deep.include({ dueAt: at(70 * MIN), awaitedAt: null, awaitedBy: null });
    });

    it('counts the channels a key created since a time; registering a known channel creates nothing', async function () {
      await store.registerChannel({ channelId: 'UC_a0', wanted: 1, keyId: 'key-a' }, at(0));
      await store.registerChannel({ channelId: 'UC_a1', wanted: 1, keyId: 'key-a' }, at(10 * MIN));
      await store.registerChannel({ channelId: 'UC_a2', wanted: 1, keyId: 'key-a' }, at(70 * MIN));
      await store.registerChannel({ channelId: 'UC_b0', wanted: 1, keyId: 'key-b' }, at(20 * MIN));
      await store.registerChannel({ channelId: 'UC_b0', wanted: 9, keyId: 'key-a' }, at(30 * MIN));
      await store.registerChannel({ channelId: 'UC_none', wanted: 1 }, at(30 * MIN));
      expect(await store.newChannelsOfKey('key-a', at(10 * MIN))).to.deep.equal({ count: 2, oldest: at(10 * MIN) });
      expect(await store.newChannelsOfKey('key-b', at(0))).to.deep.equal({ count: 1, oldest: at(20 * MIN) });
      expect(await store.newChannelsOfKey('key-c', at(0))).to.deep.equal({ count: 0, oldest: null });
    });
  });

}
