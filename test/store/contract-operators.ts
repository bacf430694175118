// The store contract for what operators see: channel pages, stats, refresh/remove/purge, runs,
// heartbeats, hourly counts, the queue and the store's size. Called from contract.ts, so both
// backends run it.

import { expect } from 'chai';
import { videoRecord } from '../support/factories';
import type { ChannelRunRecord, CrawlerHeartbeat, Store, TranscriptRecord, VideoRecord } from '../../shared/store';
import { q } from './contract-search';
import { HEARTBEAT_KEPT_MS, HOURLY_KEPT_MS, RUNS_KEPT_PER_CHANNEL } from '../../shared/store/rules';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number): Date => new Date(T0 + ms);
const MIN = 60_000;
const HOUR = 3_600_000;

const video = (overrides: Partial<VideoRecord> & { videoId: string }): VideoRecord =>
  videoRecord({ channelId: 'UC_a', publishedAt: at(0), fetchedAt: at(0), ...overrides });
const none = { language: null, kind: null };
const transcript = (videoId: string): TranscriptRecord => ({ videoId, language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: 'hi' }], fetchedAt: at(0) });

const run = (channelId: string, n: number, extra: Partial<ChannelRunRecord> = {}): ChannelRunRecord => ({
  channelId, owner: 'host:crawler', startedAt: at(n * MIN), endedAt: at(n * MIN + 1000), outcome: 'ok', error: null, stored: n, ...extra,
});

export const heartbeat = (owner: string, extra: Partial<CrawlerHeartbeat> = {}): CrawlerHeartbeat => ({
  owner, startedAt: at(0), version: '1.0.0', state: 'fetching', until: null, channelId: 'UC_a', batch: '2/5',
  requestsLastHour: 42, budgetPerHour: 500, proxies: [{ proxy: 'http://proxy-1:8080', state: 'in use' }], browserRuns: 1, playerClientsLeftOut: [], at: at(MIN), ...extra,
});

