// The store contract's followedOverview cases (the web app's home page): a key's subscriptions in
// listSubscriptions' order, each with its stored feed entries' count and newest date and its work
// item's crawl fields. Run by contract.ts inside each backend's suite.

import { expect } from 'chai';
import type { Store } from '../../shared/store/types';
import { at, MIN, video } from './contract-support';

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

export function followedOverviewCases(current: () => Store): void {
  describe('followedOverview', function () {
    it('lists each followed channel and playlist with its feed entries, newest date and crawl state; nothing of another key', async function () {
      const store = current();
      await store.follow(KEY_A, [{ channelId: 'UC_a', title: 'A from file' }], 'import', 10, at(0));
      await store.follow(KEY_A, [{ channelId: 'PL_course', kind: 'playlist' }], 'feed', 10, at(MIN));
      await store.follow(KEY_A, [{ handle: 'later' }, { channelId: 'UC_empty' }], 'import', 10, at(2 * MIN));
      await store.follow(KEY_B, [{ channelId: 'UC_b' }], 'import', 10, at(5 * MIN));
      await store.putPlaylist({ playlistId: 'PL_course', title: 'Course', owner: 'T', ownerChannelId: 'UC_p', state: 'listed', videoIds: ['p1', 'a_old', 'p_unstored', 'p_failed'] }, at(0));
      await store.upsertVideos([
        video({ videoId: 'a_new', publishedAt: at(-MIN) }),
        video({ videoId: 'a_old', publishedAt: at(-60 * MIN) }),
        video({ videoId: 'a_failed', publishedAt: at(0), state: 'failed', nextAttemptAt: at(60 * MIN) }),
        video({ videoId: 'p1', channelId: 'UC_p', publishedAt: at(-30 * MIN) }),
        video({ videoId: 'p_failed', channelId: 'UC_p', publishedAt: at(0), state: 'failed', nextAttemptAt: at(60 * MIN) }),
        video({ videoId: 'b1', channelId: 'UC_b', publishedAt: at(0) }),
      ]);
      await store.nameChannel('UC_a', 'Channel A');
      // UC_a is the earliest due: the crawler takes it, and the platform blocks the run.
      expect((await store.claimDueChannel('crawler-1', MIN, at(3 * MIN)))?.channelId).to.equal('UC_a');
      expect(await store.releaseChannel('UC_a', 'crawler-1', { nextDueAt: at(90 * MIN), outcome: 'blocked', consecutiveFailures: 1 }, at(4 * MIN))).to.equal(true);

      const overview = await store.followedOverview(KEY_A);
      const subs = await store.listSubscriptions(KEY_A);
      // The same records as listSubscriptions, in its order.
      expect(overview.map(({ channelId, kind, handle, title, source, since }) => ({ channelId, kind, handle, title, source, since }))).to.deep.equal(subs);
      const byRef = new Map(overview.map((o) => [o.channelId ?? `@${o.handle}`, o]));
      expect(byRef.get('UC_a')).to.deep.include({ title: 'Channel A', stored: 2, newestAt: at(-MIN) });
      expect(byRef.get('PL_course')).to.deep.include({ kind: 'playlist', stored: 2, newestAt: at(-30 * MIN) });
      expect(byRef.get('UC_empty')).to.deep.include({ stored: 0, newestAt: null });
      expect(byRef.get('UC_empty')?.work).to.deep.include({ lastOutcome: null, lastCrawlAt: null, leaseOwner: null, dueAt: at(2 * MIN) });
      expect(byRef.get('@later')).to.deep.include({ channelId: null, stored: 0, newestAt: null, work: null });
      expect(byRef.get('UC_a')?.work).to.deep.include({ lastOutcome: 'blocked', dueAt: at(90 * MIN), lastCrawlAt: at(4 * MIN) });
      expect(overview.some((o) => o.channelId === 'UC_b')).to.equal(false);
      expect(await store.followedOverview('c'.repeat(64))).to.deep.equal([]);
    });
  });
}
