// The store contract for summaries (issue 31): the queue's claims and leases, backoff, one summary
// per key, the shared daily caps. Called from contract.ts, so both backends run it.

import { expect } from 'chai';
import { videoRecord } from '../support/factories';
import type { Store, SummaryRecord, TranscriptRecord } from '../../shared/store';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number): Date => new Date(T0 + ms);
const MIN = 60_000;
const KEY = { language: 'transcript', promptVersion: 1 };
const transcript = (videoId: string): TranscriptRecord => ({ videoId, language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: 'hi' }], fetchedAt: at(0) });
const summary = (videoId: string, extra: Partial<SummaryRecord> = {}): SummaryRecord => ({
  videoId, ...KEY, transcriptLanguage: 'en', model: 'tiny', points: [{ seconds: 0, text: 'It <opens>' }], promptTokens: 10, completionTokens: 3, madeAt: at(MIN), ...extra,
});

export function summaryContract(getStore: () => Store): void {
  describe('summaries (the queue, stored summaries, daily caps)', function () {
    let store: Store;
    beforeEach(async function () {
      store = getStore();
      // v3 newest, v2, v1 oldest; v0 has no transcript.
      await store.upsertVideos(
        [0, 1, 2, 3].map((i) => videoRecord({ videoId: `v${i}`, channelId: 'UC_s', publishedAt: at(i * MIN), fetchedAt: at(0) })),
        ['v1', 'v2', 'v3'].map(transcript),
      );
    });

    it('claims videos with a transcript, newest first, each to one owner until its lease ends', async function () {
      expect(await store.claimSummaries(KEY, 'a', at(0), 5 * MIN, 2)).to.deep.equal(['v3', 'v2']);
      expect(await store.claimSummaries(KEY, 'b', at(MIN), 5 * MIN, 5)).to.deep.equal(['v1']);
      expect(await store.claimSummaries(KEY, 'b', at(2 * MIN), 5 * MIN, 5)).to.deep.equal([]);
      // a crashed: its leases end and the videos come back.
      expect(await store.claimSummaries(KEY, 'b', at(5 * MIN), 5 * MIN, 5)).to.deep.equal(['v3', 'v2']);
    });

    it('stores one summary per key, never claimed again, and reads it back', async function () {
      await store.claimSummaries(KEY, 'a', at(0), 5 * MIN, 5);
      await store.putSummary(summary('v3'), 'a');
      expect(await store.getSummaries(['v3', 'v2', 'v0'], KEY)).to.deep.equal([summary('v3')]);
      expect(await store.getSummaries(['v3'], { language: 'de', promptVersion: 1 })).to.deep.equal([]);
      expect(await store.claimSummaries(KEY, 'b', at(10 * MIN), 5 * MIN, 5)).to.deep.equal(['v2', 'v1']);
      expect(await store.claimSummaries({ ...KEY, promptVersion: 2 }, 'c', at(10 * MIN), 5 * MIN, 1)).to.deep.equal(['v3']);
      expect(await store.summaryCounts(KEY, at(20 * MIN))).to.deep.equal({ waiting: 2, ready: 1, failed: 0 });
    });

    it('backs a deferred video off until its retry time; a failure is counted, a model fault is not', async function () {
      await store.claimSummaries(KEY, 'a', at(0), 5 * MIN, 5);
      await store.deferSummary('v3', KEY, 'a', { error: 'no valid point', retryAt: at(60 * MIN), failed: true });
      await store.deferSummary('v2', KEY, 'a', { error: '429', retryAt: at(2 * MIN), failed: false });
      await store.deferSummary('v1', KEY, 'someone else', { error: 'x', retryAt: at(60 * MIN), failed: true });
      expect(await store.claimSummaries(KEY, 'b', at(MIN), 5 * MIN, 5)).to.deep.equal([]);
      expect(await store.claimSummaries(KEY, 'b', at(6 * MIN), 5 * MIN, 5)).to.deep.equal(['v2', 'v1']);
      expect(await store.summaryCounts(KEY, at(6 * MIN))).to.deep.equal({ waiting: 0, ready: 0, failed: 1 });
      expect(await store.claimSummaries(KEY, 'b', at(61 * MIN), 5 * MIN, 5)).to.deep.equal(['v3', 'v2', 'v1']);
    });

    it('holds the daily caps on videos and tokens, and starts again the next day', async function () {
      const caps = { videosPerDay: 2, tokensPerDay: 100 };
      expect(await store.takeSummaryAllowance('2025-01-01', caps)).to.equal(true);
      expect(await store.takeSummaryAllowance('2025-01-01', caps)).to.equal(true);
      expect(await store.takeSummaryAllowance('2025-01-01', caps)).to.equal(false);
      expect(await store.takeSummaryAllowance('2025-01-02', { videosPerDay: 0, tokensPerDay: 100 })).to.equal(true);
      await store.addSummaryTokens('2025-01-02', 100);
      expect(await store.takeSummaryAllowance('2025-01-02', { videosPerDay: 0, tokensPerDay: 100 })).to.equal(false);
      expect(await store.takeSummaryAllowance('2025-01-02', { videosPerDay: 0, tokensPerDay: 0 })).to.equal(true);
    });

    it('drops every summary of a key for a redo', async function () {
      await store.putSummary(summary('v3'), 'a');
      await store.putSummary(summary('v2'), 'a');
      expect(await store.dropSummaries(KEY)).to.equal(2);
      expect(await store.getSummaries(['v3', 'v2'], KEY)).to.deep.equal([]);
    });
  });
}
