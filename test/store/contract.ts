// The store contract: one suite every Store implementation must pass (SQLite always, MongoDB when a
// server is configured). Time is passed in explicitly, so nothing here sleeps.

import { expect } from 'chai';
import { videoRecord } from '../support/factories';
import { StoreUnavailableError, UNKNOWN_PUBLISHED_MS, type FeedKind, type RateLimitResult, type Store, type VideoKind, type VideoRecord, type VideoState, type WebSubRecord } from '../../shared/store';
import { subscriptionCases } from './contract-subscriptions';
import { isFeedEntry, isShownKind, UNKNOWN_HANDLE_TTL_MS } from '../../shared/store/rules';
import { searchCases } from './contract-search';
import { platformCheckCases } from './contract-platform-check';
import { operatorContract } from './contract-operators';

export interface StoreFixture {
  store: Store;
  cleanup(): Promise<void>;
}

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0); // minute-aligned, so rate windows are predictable
const at = (ms: number): Date => new Date(T0 + ms);
const MIN = 60_000;

/** A stored video of channel UC_a at T0; `overrides` names it and sets what the case is about. */
export const video = (overrides: Partial<VideoRecord> & { videoId: string }): VideoRecord =>
  videoRecord({ channelId: 'UC_a', publishedAt: at(0), fetchedAt: at(0), ...overrides });

const ids = (videos: readonly VideoRecord[]): string[] => videos.map((v) => v.videoId);
const summaryOf = (r: RateLimitResult): [boolean, number, number] => [r.allowed, r.remaining, r.count];

async function expectUnavailable(p: Promise<unknown>): Promise<void> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected a StoreUnavailableError').to.be.instanceOf(StoreUnavailableError);
}

