// The store contract's subscription cases (a key's followed channels, the combined feed, and which
// channels stay refreshed), run by contract.ts inside each backend's suite.

import { expect } from 'chai';
import { KEEP_REFRESHING_MS } from '../../shared/store/rules';
import type { Store, VideoRecord } from '../../shared/store/types';
import { releaseImports } from '../../shared/store/import-queue';
import { videoRecord } from '../support/factories';
import { refreshAll } from '../support/refresh';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number): Date => new Date(T0 + ms);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

const video = (videoId: string, channelId: string, hoursAgo: number, over: Partial<VideoRecord> = {}): VideoRecord =>
  videoRecord({ videoId, channelId, publishedAt: at(-hoursAgo * 60 * MIN), fetchedAt: at(-hoursAgo * MIN), ...over });

export function subscriptionCases(current: () => Store): void {
  describe('subscriptions', function () {
    let store: Store;
    beforeEach(function () {
      store = current();
    });

    it('follows channel ids in one call: new work items due now, followed; repeats answer false', async function () {
      const added = await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'A from file' }, { channelId: 'UC_b' }, { channelId: 'UC_a' }], 'import', 10, at(0));
      expect(added).to.deep.equal([true, true, false]);
      const a = await store.getChannel('UC_a');
      expect(a).to.deep.include({ wanted: 10, dueAt: at(0), followed: true, askedAt: at(0), title: null });
      expect(await store.follow(KEY_A, [{ channelId: 'UC_b' }, { channelId: 'UC_c' }], 'feed', 10, at(MIN))).to.deep.equal([false, true]);
      expect(await store.follow(KEY_A, [], 'import', 10, at(MIN))).to.deep.equal([]);
    });

    it('with queueNew, an unknown channel waits in the key’s import queue (no work item), a known one is followed at once', async function () {
      await store.registerChannel({ channelId: 'UC_known', wanted: 10 }, at(0));
      const added = await store.follow(KEY_A, [{ channelId: 'UC_new1' }, { channelId: 'UC_known' }, { channelId: 'PL_new', kind: 'playlist' }, { channelId: 'UC_new2' }, { handle: 'later' }], 'import', 10, at(MIN), { queueNew: true });
      expect(added).to.deep.equal([true, true, true, true, true]);
      expect(await store.getChannel('UC_new1')).to.equal(null);
      expect(await store.getChannel('UC_known')).to.deep.include({ followed: true, askedAt: at(MIN) });
      expect(await store.queuedImports(KEY_A, 10)).to.deep.equal([{ channelId: 'PL_new', kind: 'playlist' }, { channelId: 'UC_new1', kind: 'channel' }, { channelId: 'UC_new2', kind: 'channel' }]);
      expect(await store.queuedImports(KEY_A, 2)).to.have.length(2);
      expect(await store.queuedImports(KEY_B, 10)).to.deep.equal([]);
      expect((await store.listSubscriptions(KEY_A)).map((s) => [s.channelId ?? s.handle, s.kind])).to.have.deep.members([
        ['UC_new1', 'channel'], ['UC_known', 'channel'], ['PL_new', 'playlist'], ['UC_new2', 'channel'], ['later', 'channel'],
      ]);
      expect(await store.importQueues()).to.deep.equal([{ keyId: KEY_A, queued: 3, handles: 1 }]);
      expect(await store.importQueues(KEY_B)).to.deep.equal([{ keyId: KEY_B, queued: 0, handles: 0 }]);

      // Leaving the queue: the work item (registered under the key first) is marked followed.
      await store.registerChannel({ channelId: 'UC_new1', wanted: 10, keyId: KEY_A }, at(2 * MIN));
      await store.dequeueImports(KEY_A, ['UC_new1'], at(2 * MIN));
      expect(await store.getChannel('UC_new1')).to.deep.include({ followed: true, awaitedBy: KEY_A });
      expect((await store.queuedImports(KEY_A, 10)).map((q) => q.channelId)).to.deep.equal(['PL_new', 'UC_new2']);
      expect(await store.importQueues(KEY_A)).to.deep.equal([{ keyId: KEY_A, queued: 2, handles: 1 }]);
      // Unfollowing a queued import takes it off the queue.
      expect(await store.unfollow(KEY_A, 'UC_new2', at(3 * MIN))).to.equal(true);
      expect((await store.queuedImports(KEY_A, 10)).map((q) => q.channelId)).to.deep.equal(['PL_new']);
    });

    it('releases a key’s queued imports within its hourly allowance, oldest first; a channel made known meanwhile leaves for free', async function () {
      const ids = Array.from({ length: 8 }, (_, i) => `UC_q${i}`);
      await store.follow(KEY_A, ids.map((channelId) => ({ channelId })), 'import', 10, at(0), { queueNew: true });
      await store.follow(KEY_B, [{ channelId: 'UC_b0' }], 'import', 10, at(0), { queueNew: true });
      // One key's new channel through a feed request counts into the same hour.
      await store.registerChannel({ channelId: 'UC_feed', wanted: 10, keyId: KEY_A }, at(0));
      // Another key makes UC_q5 known: it costs KEY_A nothing.
      await store.registerChannel({ channelId: 'UC_q5', wanted: 10, keyId: KEY_B }, at(0));
      expect(await releaseImports(store, { perKeyHour: 4, wanted: 10 }, at(MIN), KEY_A)).to.equal(3);
      for (const id of ['UC_q0', 'UC_q1', 'UC_q2']) expect(await store.getChannel(id), id).to.deep.include({ followed: true, awaitedBy: KEY_A, dueAt: at(MIN) });
      expect(await store.getChannel('UC_q3')).to.equal(null);
      expect((await store.newChannelsOfKey(KEY_A, at(0))).count).to.equal(4);
      expect(await store.importQueues()).to.deep.equal([{ keyId: KEY_A, queued: 5, handles: 0 }, { keyId: KEY_B, queued: 1, handles: 0 }]);
      // The hour moves on: room again; every key with a queue is served (UC_q5 costing nothing).
      expect(await releaseImports(store, { perKeyHour: 3, wanted: 10 }, at(62 * MIN))).to.equal(5);
      expect((await store.queuedImports(KEY_A, 10)).map((q) => q.channelId)).to.deep.equal(['UC_q7']);
      expect((await store.getChannel('UC_q5'))?.followed).to.equal(true);
      expect(await store.getChannel('UC_b0')).to.deep.include({ followed: true, awaitedBy: KEY_B });
      // Claimed round-robin by key, A and B taking turns, whatever KEY_A has queued behind.
      const claimed: string[] = [];
      for (let c = await store.claimAskedChannel('w', MIN, at(63 * MIN)); c !== null && claimed.length < 4; c = await store.claimAskedChannel('w', MIN, at(63 * MIN))) claimed.push(c.channelId);
      expect(claimed).to.deep.equal(['UC_feed', 'UC_q5', 'UC_q0', 'UC_b0']);
    });

    it('with queueNew, a resolved handle’s unknown channel waits in each following key’s queue; asks count into the asking key’s hourly share', async function () {
      await store.follow(KEY_A, [{ handle: 'h1' }, { handle: 'h2' }, { handle: 'h3' }], 'import', 10, at(0));
      await store.follow(KEY_B, [{ handle: 'h1' }, { handle: 'hb' }], 'import', 10, at(0));
      expect(await store.subscribedHandlesToResolve(at(0), 10, 2, at(0))).to.deep.equal([
        { keyId: KEY_A, handle: 'h1' }, { keyId: KEY_B, handle: 'h1' }, { keyId: KEY_A, handle: 'h2' }, { keyId: KEY_B, handle: 'hb' },
      ]);
      await store.resolveSubscribedHandle('h1', 'UC_h1', 10, at(MIN), { askedBy: KEY_A, queueNew: true });
      expect(await store.getChannel('UC_h1')).to.equal(null);
      expect(await store.queuedImports(KEY_A, 10)).to.deep.equal([{ channelId: 'UC_h1', kind: 'channel' }]);
      expect(await store.queuedImports(KEY_B, 10)).to.deep.equal([{ channelId: 'UC_h1', kind: 'channel' }]);
      await store.resolveSubscribedHandle('h2', null, 10, at(2 * MIN), { askedBy: KEY_A, queueNew: true });
      // KEY_A asked twice this hour: its share of 2 is spent; KEY_B, asked least recently, goes first.
      expect(await store.subscribedHandlesToResolve(at(0), 10, 2, at(3 * MIN))).to.deep.equal([{ keyId: KEY_B, handle: 'hb' }]);
      // An hour on, KEY_A has room for one more (its ask at 2 min is still in the hour); KEY_B, never asked, first.
      expect(await store.subscribedHandlesToResolve(at(0), 10, 2, at(62 * MIN))).to.deep.equal([{ keyId: KEY_B, handle: 'hb' }, { keyId: KEY_A, handle: 'h3' }]);
      // A known channel is followed at once, as without queueNew.
      await store.registerChannel({ channelId: 'UC_hb', wanted: 10 }, at(0));
      await store.resolveSubscribedHandle('hb', 'UC_hb', 10, at(63 * MIN), { askedBy: KEY_B, queueNew: true });
      expect((await store.getChannel('UC_hb'))?.followed).to.equal(true);
      expect(await store.queuedImports(KEY_B, 10)).to.deep.equal([{ channelId: 'UC_h1', kind: 'channel' }]);
    });

    it('keeps a known channel’s schedule and wanted, and marks it followed and asked for', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 40 }, at(0));
      await store.claimDueChannel('w1', MIN, at(0));
      await store.releaseChannel('UC_a', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0, title: 'Crawled A' }, at(MIN));
      await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'Imported A' }], 'import', 10, at(2 * MIN));
      expect(await store.getChannel('UC_a')).to.deep.include({ wanted: 40, dueAt: at(30 * MIN), followed: true, askedAt: at(2 * MIN), title: 'Crawled A' });
    });

    it('lists a key’s subscriptions oldest first, each key only its own, with the crawler’s title over the file’s', async function () {
      await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'A from file' }, { channelId: 'UC_b', title: 'B from file' }], 'import', 10, at(0));
      await store.follow(KEY_A, [{ channelId: 'UC_c' }], 'feed', 10, at(MIN));
      await store.follow(KEY_B, [{ channelId: 'UC_z' }], 'feed', 10, at(0));
      await store.claimDueChannel('w1', MIN, at(2 * MIN));
      await store.releaseChannel('UC_a', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0, title: 'Channel A' }, at(2 * MIN));
      expect(await store.listSubscriptions(KEY_A)).to.deep.equal([
        { channelId: 'UC_a', kind: 'channel', handle: null, title: 'Channel A', source: 'import', since: at(0) },
        { channelId: 'UC_b', kind: 'channel', handle: null, title: 'B from file', source: 'import', since: at(0) },
        { channelId: 'UC_c', kind: 'channel', handle: null, title: null, source: 'feed', since: at(MIN) },
      ]);
      expect((await store.listSubscriptions(KEY_B)).map((s) => s.channelId)).to.deep.equal(['UC_z']);
      expect(await store.listSubscriptions('c'.repeat(64))).to.deep.equal([]);
    });

    it('follows a cached handle as its channel id; an unknown one waits for the crawler, which resolves it for every key', async function () {
      await store.putHandle('known', 'UC_known', at(0));
      const added = await store.follow(KEY_A, [{ handle: '@Known' }, { handle: '@NewOne', title: 'New one' }, { handle: 'newone' }], 'import', 10, at(0));
      expect(added).to.deep.equal([true, true, false]);
      await store.follow(KEY_B, [{ handle: 'newone' }, { handle: 'ghost' }], 'import', 10, at(MIN));
      expect((await store.getChannel('UC_known'))?.followed).to.equal(true);
      expect((await store.listSubscriptions(KEY_A)).map((s) => [s.channelId, s.handle])).to.have.deep.members([['UC_known', null], [null, 'newone']]);

      // Round-robin by key: each key's oldest first, one per key and turn.
      expect(await store.subscribedHandlesToResolve(at(MIN), 10, 10, at(MIN))).to.deep.equal([
        { keyId: KEY_A, handle: 'newone' }, { keyId: KEY_B, handle: 'ghost' }, { keyId: KEY_B, handle: 'newone' },
      ]);
      expect(await store.subscribedHandlesToResolve(at(MIN), 1, 10, at(MIN))).to.have.length(1);

      await store.resolveSubscribedHandle('NewOne', 'UC_new', 10, at(2 * MIN));
      expect(await store.getHandle('newone')).to.equal('UC_new');
      expect(await store.getChannel('UC_new')).to.deep.include({ followed: true, handle: 'newone', dueAt: at(2 * MIN) });
      expect(await store.listSubscriptions(KEY_A)).to.deep.equal([
        { channelId: 'UC_known', kind: 'channel', handle: null, title: null, source: 'import', since: at(0) },
        { channelId: 'UC_new', kind: 'channel', handle: null, title: 'New one', source: 'import', since: at(0) },
      ]);
      expect((await store.listSubscriptions(KEY_B)).map((s) => s.channelId ?? s.handle)).to.have.members(['UC_new', 'ghost']);

      await store.resolveSubscribedHandle('ghost', null, 10, at(3 * MIN));
      expect(await store.subscribedHandlesToResolve(at(3 * MIN), 10, 10, at(3 * MIN)), 'tried at 3 min: not again before the retry time').to.deep.equal([]);
      expect(await store.subscribedHandlesToResolve(at(3 * MIN + 1), 10, 10, at(3 * MIN))).to.deep.equal([{ keyId: KEY_B, handle: 'ghost' }]);
      expect((await store.listSubscriptions(KEY_B)).map((s) => s.handle), 'an unknown handle stays listed').to.include('ghost');
    });

    it('unfollows one channel (or handle) of one key; the channel stays followed while another key follows it', async function () {
      await store.follow(KEY_A, [{ channelId: 'UC_a' }, { channelId: 'UC_b' }, { handle: 'pending' }], 'import', 10, at(0));
      await store.follow(KEY_B, [{ channelId: 'UC_a' }], 'import', 10, at(0));
      expect(await store.unfollow(KEY_A, 'UC_a', at(MIN))).to.equal(true);
      expect(await store.unfollow(KEY_A, 'UC_a', at(MIN))).to.equal(false);
      expect((await store.getChannel('UC_a'))?.followed, 'key B still follows').to.equal(true);
      expect(await store.unfollow(KEY_A, 'UC_b', at(MIN))).to.equal(true);
      expect((await store.getChannel('UC_b'))?.followed).to.equal(false);
      expect(await store.unfollow(KEY_A, '@Pending', at(MIN))).to.equal(true);
      expect(await store.listSubscriptions(KEY_A)).to.deep.equal([]);
      expect(await store.unfollow(KEY_B, 'UC_a', at(MIN))).to.equal(true);
      expect((await store.getChannel('UC_a'))?.followed).to.equal(false);
      expect((await store.getChannel('UC_a'))?.wanted, 'the channel itself stays').to.equal(10);
    });

    it('pages through the channels any key follows, by channel id', async function () {
      await store.follow(KEY_A, [{ channelId: 'UC_c' }, { channelId: 'UC_a' }], 'import', 10, at(0));
      await store.follow(KEY_B, [{ channelId: 'UC_b' }, { channelId: 'UC_a' }], 'import', 10, at(0));
      await store.registerChannel({ channelId: 'UC_not_followed', wanted: 10 }, at(0));
      const first = await store.followedChannels(null, 2);
      expect(first.map((c) => c.channelId)).to.deep.equal(['UC_a', 'UC_b']);
      expect((await store.followedChannels('UC_b', 2)).map((c) => c.channelId)).to.deep.equal(['UC_c']);
      expect(await store.followedChannels('UC_c', 2)).to.deep.equal([]);
      expect(await store.followedChannels(null, 0)).to.deep.equal([]);
    });

    it('lists the combined feed newest first across the key’s channels only, with each channel’s name', async function () {
      await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'A from file' }, { channelId: 'UC_b' }, { handle: 'unresolved' }], 'import', 10, at(0));
      await store.follow(KEY_B, [{ channelId: 'UC_x' }], 'import', 10, at(0));
      await store.claimDueChannel('w1', MIN, at(0));
      await store.claimDueChannel('w1', MIN, at(0));
      await store.releaseChannel('UC_b', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0, title: 'Channel B' }, at(0));
      await store.upsertVideos([
        video('a_new', 'UC_a', 1),
        video('b_mid', 'UC_b', 2),
        video('x_newest', 'UC_x', 0),
        video('a_old', 'UC_a', 5),
        video('b_short', 'UC_b', 3, { videoKind: 'short' }),
        video('b_failed', 'UC_b', 1.5, { state: 'failed', language: null, kind: null, nextAttemptAt: at(MIN) }),
        video('b_given_up', 'UC_b', 4, { state: 'no_transcript', language: null, kind: null, nextAttemptAt: null }),
        video('a_legacy', 'UC_a', 6, { videoKind: null }),
      ]);
      const feed = await store.subscriptionFeed(KEY_A, 10);
      expect(feed.map((e) => e.videoId)).to.deep.equal(['a_new', 'b_mid', 'b_given_up', 'a_old', 'a_legacy']);
      expect(feed[0]).to.deep.equal({ videoId: 'a_new', channelId: 'UC_a', publishedAt: at(-60 * MIN), fetchedAt: at(-MIN), channelTitle: 'A from file' });
      expect(feed[1]!.channelTitle).to.equal('Channel B');
      expect((await store.subscriptionFeed(KEY_A, 2)).map((e) => e.videoId)).to.deep.equal(['a_new', 'b_mid']);
      expect((await store.subscriptionFeed(KEY_A, 10, ['short'])).map((e) => e.videoId)).to.deep.equal(['b_short']);
      expect((await store.subscriptionFeed(KEY_B, 10)).map((e) => e.videoId)).to.deep.equal(['x_newest']);
      expect(await store.subscriptionFeed('c'.repeat(64), 10)).to.deep.equal([]);
      expect(await store.subscriptionFeed(KEY_A, 0)).to.deep.equal([]);
    });

    it('has a combined-feed version token that moves with a stored feed entry, a follow and an unfollow', async function () {
      const t0 = await store.subscriptionFeedVersion(KEY_A);
      expect(await store.subscriptionFeedVersion(KEY_A), 'stable while nothing changes').to.equal(t0);
      await store.follow(KEY_A, [{ channelId: 'UC_a' }], 'import', 10, at(0));
      const t1 = await store.subscriptionFeedVersion(KEY_A);
      expect(t1).to.not.equal(t0);
      await store.upsertVideos([video('a1', 'UC_a', 1, { fetchedAt: at(MIN) })]);
      const t2 = await store.subscriptionFeedVersion(KEY_A);
      expect(t2).to.not.equal(t1);
      await store.upsertVideos([video('a2', 'UC_a', 2, { state: 'failed', language: null, kind: null, nextAttemptAt: at(DAY), fetchedAt: at(2 * MIN) })]);
      expect(await store.subscriptionFeedVersion(KEY_A), 'a video not in any feed changes nothing').to.equal(t2);
      await store.follow(KEY_A, [{ channelId: 'UC_b' }], 'import', 10, at(0));
      const t3 = await store.subscriptionFeedVersion(KEY_A);
      expect(t3).to.not.equal(t2);
      await store.unfollow(KEY_A, 'UC_b', at(0));
      expect(await store.subscriptionFeedVersion(KEY_A)).to.not.equal(t3);
    });

    it('follows a playlist like a channel: a work item of kind playlist, listed with its title, unfollowed by its id', async function () {
      await store.registerChannel({ channelId: 'PL_known', kind: 'playlist', wanted: 15 }, at(0));
      const added = await store.follow(KEY_A, [{ channelId: 'PL_course', kind: 'playlist', title: 'Course from file' }, { channelId: 'PL_known', kind: 'playlist' }, { channelId: 'UC_a' }], 'import', 10, at(0));
      expect(added).to.deep.equal([true, true, true]);
      expect(await store.getChannel('PL_course')).to.deep.include({ kind: 'playlist', followed: true, wanted: 10, dueAt: at(0) });
      expect(await store.getChannel('PL_known')).to.deep.include({ kind: 'playlist', followed: true, wanted: 15 });
      // A feed request names no kind: the work item keeps the one it has.
      await store.follow(KEY_B, [{ channelId: 'PL_course' }], 'feed', 10, at(MIN));
      expect((await store.getChannel('PL_course'))?.kind).to.equal('playlist');
      await store.claimDueChannel('w1', MIN, at(MIN));
      await store.releaseChannel('PL_course', 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0, title: 'The Course' }, at(MIN));
      expect(await store.listSubscriptions(KEY_A)).to.deep.equal([
        { channelId: 'PL_course', kind: 'playlist', handle: null, title: 'The Course', source: 'import', since: at(0) },
        { channelId: 'PL_known', kind: 'playlist', handle: null, title: null, source: 'import', since: at(0) },
        { channelId: 'UC_a', kind: 'channel', handle: null, title: null, source: 'import', since: at(0) },
      ]);
      expect((await store.followedChannels(null, 10)).map((c) => c.channelId), 'playlists are not pushed channels').to.deep.equal(['UC_a']);
      expect(await store.unfollow(KEY_A, 'PL_course', at(2 * MIN))).to.equal(true);
      expect((await store.getChannel('PL_course'))?.followed, 'key B still follows').to.equal(true);
      expect(await store.unfollow(KEY_B, 'PL_course', at(2 * MIN))).to.equal(true);
      expect((await store.getChannel('PL_course'))?.followed).to.equal(false);
      expect((await store.listSubscriptions(KEY_A)).map((s) => s.channelId)).to.deep.equal(['PL_known', 'UC_a']);
    });

    it('the combined feed holds the videos the key’s followed playlists list, newest first, each once, with their channel’s name', async function () {
      await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'A from file' }, { channelId: 'PL_course', kind: 'playlist' }, { channelId: 'PL_gone', kind: 'playlist' }], 'import', 10, at(0));
      await store.follow(KEY_B, [{ channelId: 'PL_other', kind: 'playlist' }], 'import', 10, at(0));
      await store.registerChannel({ channelId: 'UC_p', wanted: 10, title: 'Teacher' }, at(0));
      const listing = { title: 'Course', owner: 'Teacher', ownerChannelId: 'UC_p', state: 'listed' as const };
      // Playlist order is not feed order; a_shared is both in UC_a's uploads and in the playlist.
      await store.putPlaylist({ ...listing, playlistId: 'PL_course', videoIds: ['p_old', 'p_new', 'a_shared', 'p_short', 'p_unstored', 'p_failed'] }, at(0));
      await store.putPlaylist({ ...listing, playlistId: 'PL_other', videoIds: ['q_only'] }, at(0));
      await store.putPlaylist({ ...listing, playlistId: 'PL_gone', state: 'deleted', videoIds: ['q_only'] }, at(0));
      await store.upsertVideos([
        video('a_new', 'UC_a', 1),
        video('p_new', 'UC_p', 0.5),
        video('a_shared', 'UC_a', 2),
        video('p_old', 'UC_p', 9),
        video('p_short', 'UC_p', 3, { videoKind: 'short' }),
        video('p_failed', 'UC_p', 0.2, { state: 'failed', nextAttemptAt: at(MIN) }),
        video('p_not_listed', 'UC_p', 0.1),
        video('q_only', 'UC_q', 0.3),
      ]);
      const feed = await store.subscriptionFeed(KEY_A, 10);
      expect(feed.map((e) => e.videoId)).to.deep.equal(['p_new', 'a_new', 'a_shared', 'p_old']);
      expect(feed[0]).to.deep.equal({ videoId: 'p_new', channelId: 'UC_p', publishedAt: at(-30 * MIN), fetchedAt: at(-0.5 * MIN), channelTitle: 'Teacher' });
      expect(feed[2]!.channelTitle).to.equal('A from file');
      expect((await store.subscriptionFeed(KEY_A, 2)).map((e) => e.videoId)).to.deep.equal(['p_new', 'a_new']);
      expect((await store.subscriptionFeed(KEY_A, 10, ['short'])).map((e) => e.videoId)).to.deep.equal(['p_short']);
      expect((await store.subscriptionFeed(KEY_B, 10)).map((e) => e.videoId)).to.deep.equal(['q_only']);
      // A new listing (entries already stored, so no feed write) moves the version token.
      const before = await store.subscriptionFeedVersion(KEY_A);
      await store.putPlaylist({ ...listing, playlistId: 'PL_course', videoIds: ['p_old', 'a_new'] }, at(MIN));
      expect(await store.subscriptionFeedVersion(KEY_A)).to.not.equal(before);
      expect((await store.subscriptionFeed(KEY_A, 10)).map((e) => e.videoId)).to.deep.equal(['a_new', 'a_shared', 'p_old']);
      await store.unfollow(KEY_A, 'PL_course', at(MIN));
      expect((await store.subscriptionFeed(KEY_A, 10)).map((e) => e.videoId)).to.deep.equal(['a_new', 'a_shared']);
    });

    it('stops refreshing a channel nobody follows and nobody asked for in 30 days; a request or a follow brings it back', async function () {
      await store.registerChannel({ channelId: 'UC_quiet', wanted: 10 }, at(0));
      await store.follow(KEY_A, [{ channelId: 'UC_kept' }], 'import', 10, at(0));
      for (const id of ['UC_quiet', 'UC_kept']) {
        await store.claimDueChannel('w1', MIN, at(0));
        await store.releaseChannel(id, 'w1', { nextDueAt: at(30 * MIN), outcome: 'ok', consecutiveFailures: 0 }, at(0));
      }
      const late = at(KEEP_REFRESHING_MS + DAY);
      expect((await store.claimDueChannel('w1', MIN, late))?.channelId, 'followed: still refreshed').to.equal('UC_kept');
      await store.releaseChannel('UC_kept', 'w1', { nextDueAt: at(KEEP_REFRESHING_MS + 2 * DAY), outcome: 'ok', consecutiveFailures: 0 }, late);
      expect(await store.claimDueChannel('w1', MIN, late), 'not followed, not asked for in 30 days').to.equal(null);
      expect(await refreshAll(store, late), 'the refresh moves only the followed channel').to.equal(1);
      expect((await store.getChannel('UC_quiet'))?.wanted, 'its data stays').to.equal(10);

      const asked = await store.registerChannel({ channelId: 'UC_quiet', wanted: 10 }, late);
      expect(asked.askedAt).to.deep.equal(late);
      expect((await store.claimDueChannel('w2', MIN, late))?.channelId).to.be.oneOf(['UC_quiet', 'UC_kept']);

      await store.registerChannel({ channelId: 'UC_other', wanted: 10 }, at(0));
      await store.follow(KEY_B, [{ channelId: 'UC_other' }], 'import', 10, late);
      const c = await store.getChannel('UC_other');
      expect(c).to.deep.include({ followed: true, askedAt: late });
    });
  });
}