export function operatorContract(getStore: () => Store): void {
  describe('operators (admin endpoints, status page, heartbeat)', function () {
    let store: Store;
    beforeEach(function () {
      store = getStore();
    });

    it('pages channels by id after an exclusive cursor', async function () {
      for (const id of ['UC_c', 'UC_a', 'UC_d', 'UC_b']) await store.registerChannel({ channelId: id, wanted: 5 }, at(0));
      const ids = (cs: { channelId: string }[]) => cs.map((c) => c.channelId);
      expect(ids(await store.listChannels(null, 3))).to.deep.equal(['UC_a', 'UC_b', 'UC_c']);
      expect(ids(await store.listChannels('UC_c', 3))).to.deep.equal(['UC_d']);
      expect(ids(await store.listChannels('UC_b', 1))).to.deep.equal(['UC_c']);
      expect(await store.listChannels('UC_d', 3)).to.deep.equal([]);
      expect(await store.listChannels(null, 0)).to.deep.equal([]);
      expect((await store.listChannels(null, 1))[0]).to.deep.equal(await store.getChannel('UC_a'));
    });

    it('lists the channels with the most failures in a row first', async function () {
      for (const [id, failures] of [['UC_a', 0], ['UC_b', 3], ['UC_c', 1], ['UC_d', 3]] as const) {
        await store.registerChannel({ channelId: id, wanted: 5 }, at(0));
        const claimed = await store.claimDueChannel('w', MIN, at(0));
        await store.releaseChannel(claimed!.channelId, 'w', { nextDueAt: at(HOUR), outcome: failures > 0 ? 'error' : 'ok', consecutiveFailures: failures }, at(1));
      }
      expect((await store.listChannelsByFailures(3)).map((c) => [c.channelId, c.consecutiveFailures])).to.deep.equal([['UC_b', 3], ['UC_d', 3], ['UC_c', 1]]);
    });

    it('counts videos by state and the wanted window a feed shows', async function () {
      await store.upsertVideos([
        video({ videoId: 'r5', publishedAt: at(5000) }),
        video({ videoId: 's4', publishedAt: at(4500), videoKind: 'short' }),
        video({ videoId: 'f4', ...none, state: 'failed', nextAttemptAt: at(MIN), publishedAt: at(4000) }),
        video({ videoId: 'n3', ...none, state: 'no_transcript', nextAttemptAt: null, publishedAt: at(3000) }),
        video({ videoId: 'n2', ...none, state: 'no_transcript', nextAttemptAt: at(MIN), publishedAt: at(2000) }),
        video({ videoId: 'u1', ...none, state: 'unavailable', nextAttemptAt: null, publishedAt: at(1000), videoKind: null }),
        video({ videoId: 'r0', publishedAt: at(0) }),
        video({ videoId: 'other', channelId: 'UC_b' }),
      ]);
      await store.follow('key-one', [{ channelId: 'UC_a' }], 'import', 10, at(0));
      await store.follow('key-two', [{ channelId: 'UC_a' }], 'import', 10, at(0));
      const [a, b, none2] = await store.channelStats([{ channelId: 'UC_a', wanted: 4 }, { channelId: 'UC_b', wanted: 10 }, { channelId: 'UC_none', wanted: 3 }]);
      // Window of 4 regular videos: r5, f4, n3 (given up: shown), n2 (retrying: not shown). s4 is a Short.
      expect(a).to.deep.equal({ channelId: 'UC_a', videos: { ready: 3, failed: 1, no_transcript: 2, unavailable: 1 }, window: 4, windowShown: 2, followers: 2 });
      expect(b).to.deep.equal({ channelId: 'UC_b', videos: { ready: 1, failed: 0, no_transcript: 0, unavailable: 0 }, window: 1, windowShown: 1, followers: 0 });
      expect(none2).to.deep.equal({ channelId: 'UC_none', videos: { ready: 0, failed: 0, no_transcript: 0, unavailable: 0 }, window: 0, windowShown: 0, followers: 0 });
      expect(await store.channelStats([])).to.deep.equal([]);
    });

    it('makes a known channel due now, keeping its failures', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
      await store.claimDueChannel('w', MIN, at(0));
      await store.releaseChannel('UC_a', 'w', { nextDueAt: at(5 * HOUR), outcome: 'error', consecutiveFailures: 2 }, at(1));
      expect(await store.makeChannelDue('UC_a', at(2 * MIN))).to.equal(true);
      const c = await store.getChannel('UC_a');
      expect([c!.dueAt, c!.consecutiveFailures]).to.deep.equal([at(2 * MIN), 2]);
      expect(await store.makeChannelDue('UC_none', at(0))).to.equal(false);
      expect((await store.claimDueChannel('w', MIN, at(2 * MIN)))?.channelId).to.equal('UC_a');
    });

    it('keeps a channel made due during a run due at that run\'s release', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
      await store.registerChannel({ channelId: 'UC_b', wanted: 5 }, at(0));
      await store.claimDueChannel('w', HOUR, at(0));
      await store.claimDueChannel('w', HOUR, at(0));
      expect(await store.makeChannelDue('UC_a', at(MIN))).to.equal(true);
      await store.releaseChannel('UC_a', 'w', { nextDueAt: at(5 * HOUR), outcome: 'ok', consecutiveFailures: 0 }, at(2 * MIN));
      await store.releaseChannel('UC_b', 'w', { nextDueAt: at(5 * HOUR), outcome: 'ok', consecutiveFailures: 0 }, at(2 * MIN));
      expect((await store.getChannel('UC_a'))!.dueAt.getTime()).to.be.at.most(at(2 * MIN).getTime());
      expect((await store.getChannel('UC_b'))!.dueAt).to.deep.equal(at(5 * HOUR));
      expect((await store.claimDueChannel('w2', MIN, at(3 * MIN)))?.channelId).to.equal('UC_a');
    });

    it('removes a channel and its asked languages, keeping its videos', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
      await store.askLanguages('UC_a', ['de'], at(0));
      await store.upsertVideos([video({ videoId: 'v1' })]);
      expect(await store.removeChannel('UC_a')).to.equal(true);
      expect(await store.getChannel('UC_a')).to.equal(null);
      expect(await store.wantedLanguages('UC_a', 5, at(0))).to.deep.equal([]);
      expect(await store.storedVideoIds(['v1'])).to.deep.equal(['v1']);
      expect(await store.removeChannel('UC_a')).to.equal(false);
      expect(await store.claimDueChannel('w', MIN, at(HOUR))).to.equal(null);
    });

    it('purges a channel\'s videos and transcripts in bounded batches, leaving other channels alone', async function () {
      const mine = Array.from({ length: 7 }, (_, i) => video({ videoId: `a${i}`, publishedAt: at(i) }));
      await store.upsertVideos([...mine, video({ videoId: 'b0', channelId: 'UC_b' })], [...mine.map((v) => transcript(v.videoId)), transcript('b0')]);
      expect(await store.purgeChannelVideos('UC_a', 3)).to.equal(3);
      expect(await store.purgeChannelVideos('UC_a', 3)).to.equal(3);
      expect(await store.purgeChannelVideos('UC_a', 3)).to.equal(1);
      expect(await store.purgeChannelVideos('UC_a', 3)).to.equal(0);
      expect(await store.storedVideoIds([...mine.map((v) => v.videoId), 'b0'])).to.deep.equal(['b0']);
      expect((await store.getTranscripts([...mine.map((v) => v.videoId), 'b0'])).map((t) => t.videoId)).to.deep.equal(['b0']);
      expect(await store.purgeChannelVideos('UC_b', 0)).to.equal(0);
      // Search finds the other channel's video only (every transcript here says "hi").
      const hits = await store.searchVideos(q('hi'), { channelIds: null, kinds: ['regular'] }, 20);
      expect(hits.map((h) => h.video.videoId)).to.deep.equal(['b0']);
    });

    it('keeps the newest runs of each channel and lists them newest first', async function () {
      for (let n = 1; n <= RUNS_KEPT_PER_CHANNEL + 3; n++) await store.recordRun(run('UC_a', n));
      await store.recordRun(run('UC_b', 5, { outcome: 'blocked', error: 'HTTP 429', stored: 0 }));
      const a = await store.listRuns('UC_a', 100);
      expect(a.map((r) => r.stored)).to.deep.equal(Array.from({ length: RUNS_KEPT_PER_CHANNEL }, (_, i) => RUNS_KEPT_PER_CHANNEL + 3 - i));
      expect(a[0]).to.deep.equal(run('UC_a', RUNS_KEPT_PER_CHANNEL + 3));
      const all = await store.listRuns(null, 3);
      expect(all.map((r) => [r.channelId, r.stored])).to.deep.equal([['UC_a', 23], ['UC_a', 22], ['UC_a', 21]]);
      expect((await store.listRuns('UC_b', 5))[0]).to.deep.equal(run('UC_b', 5, { outcome: 'blocked', error: 'HTTP 429', stored: 0 }));
      expect(await store.listRuns('UC_none', 5)).to.deep.equal([]);
    });

    it('keeps one heartbeat per crawler, replaced, and drops those silent for long', async function () {
      await store.putHeartbeat(heartbeat('b:crawler', { at: at(0) }));
      await store.putHeartbeat(heartbeat('a:crawler', { at: at(0) }));
      const leftOut = [
        { client: 'ANDROID', version: '19.44.38', why: 'retired', reason: 'HTTP 400 FAILED_PRECONDITION', since: at(5000), retryAt: at(5000 + HOUR), advice: 'set a newer ANDROID version in PLAYER_CLIENTS' },
        { client: 'TVHTML5', version: '7.20260707.07.00', why: 'client_fault', reason: 'UNPLAYABLE: The page needs to be reloaded.', since: at(6000), retryAt: null, advice: 'drop TVHTML5' },
      ];
      const later = heartbeat('a:crawler', { state: 'cooling_down', until: at(HOUR), channelId: null, batch: null, proxies: [], playerClientsLeftOut: leftOut, at: at(10_000) });
      await store.putHeartbeat(later);
      expect(await store.listHeartbeats()).to.deep.equal([later, heartbeat('b:crawler', { at: at(0) })]);
      await store.putHeartbeat(heartbeat('a:crawler', { at: at(HEARTBEAT_KEPT_MS + 1) }));
      expect((await store.listHeartbeats()).map((h) => h.owner)).to.deep.equal(['a:crawler']);
    });

    it('adds counts per UTC hour and forgets old hours', async function () {
      await store.addHourlyCounts({ videosStored: 3, platformRequests: 10 }, at(5 * MIN));
      await store.addHourlyCounts({ videosStored: 2, platformRequests: 1 }, at(59 * MIN));
      await store.addHourlyCounts({ videosStored: 0, platformRequests: 0 }, at(HOUR));
      await store.addHourlyCounts({ videosStored: 0, platformRequests: 4 }, at(HOUR + MIN));
      expect(await store.hourlyCounts(at(0))).to.deep.equal([
        { hour: at(0), videosStored: 5, platformRequests: 11 },
        { hour: at(HOUR), videosStored: 0, platformRequests: 4 },
      ]);
      expect(await store.hourlyCounts(at(HOUR))).to.deep.equal([{ hour: at(HOUR), videosStored: 0, platformRequests: 4 }]);
      await store.addHourlyCounts({ videosStored: 1, platformRequests: 1 }, at(HOURLY_KEPT_MS + 2 * HOUR));
      expect((await store.hourlyCounts(at(0))).map((h) => h.hour)).to.deep.equal([at(HOURLY_KEPT_MS + 2 * HOUR)]);
    });

    it('sums up the queue: running, due now and next due', async function () {
      expect(await store.queueSummary(at(0))).to.deep.equal({ channels: 0, running: 0, dueNow: 0, nextDueAt: null });
      for (const id of ['UC_a', 'UC_b', 'UC_c', 'UC_d']) await store.registerChannel({ channelId: id, wanted: 5 }, at(0));
      await store.claimDueChannel('w', 10 * MIN, at(0)); // UC_a running
      await store.claimDueChannel('w', MIN, at(0)); // UC_b: lease expires at 1 min
      const c = await store.claimDueChannel('w', MIN, at(0));
      await store.releaseChannel(c!.channelId, 'w', { nextDueAt: at(HOUR), outcome: 'ok', consecutiveFailures: 0 }, at(1)); // UC_c later
      expect(await store.queueSummary(at(2 * MIN))).to.deep.equal({ channels: 4, running: 1, dueNow: 2, nextDueAt: at(HOUR) });
    });

    it('tells its size', async function () {
      await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, at(0));
      await store.upsertVideos([video({ videoId: 'v1' }), video({ videoId: 'v2' })], [transcript('v1')]);
      const size = await store.storeSize();
      expect([size.channels, size.videos, size.transcripts]).to.deep.equal([1, 2, 1]);
      if (size.bytes !== null) expect(size.bytes).to.be.greaterThan(0);
      if (store.kind === 'sqlite') expect(size.bytes).to.be.a('number');
    });
  });
}