export function storeContract(name: string, factory: () => Promise<StoreFixture>): void {
  describe(`${name} store contract`, function () {
    let fixture: StoreFixture;
    let store: Store;

    beforeEach(async function () {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async function () {
      await fixture.cleanup();
    });

    describe('playlists', function () {
      const listing = { playlistId: 'PL_course', title: 'A course', owner: 'Teacher', ownerChannelId: 'UC_a', state: 'listed' as const, videoIds: ['v3', 'v1', 'v2'] };

      it('a playlist is a work item of kind playlist: claimed, released and refreshed like a channel', async function () {
        const p = await store.registerChannel({ channelId: 'PL_course', kind: 'playlist', wanted: 15 }, at(0));
        expect(p.kind).to.equal('playlist');
        // Registering again (as every feed request does) never changes the kind.
        expect((await store.registerChannel({ channelId: 'PL_course', wanted: 20 }, at(1))).kind).to.equal('playlist');
        expect((await store.registerChannel({ channelId: 'UC_b', wanted: 5 }, at(2))).kind).to.equal('channel');
        const claimed = await store.claimDueChannel('crawler-1', MIN, at(3));
        expect(claimed?.channelId).to.equal('PL_course');
        expect(claimed?.kind).to.equal('playlist');
        expect(await store.releaseChannel('PL_course', 'crawler-1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(4))).to.equal(true);
        expect(await store.markAllDue(at(5))).to.equal(1);
        expect((await store.getChannel('PL_course'))?.kind).to.equal('playlist');
      });

      it('stores a listing in order; changedAt moves only when something a feed shows changed', async function () {
        expect(await store.getPlaylist('PL_course')).to.equal(null);
        const first = await store.putPlaylist(listing, at(0));
        expect(first).to.deep.equal({ ...listing, listedAt: at(0), changedAt: at(0) });
        expect(await store.getPlaylist('PL_course')).to.deep.equal(first);

        const same = await store.putPlaylist({ ...listing, videoIds: [...listing.videoIds] }, at(MIN));
        expect(same.listedAt).to.deep.equal(at(MIN));
        expect(same.changedAt).to.deep.equal(at(0));

        const reordered = await store.putPlaylist({ ...listing, videoIds: ['v1', 'v3', 'v2'] }, at(2 * MIN));
        expect(reordered.changedAt).to.deep.equal(at(2 * MIN));
        expect((await store.getPlaylist('PL_course'))?.videoIds).to.deep.equal(['v1', 'v3', 'v2']);

        const renamed = await store.putPlaylist({ ...listing, videoIds: ['v1', 'v3', 'v2'], title: 'A course, 2nd edition' }, at(3 * MIN));
        expect(renamed.changedAt).to.deep.equal(at(3 * MIN));
      });

      it('records the platform saying private or deleted, with no entries; values are stored as given', async function () {
        await store.putPlaylist(listing, at(0));
        const gone = await store.putPlaylist({ ...listing, title: null, owner: null, ownerChannelId: null, state: 'private', videoIds: [] }, at(MIN));
        expect(gone).to.deep.include({ state: 'private', videoIds: [], title: null, changedAt: at(MIN) });
        const odd = await store.putPlaylist({ ...listing, playlistId: 'PL_odd', title: '$where {"$gt": 1}', owner: '$owner' }, at(0));
        expect((await store.getPlaylist('PL_odd'))).to.deep.equal(odd);
        expect(odd.title).to.equal('$where {"$gt": 1}');
      });
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

      it('markAllDue leaves channels in a failure backoff where they are', async function () {
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
        expect(await store.markAllDue(at(10 * MIN)), 'UC_fine and UC_future move').to.equal(2);
        expect((await store.getChannel('UC_fine'))?.dueAt).to.deep.equal(at(10 * MIN));
        expect((await store.getChannel('UC_blocked'))?.dueAt, 'blocked backoff kept').to.deep.equal(at(12 * 60 * MIN));
        expect((await store.getChannel('UC_gone'))?.dueAt, 'not-found backoff kept').to.deep.equal(at(24 * 60 * MIN));
      });

      it('markAllDue brings every later schedule forward to now', async function () {
        expect(await store.markAllDue(at(10 * MIN))).to.equal(1);
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

    describe('videos', function () {
      it('stores every field and writes a replayed batch once', async function () {
        const batch = [
          video({ videoId: 'v1', publishedAt: at(1000), kind: 'automatic', language: 'de' }),
          video({ videoId: 'v2', state: 'failed', language: null, kind: null, attempts: 2, nextAttemptAt: at(MIN), lastError: 'timeout' }),
        ];
        await store.upsertVideos(batch);
        await store.upsertVideos(batch);
        expect(await store.getVideos(['v2', 'v1', 'nope'])).to.deep.equal([batch[1], batch[0]]);
        expect(ids(await store.listFeedEntries('UC_a', 10))).to.deep.equal(['v1']);
        await store.upsertVideos([]);
      });

      it('replaces a video on a later write', async function () {
        await store.upsertVideos([video({ videoId: 'v1', state: 'failed', nextAttemptAt: at(MIN) })]);
        const ready = video({ videoId: 'v1', attempts: 2, fetchedAt: at(MIN) });
        await store.upsertVideos([ready]);
        expect(await store.getVideos(['v1'])).to.deep.equal([ready]);
      });

      it('lists the feed newest first, ties by video id, up to the limit', async function () {
        await store.upsertVideos([
          video({ videoId: 'old', publishedAt: at(1000) }),
          video({ videoId: 'new', publishedAt: at(3000) }),
          video({ videoId: 'mid-b', publishedAt: at(2000) }),
          video({ videoId: 'mid-a', publishedAt: at(2000) }),
          video({ videoId: 'other-channel', channelId: 'UC_b', publishedAt: at(9000) }),
        ]);
        expect(ids(await store.listFeedEntries('UC_a', 10))).to.deep.equal(['new', 'mid-a', 'mid-b', 'old']);
        expect(ids(await store.listFeedEntries('UC_a', 2))).to.deep.equal(['new', 'mid-a']);
        expect(await store.listFeedEntries('UC_none', 10)).to.deep.equal([]);
        expect(await store.listFeedEntries('UC_a', 0), 'a zero limit is not "no limit"').to.deep.equal([]);
      });

      it('lists regular videos by default, the kinds asked for otherwise, never upcoming ones (#10)', async function () {
        await store.upsertVideos([
          video({ videoId: 'regular', videoKind: 'regular', publishedAt: at(6) }),
          video({ videoId: 'short', videoKind: 'short', publishedAt: at(5) }),
          video({ videoId: 'live', videoKind: 'live', publishedAt: at(4) }),
          video({ videoId: 'upcoming', videoKind: 'upcoming', state: 'no_transcript', publishedAt: at(3) }),
          video({ videoId: 'from-before', videoKind: null, durationSeconds: null, description: null, publishedAt: at(2) }),
        ]);
        expect(ids(await store.listFeedEntries('UC_a', 10))).to.deep.equal(['regular', 'from-before']);
        expect(ids(await store.listFeedEntries('UC_a', 10, ['regular', 'short']))).to.deep.equal(['regular', 'short', 'from-before']);
        expect(ids(await store.listFeedEntries('UC_a', 10, ['regular', 'live']))).to.deep.equal(['regular', 'live', 'from-before']);
        expect(ids(await store.listFeedEntries('UC_a', 10, ['regular', 'short', 'live']))).to.deep.equal(['regular', 'short', 'live', 'from-before']);
        expect(ids(await store.listFeedEntries('UC_a', 10, ['short']))).to.deep.equal(['short']);
        expect(ids(await store.listFeedEntries('UC_a', 2, ['regular', 'short', 'live'])), 'the limit counts listed videos').to.deep.equal(['regular', 'short']);
        expect(await store.listFeedEntries('UC_a', 10, [])).to.deep.equal([]);
      });

      it('keeps kind, duration and description, and reads records without them as null', async function () {
        const full = video({ videoId: 'full', videoKind: 'live', durationSeconds: 7260, description: 'Línea 1\n0:00 Intro 🎬 & <b>' });
        const bare = video({ videoId: 'bare', videoKind: null, durationSeconds: null, description: null });
        await store.upsertVideos([full, bare]);
        expect(await store.getVideos(['full', 'bare'])).to.deep.equal([full, bare]);
      });

      it('shows ready and given-up no_transcript videos only', async function () {
        await store.upsertVideos([
          video({ videoId: 'ready', publishedAt: at(5) }),
          video({ videoId: 'gave-up', state: 'no_transcript', publishedAt: at(4) }),
          video({ videoId: 'will-retry', state: 'no_transcript', nextAttemptAt: at(MIN), publishedAt: at(3) }),
          video({ videoId: 'unavailable', state: 'unavailable', publishedAt: at(2) }),
          video({ videoId: 'failed', state: 'failed', nextAttemptAt: at(MIN), publishedAt: at(1) }),
        ]);
        expect(ids(await store.listFeedEntries('UC_a', 10))).to.deep.equal(['ready', 'gave-up']);
      });

      it('shows exactly what the shared feed rule (store/rules.ts isFeedEntry) says, for every state', async function () {
        const states: VideoState[] = ['ready', 'no_transcript', 'unavailable', 'failed'];
        const cases = states.flatMap((state, i) => [null, at(MIN)].map((nextAttemptAt, j) =>
          video({ videoId: `${state}-${j}`, state, nextAttemptAt, publishedAt: at(100 - i * 2 - j) })));
        await store.upsertVideos(cases);
        const expected = cases.filter((v) => isFeedEntry(v.state, v.nextAttemptAt)).map((v) => v.videoId);
        expect(ids(await store.listFeedEntries('UC_a', 100))).to.deep.equal(expected);
        expect(expected, 'the rule is not vacuous').to.deep.equal(['ready-0', 'ready-1', 'no_transcript-0']);
      });

      it('lists exactly the kinds the shared rule (store/rules.ts isShownKind) shows, for every include', async function () {
        const kinds: (VideoKind | null)[] = ['regular', 'short', 'live', 'upcoming', null];
        const cases = kinds.map((videoKind, i) => video({ videoId: `kind-${videoKind ?? 'unrecorded'}`, videoKind, publishedAt: at(100 - i) }));
        await store.upsertVideos(cases);
        const includes: FeedKind[][] = [['regular'], ['regular', 'short'], ['regular', 'live'], ['regular', 'short', 'live']];
        for (const asked of includes) {
          const expected = cases.filter((v) => isShownKind(v.videoKind, asked)).map((v) => v.videoId);
          expect(ids(await store.listFeedEntries('UC_a', 100, asked)), asked.join(',')).to.deep.equal(expected);
        }
        expect(cases.filter((v) => isShownKind(v.videoKind, ['regular'])).map((v) => v.videoId), 'the rule is not vacuous').to.deep.equal(['kind-regular', 'kind-unrecorded']);
      });

      it('gives the newest fetchedAt among feed entries as the feed version', async function () {
        expect(await store.feedVersion('UC_a')).to.equal(null);
        await store.upsertVideos([video({ videoId: 'failed', state: 'failed', nextAttemptAt: at(MIN), fetchedAt: at(9000) })]);
        expect(await store.feedVersion('UC_a'), 'non-entries do not count').to.equal(null);
        await store.upsertVideos([
          video({ videoId: 'a', fetchedAt: at(2000), publishedAt: at(1) }),
          video({ videoId: 'b', fetchedAt: at(3000), publishedAt: at(0) }),
          video({ videoId: 'c', channelId: 'UC_b', fetchedAt: at(8000) }),
        ]);
        expect(await store.feedVersion('UC_a')).to.deep.equal(at(3000));
        await store.upsertVideos([video({ videoId: 'a', fetchedAt: at(4000), publishedAt: at(1) })]);
        expect(await store.feedVersion('UC_a')).to.deep.equal(at(4000));
      });

      it('says which videos still need work, in input order', async function () {
        await store.upsertVideos([
          video({ videoId: 'ready' }),
          video({ videoId: 'retry-due', state: 'failed', nextAttemptAt: at(MIN) }),
          video({ videoId: 'retry-later', state: 'no_transcript', nextAttemptAt: at(10 * MIN) }),
          video({ videoId: 'gave-up', state: 'no_transcript' }),
          video({ videoId: 'gone', state: 'unavailable' }),
        ]);
        const asked = ['new-2', 'gone', 'retry-later', 'ready', 'retry-due', 'gave-up', 'new-1'];
        expect(await store.videosNeedingWork(asked, at(MIN))).to.deep.equal(['new-2', 'retry-due', 'new-1']);
        expect(await store.videosNeedingWork([], at(MIN))).to.deep.equal([]);
      });
    });

    describe('refresh support', function () {
      const none = { language: null, kind: null };
      const due = (videoId: string, publishedMs: number, extra: Partial<VideoRecord> = {}): VideoRecord =>
        video({ videoId, ...none, state: 'failed', nextAttemptAt: at(MIN), publishedAt: at(publishedMs), ...extra });

      it('says which of the given ids are stored, in any state, in input order', async function () {
        await store.upsertVideos([
          video({ videoId: 'ready' }),
          due('failed', 0),
          video({ videoId: 'gone', ...none, state: 'unavailable', channelId: 'UC_b' }),
        ]);
        expect(await store.storedVideoIds(['new', 'gone', 'ready', 'other', 'failed'])).to.deep.equal(['gone', 'ready', 'failed']);
        expect(await store.storedVideoIds([])).to.deep.equal([]);
      });

      it('gives the due retries among the channel\'s newest `limit` videos, newest first', async function () {
        await store.upsertVideos([
          video({ videoId: 'r6', publishedAt: at(6000) }),
          due('f5', 5000),
          due('n4', 4000, { state: 'no_transcript', nextAttemptAt: at(MIN - 1) }),
          due('later3', 3000, { nextAttemptAt: at(MIN + 1) }),
          due('u2', 2000, { state: 'unavailable' }),
          video({ videoId: 'gave-up2', ...none, state: 'no_transcript', publishedAt: at(2000) }),
          due('old1', 1000),
          due('other-channel', 5500, { channelId: 'UC_b' }),
        ]);
        const asked = async (limit: number) => ids(await store.videosDueForRetry('UC_a', at(MIN), limit));
        expect(await asked(100)).to.deep.equal(['f5', 'n4', 'u2', 'old1']);
        // Window of 5: r6 f5 n4 later3 and the two at 2000 (ties at the edge are in).
        expect(await asked(5)).to.deep.equal(['f5', 'n4', 'u2']);
        expect(await asked(2)).to.deep.equal(['f5']);
        expect(await asked(0)).to.deep.equal([]);
        expect(await store.videosDueForRetry('UC_none', at(MIN), 10)).to.deep.equal([]);
        expect(await asked(1), 'the newest is ready').to.deep.equal([]);
        expect((await store.videosDueForRetry('UC_a', at(MIN), 3))[0], 'whole records').to.deep.equal(due('f5', 5000));
      });

      it('always gives due retries whose publish date is unknown, wherever the window ends', async function () {
        const unknown = new Date(UNKNOWN_PUBLISHED_MS);
        await store.upsertVideos([
          video({ videoId: 'r3', publishedAt: at(3000) }),
          video({ videoId: 'r2', publishedAt: at(2000) }),
          due('old1', 1000),
          due('undated-a', 0, { publishedAt: unknown, state: 'unavailable' }),
          due('undated-b', 0, { publishedAt: unknown, lastError: 'publish date unknown' }),
          due('undated-later', 0, { publishedAt: unknown, nextAttemptAt: at(2 * MIN) }),
        ]);
        expect(ids(await store.videosDueForRetry('UC_a', at(MIN), 2))).to.deep.equal(['undated-a', 'undated-b']);
        expect(ids(await store.videosDueForRetry('UC_a', at(MIN), 3))).to.deep.equal(['old1', 'undated-a', 'undated-b']);
        expect(ids(await store.listFeedEntries('UC_a', 10)), 'never shown').to.deep.equal(['r3', 'r2']);
      });
    });

    describe('push (WebSub)', function () {
      const sub = (channelId: string, overrides: Partial<WebSubRecord> = {}): WebSubRecord => ({
        channelId, topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId}`, token: `tok_${channelId}_0123456789`, secret: `secret_${channelId}_0123`,
        status: 'requested', requestedAt: at(0), verifiedAt: null, leaseSeconds: null, leaseExpiresAt: null, nextActionAt: at(15 * MIN),
        failures: 0, lastError: null, updatedAt: at(0), ...overrides,
      });

      it('keeps one subscription record per channel, found by token, by channel and when due', async function () {
        await store.putWebSub(sub('UC_a'));
        await store.putWebSub(sub('UC_b', { nextActionAt: at(5 * MIN) }));
        const verified = sub('UC_a', { status: 'verified', verifiedAt: at(MIN), leaseSeconds: 432000, leaseExpiresAt: at(MIN + 432000_000), nextActionAt: at(4 * 24 * 60 * MIN) });
        await store.putWebSub(verified);
        expect(await store.webSubByToken('tok_UC_a_0123456789')).to.deep.equal(verified);
        expect(await store.webSubByToken('tok_unknown')).to.equal(null);
        expect((await store.webSubStates(null, 10)).map((r) => r.channelId)).to.deep.equal(['UC_a', 'UC_b']);
        expect(await store.webSubStates(['UC_b', 'UC_none'], 10)).to.deep.equal([sub('UC_b', { nextActionAt: at(5 * MIN) })]);
        expect(await store.webSubStates([], 10)).to.deep.equal([]);
        expect((await store.webSubDue(at(10 * MIN), 10)).map((r) => r.channelId)).to.deep.equal(['UC_b']);
        expect(await store.webSubDue(at(MIN), 10)).to.deep.equal([]);
      });

      it('forgets a record only with its token; the last key letting a channel go makes its record due at once', async function () {
        await store.putWebSub(sub('UC_a'));
        expect(await store.deleteWebSub('UC_a', 'tok_other_0123456789')).to.equal(false);
        expect(await store.deleteWebSub('UC_a', 'tok_UC_a_0123456789')).to.equal(true);
        expect(await store.webSubStates(['UC_a'], 1)).to.deep.equal([]);

        const far = at(4 * 24 * 60 * MIN);
        await store.follow('key-one', [{ channelId: 'UC_b' }], 'import', 5, at(0));
        await store.follow('key-two', [{ channelId: 'UC_b' }], 'import', 5, at(0));
        await store.putWebSub(sub('UC_b', { status: 'verified', nextActionAt: far }));
        await store.unfollow('key-one', 'UC_b', at(0));
        expect((await store.webSubStates(['UC_b'], 1))[0]!.nextActionAt, 'another key still follows it').to.deep.equal(far);
        await store.unfollow('key-two', 'UC_b', at(0));
        expect((await store.webSubDue(at(0), 10)).map((r) => r.channelId)).to.deep.equal(['UC_b']);
      });

      it('keeps each pushed video once, due at the earliest ping; claims, retries and forgets it', async function () {
        await store.pushVideos([{ videoId: 'pushed00001', channelId: 'UC_a', title: 'One', publishedAt: at(0) }], at(MIN));
        await store.pushVideos([{ videoId: 'pushed00001', channelId: 'UC_a', title: 'One (edited)', publishedAt: null }], at(2 * MIN));
        expect(await store.claimPushedVideo('w1', MIN, at(0)), 'not due yet').to.equal(null);
        const claimed = await store.claimPushedVideo('w1', MIN, at(3 * MIN));
        expect(claimed).to.deep.equal({ videoId: 'pushed00001', channelId: 'UC_a', title: 'One (edited)', publishedAt: at(0), dueAt: at(MIN), attempts: 0 });
        expect(await store.claimPushedVideo('w2', MIN, at(3 * MIN)), 'leased').to.equal(null);
        await store.finishPushedVideo('pushed00001', 'w2', null); // not the owner: nothing happens
        await store.finishPushedVideo('pushed00001', 'w1', at(10 * MIN));
        expect(await store.claimPushedVideo('w2', MIN, at(9 * MIN))).to.equal(null);
        const again = await store.claimPushedVideo('w2', MIN, at(10 * MIN));
        expect(again).to.deep.include({ attempts: 1, dueAt: at(10 * MIN) });
        await store.finishPushedVideo('pushed00001', 'w2', null);
        expect(await store.claimPushedVideo('w3', MIN, at(60 * MIN))).to.equal(null);
      });

      it('takes deleted videos out of feeds and drops their pending pushes; brings a channel due now', async function () {
        await store.upsertVideos([video({ videoId: 'del00000001', publishedAt: at(0) }), video({ videoId: 'del00000002', publishedAt: at(MIN) })]);
        await store.pushVideos([{ videoId: 'del00000002', channelId: 'UC_a', title: 'x', publishedAt: null }], at(0));
        expect(await store.removeFromFeeds(['del00000002', 'unknown0001'], at(5 * MIN))).to.equal(1);
        expect(ids(await store.listFeedEntries('UC_a', 10))).to.deep.equal(['del00000001']);
        expect((await store.getVideos(['del00000002']))[0]).to.deep.include({ state: 'unavailable', nextAttemptAt: null });
        expect(await store.claimPushedVideo('w', MIN, at(10 * MIN))).to.equal(null);
        await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
        await store.claimDueChannel('w', MIN, at(0));
        await store.releaseChannel('UC_a', 'w', { nextDueAt: at(24 * 60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(0));
        await store.pollChannelNow('UC_a', at(10 * MIN));
        expect((await store.getChannel('UC_a'))!.dueAt).to.deep.equal(at(10 * MIN));
        await store.pollChannelNow('UC_a', at(20 * MIN));
        expect((await store.getChannel('UC_a'))!.dueAt, 'never later').to.deep.equal(at(10 * MIN));
      });
    });

    describe('upload rhythm', function () {
      it('gives the newest publish times of the channel, any state, unknown dates left out, at most `limit`', async function () {
        await store.upsertVideos([
          video({ videoId: 'r1', publishedAt: at(1 * MIN) }),
          video({ videoId: 'r2', publishedAt: at(3 * MIN), state: 'no_transcript' }),
          video({ videoId: 'r3', publishedAt: at(2 * MIN), state: 'failed' }),
          video({ videoId: 'r4', publishedAt: new Date(UNKNOWN_PUBLISHED_MS), state: 'unavailable' }),
          video({ videoId: 'r5', channelId: 'UC_b', publishedAt: at(9 * MIN) }),
        ]);
        expect(await store.recentPublishTimes('UC_a', 10)).to.deep.equal([at(3 * MIN), at(2 * MIN), at(1 * MIN)]);
        expect(await store.recentPublishTimes('UC_a', 2)).to.deep.equal([at(3 * MIN), at(2 * MIN)]);
        expect(await store.recentPublishTimes('UC_none', 10)).to.deep.equal([]);
      });
    });

    describe('transcripts per language and the languages readers asked for (#10)', function () {
      const tr = (videoId: string, language: string, kind: 'manual' | 'automatic' | 'translated', text: string, fetchedAt = at(100)) =>
        ({ videoId, language, kind, paragraphs: [{ startMs: 0, text }, { startMs: 61_500, text: `${text} 2 & <b> 😀` }], fetchedAt });

      it('stores transcripts with their videos, one per video and language, replacing on a later write', async function () {
        await store.upsertVideos([video({ videoId: 'v1' }), video({ videoId: 'v2' })], [tr('v1', 'en', 'manual', 'one'), tr('v1', 'tr', 'translated', 'bir'), tr('v2', 'de', 'automatic', 'eins')]);
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'tr', 'translated', 'bir yeni', at(200))]);
        expect(await store.getTranscripts(['v1', 'nope'])).to.deep.equal([tr('v1', 'en', 'manual', 'one'), tr('v1', 'tr', 'translated', 'bir yeni', at(200))]);
        expect((await store.getTranscripts(['v2', 'v1'])).map((t) => `${t.videoId}/${t.language}`)).to.deep.equal(['v1/en', 'v1/tr', 'v2/de']);
        expect(await store.getTranscripts([])).to.deep.equal([]);
        await store.upsertVideos([], []);
      });

      it('keeps the mark of paragraphs whose times are unknown, and clears it when they are fetched again', async function () {
        await store.upsertVideos([video({ videoId: 'v1' })], [{ ...tr('v1', 'en', 'manual', 'old'), untimed: true }]);
        expect(await store.getTranscripts(['v1'])).to.deep.equal([{ ...tr('v1', 'en', 'manual', 'old'), untimed: true }]);
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'en', 'manual', 'new')]);
        expect(await store.getTranscripts(['v1'])).to.deep.equal([tr('v1', 'en', 'manual', 'new')]);
      });

      it('a batch without transcripts leaves the stored ones alone', async function () {
        await store.upsertVideos([video({ videoId: 'v1' })], [tr('v1', 'en', 'manual', 'one')]);
        await store.upsertVideos([video({ videoId: 'v1', attempts: 2 })]);
        expect(await store.getTranscripts(['v1'])).to.have.length(1);
      });

      it('remembers the languages asked for per channel, most recent first', async function () {
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal([]);
        await store.askLanguages('UC_a', ['tr', 'en'], at(1000));
        await store.askLanguages('UC_b', ['ja'], at(1000));
        await store.askLanguages('UC_a', ['de'], at(2000));
        await store.askLanguages('UC_a', ['tr'], at(3000));
        await store.askLanguages('UC_a', ['en'], at(500));
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal(['tr', 'de', 'en']);
        expect(await store.wantedLanguages('UC_a', 2, at(MIN))).to.deep.equal(['tr', 'de']);
        expect(await store.wantedLanguages('UC_a', 0, at(MIN))).to.deep.equal([]);
        await store.askLanguages('UC_a', [], at(4000));
      });

      it('says which asked languages still need the stored videos fetched, until marked covered', async function () {
        await store.askLanguages('UC_a', ['tr', 'de', 'en'], at(1000));
        await store.askLanguages('UC_a', ['ja'], at(2000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['ja', 'de', 'en', 'tr']);
        expect(await store.languagesToBackfill('UC_a', 2, at(MIN)), 'only among the most recent').to.deep.equal(['ja', 'de']);
        await store.markLanguagesCovered('UC_a', ['de', 'ja'], at(3000));
        await store.markLanguagesCovered('UC_b', ['en'], at(3000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['en', 'tr']);
        // Asked again: still covered (new videos get it when fetched).
        await store.askLanguages('UC_a', ['de'], at(4000));
        expect(await store.languagesToBackfill('UC_a', 5, at(MIN))).to.deep.equal(['en', 'tr']);
        expect(await store.wantedLanguages('UC_a', 5, at(MIN))).to.deep.equal(['de', 'ja', 'en', 'tr']);
        await store.markLanguagesCovered('UC_a', [], at(5000));
        expect(await store.languagesToBackfill('UC_a', 0, at(MIN))).to.deep.equal([]);
      });

      it('keeps each key\'s own languages first, round by round over keys: another key\'s codes never push out a reader\'s', async function () {
        await store.askLanguages('UC_a', ['tr'], at(1000), 'key-reader');
        await store.askLanguages('UC_a', ['xaa', 'xab', 'xac', 'xad'], at(2000), 'key-other');
        expect(await store.wantedLanguages('UC_a', 8, at(MIN))).to.deep.equal(['xaa', 'tr', 'xab', 'xac', 'xad']);
        expect(await store.wantedLanguages('UC_a', 2, at(MIN)), 'every key\'s first before anyone\'s second').to.deep.equal(['xaa', 'tr']);
        // A key keeps its newest five: its oldest-asked go first.
        await store.askLanguages('UC_a', ['xae', 'xaf'], at(3000), 'key-other');
        expect(await store.wantedLanguages('UC_a', 8, at(MIN))).to.deep.equal(['xae', 'tr', 'xaf', 'xaa', 'xab', 'xac']);
        // Asked within 30 days: kept; beyond, gone.
        const day = 24 * 60 * MIN;
        await store.askLanguages('UC_a', ['ja'], at(10 * day), 'key-late');
        expect(await store.wantedLanguages('UC_a', 8, at(31 * day))).to.deep.equal(['ja']);
        expect(await store.wantedLanguages('UC_a', 8, at(41 * day))).to.deep.equal([]);
      });

      it('a language kept again after it was not is backfilled; a new language makes the channel awaited by its key', async function () {
        await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
        expect((await store.claimAskedChannel('w', MIN, at(0)))?.channelId).to.equal('UC_a');
        await store.releaseChannel('UC_a', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(1000));
        await store.askLanguages('UC_a', ['tr'], at(2000), 'key-reader');
        expect(await store.getChannel('UC_a')).to.deep.include({ dueAt: at(2000), awaitedAt: at(2000), awaitedBy: 'key-reader' });
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal(['tr']);
        expect((await store.claimAskedChannel('w', MIN, at(3000)))?.channelId).to.equal('UC_a');
        await store.markLanguagesCovered('UC_a', ['tr'], at(4000));
        await store.releaseChannel('UC_a', 'w', { nextDueAt: at(60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(4000));
        // Asked again: nothing new, nothing awaited.
        await store.askLanguages('UC_a', ['tr'], at(5000), 'key-reader');
        expect(await store.getChannel('UC_a')).to.deep.include({ dueAt: at(60 * MIN), awaitedAt: null });
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal([]);
        // A run that kept other languages only: Turkish is no longer on the videos it stored.
        await store.markLanguagesCovered('UC_a', ['de'], at(6000));
        expect(await store.languagesToBackfill('UC_a', 8, at(MIN))).to.deep.equal(['tr']);
        // A channel backing off keeps its schedule whatever a reader asks.
        await store.registerChannel({ channelId: 'UC_gone', wanted: 5 }, at(0));
        await store.claimAskedChannel('w', MIN, at(0));
        await store.releaseChannel('UC_gone', 'w', { nextDueAt: at(24 * 60 * MIN), outcome: 'not_found', consecutiveFailures: 1 }, at(1000));
        await store.askLanguages('UC_gone', ['ja'], at(2000), 'key-reader');
        expect(await store.getChannel('UC_gone')).to.deep.include({ dueAt: at(24 * 60 * MIN), awaitedAt: null });
      });
    });

    describe('searchVideos', function () {
      searchCases(() => store);
    });

    describe('handles', function () {
      it('caches handles case-insensitively and overwrites', async function () {
        expect(await store.getHandle('someone')).to.equal(null);
        await store.putHandle('SomeOne', 'UC_1', at(0));
        expect(await store.getHandle('someone')).to.equal('UC_1');
        expect(await store.getHandle('@SOMEONE')).to.equal('UC_1');
        await store.putHandle('someone', 'UC_2', at(1));
        expect(await store.getHandle('someone')).to.equal('UC_2');
      });
    });

    describe('unknown handles', function () {
      it('remembers a handle the platform does not know, for UNKNOWN_HANDLE_TTL_MS, case-insensitively', async function () {
        expect(await store.isUnknownHandle('ghost', at(0))).to.equal(false);
        await store.putUnknownHandle('@Ghost', at(0));
        expect(await store.isUnknownHandle('ghost', at(0))).to.equal(true);
        expect(await store.isUnknownHandle('GHOST', at(UNKNOWN_HANDLE_TTL_MS - 1))).to.equal(true);
        expect(await store.isUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS)), 'asked again after the TTL').to.equal(false);
        expect(await store.getHandle('ghost'), 'never a positive answer').to.equal(null);
        await store.putUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS));
        expect(await store.isUnknownHandle('ghost', at(UNKNOWN_HANDLE_TTL_MS + 1)), 'a new answer starts a new TTL').to.equal(true);
        expect(await store.isUnknownHandle('other', at(0))).to.equal(false);
      });
    });

    describe('rate limits', function () {
      it('counts exactly within a minute and resets in the next', async function () {
        const seen = [];
        for (let i = 0; i < 4; i++) seen.push(await store.hitRateLimit('key-a', 3, at(i * 1000)));
        expect(seen.map((r) => [r.allowed, r.remaining, r.count])).to.deep.equal([
          [true, 2, 1], [true, 1, 2], [true, 0, 3], [false, 0, 4],
        ]);
        expect(seen[0]!.resetAt).to.deep.equal(at(MIN));
        const other = await store.hitRateLimit('key-b', 3, at(59_999));
        expect(other).to.deep.include({ allowed: true, remaining: 2, count: 1 });
        const next = await store.hitRateLimit('key-a', 3, at(MIN));
        expect(next).to.deep.equal({ allowed: true, remaining: 2, count: 1, resetAt: at(2 * MIN) });
      });

      it('adds n hits at once exactly as n single hits would, mixed with single hits', async function () {
        const singles = [];
        for (let i = 0; i < 7; i++) singles.push(await store.hitRateLimit('key-single', 5, at(i * 1000)));
        // The same seven hits to another key as 3, 1, 3: each answer is that of the batch's last hit.
        const three = await store.hitRateLimit('key-many', 5, at(0), 3);
        const one = await store.hitRateLimit('key-many', 5, at(1000));
        const threeMore = await store.hitRateLimit('key-many', 5, at(2000), 3);
        expect(three).to.deep.equal(singles[2]);
        expect(one).to.deep.equal(singles[3]);
        expect(threeMore).to.deep.equal(singles[6]);
        expect(summaryOf(threeMore)).to.deep.equal([false, 0, 7]);
        expect(await store.hitRateLimit('key-many', 5, at(MIN), 2)).to.deep.equal({ allowed: true, remaining: 3, count: 2, resetAt: at(2 * MIN) });
      });

      it('refuses a hit count that is not a positive integer', async function () {
        for (const hits of [0, -1, 1.5, Number.NaN]) {
          let caught: unknown;
          await store.hitRateLimit('key-bad', 5, at(0), hits).catch((err: unknown) => (caught = err));
          expect(caught, String(hits)).to.be.instanceOf(RangeError);
        }
        expect((await store.hitRateLimit('key-bad', 5, at(0))).count, 'nothing counted').to.equal(1);
      });
    });

    describe('platform pacing shared by every process', function () {
      it('sums the requests of the sliding hour, per source and in all', async function () {
        await store.addPlatformRequests('crawler', 5, at(0));
        await store.addPlatformRequests('crawler', 2, at(30 * MIN));
        await store.addPlatformRequests('api', 1, at(30 * MIN + 1000));
        await store.addPlatformRequests('api', 0, at(30 * MIN));
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000))).to.equal(8);
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000), 'api')).to.equal(1);
        expect(await store.platformRequestsInHour(at(30 * MIN + 2000), 'crawler')).to.equal(7);
        // An hour after the first five, only the later three are in the window.
        expect(await store.platformRequestsInHour(at(60 * MIN))).to.equal(3);
        expect(await store.platformRequestsInHour(at(100 * MIN))).to.equal(0);
      });

      it('refuses a count that is not a whole number', async function () {
        let caught: unknown;
        await store.addPlatformRequests('api', -1, at(0)).catch((err: unknown) => (caught = err));
        expect(caught).to.be.instanceOf(RangeError);
      });

      it('keeps the latest cool-down end, and none once it is over', async function () {
        expect(await store.platformCoolDown(at(0))).to.equal(null);
        await store.setPlatformCoolDown(at(30 * MIN), 'try again later', at(0));
        await store.setPlatformCoolDown(at(10 * MIN), 'earlier end', at(1000));
        expect(await store.platformCoolDown(at(MIN))).to.deep.equal({ until: at(30 * MIN), reason: 'try again later' });
        await store.setPlatformCoolDown(at(40 * MIN), 'later end', at(2000));
        expect(await store.platformCoolDown(at(MIN))).to.deep.equal({ until: at(40 * MIN), reason: 'later end' });
        expect(await store.platformCoolDown(at(40 * MIN))).to.equal(null);
      });
    });

    subscriptionCases(() => store);
    platformCheckCases(() => store);
    operatorContract(() => store);

    describe('availability', function () {
      it('answers ping while open', async function () {
        await store.ping();
      });

      it('gives StoreUnavailableError after close, and closing twice is harmless', async function () {
        await store.close();
        await store.close();
        await expectUnavailable(store.ping());
        await expectUnavailable(store.getChannel('UC_a'));
        await expectUnavailable(store.claimDueChannel('w1', MIN, at(0)));
        await expectUnavailable(store.upsertVideos([video({ videoId: 'v1' })]));
        await expectUnavailable(store.hitRateLimit('key', 3, at(0)));
      });
    });
  });
}
