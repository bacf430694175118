// The store contract's video cases (videos, refresh support, WebSub push, upload rhythm), run by
// contract.ts on every backend.

import { expect } from 'chai';
import { UNKNOWN_PUBLISHED_MS, type FeedKind, type Store, type VideoKind, type VideoRecord, type VideoState, type WebSubRecord } from '../../shared/store';
import { isFeedEntry, isShownKind } from '../../shared/store/rules';
import { at, MIN, video } from './contract-support';

const ids = (videos: readonly VideoRecord[]): string[] => videos.map((v) => v.videoId);

export function videoCases(getStore: () => Store): void {
  let store: Store;
  beforeEach(function () {
    store = getStore();
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

}
