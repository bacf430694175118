// The store contract's subscription cases (a key's followed channels, the combined feed, and which
// channels stay refreshed), run by contract.ts inside each backend's suite.

import { expect } from 'chai';
import { KEEP_REFRESHING_MS } from '../../shared/store/rules';
import type { Store, VideoRecord } from '../../shared/store/types';
import { videoRecord } from '../support/factories';

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
        { channelId: 'UC_a', handle: null, title: 'Channel A', source: 'import', since: at(0) },
        { channelId: 'UC_b', handle: null, title: 'B from file', source: 'import', since: at(0) },
        { channelId: 'UC_c', handle: null, title: null, source: 'feed', since: at(MIN) },
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

      expect(await store.subscribedHandlesToResolve(at(MIN), 10)).to.deep.equal(['ghost', 'newone']);
      expect(await store.subscribedHandlesToResolve(at(MIN), 1)).to.have.length(1);

      await store.resolveSubscribedHandle('NewOne', 'UC_new', 10, at(2 * MIN));
      expect(await store.getHandle('newone')).to.equal('UC_new');
      expect(await store.getChannel('UC_new')).to.deep.include({ followed: true, handle: 'newone', dueAt: at(2 * MIN) });
      expect(await store.listSubscriptions(KEY_A)).to.deep.equal([
        { channelId: 'UC_known', handle: null, title: null, source: 'import', since: at(0) },
        { channelId: 'UC_new', handle: null, title: 'New one', source: 'import', since: at(0) },
      ]);
      expect((await store.listSubscriptions(KEY_B)).map((s) => s.channelId ?? s.handle)).to.have.members(['UC_new', 'ghost']);

      await store.resolveSubscribedHandle('ghost', null, 10, at(3 * MIN));
      expect(await store.subscribedHandlesToResolve(at(3 * MIN), 10), 'tried at 3 min: not again before the retry time').to.deep.equal([]);
      expect(await store.subscribedHandlesToResolve(at(3 * MIN + 1), 10)).to.deep.equal(['ghost']);
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
        video('b_failed', 'UC_b', 1.5, { state: 'failed', transcriptHtml: null, nextAttemptAt: at(MIN) }),
        video('b_given_up', 'UC_b', 4, { state: 'no_transcript', transcriptHtml: null, nextAttemptAt: null }),
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
      await store.upsertVideos([video('a2', 'UC_a', 2, { state: 'failed', transcriptHtml: null, nextAttemptAt: at(DAY), fetchedAt: at(2 * MIN) })]);
      expect(await store.subscriptionFeedVersion(KEY_A), 'a video not in any feed changes nothing').to.equal(t2);
      await store.follow(KEY_A, [{ channelId: 'UC_b' }], 'import', 10, at(0));
      const t3 = await store.subscriptionFeedVersion(KEY_A);
      expect(t3).to.not.equal(t2);
      await store.unfollow(KEY_A, 'UC_b', at(0));
      expect(await store.subscriptionFeedVersion(KEY_A)).to.not.equal(t3);
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
      expect(await store.markAllDue(late), 'the refresh moves only the followed channel').to.equal(1);
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
