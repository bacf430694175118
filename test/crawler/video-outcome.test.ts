import { expect } from 'chai';
import {
  NO_CAPTIONS_GIVE_UP_AFTER_MS, PUBLISH_DATE_UNKNOWN, UNAVAILABLE_RECHECK_MS, noCaptionsRetryDelayMs, transientRetryDelayMs, videoRecordFor,
  type FetchResult, type VideoFacts,
} from '../../crawler/video-outcome';
import { UNKNOWN_PUBLISHED_MS, type VideoRecord } from '../../shared/store/types';

const HOUR = 3_600_000;
const now = new Date('2026-07-01T12:00:00Z');
const facts: VideoFacts = { videoId: 'v1', channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', title: 'One', publishedAt: new Date('2026-06-30T00:00:00Z') };
const inMs = (d: Date | null): number | null => (d === null ? null : d.getTime() - now.getTime());

describe('crawler video outcome', () => {
  it('stores a transcript as ready, final, attempt counted', () => {
    const r = videoRecordFor(facts, { kind: 'transcript', transcript: { language: 'de', kind: 'automatic', cueCount: 1, paragraphs: [{ startMs: 0, text: 'hi' }] } }, undefined, now);
    expect(r).to.deep.include({ state: 'ready', language: 'de', kind: 'automatic', attempts: 1, nextAttemptAt: null, lastError: null });
    expect(r.publishedAt).to.deep.equal(facts.publishedAt);
    expect(r.fetchedAt).to.deep.equal(now);
  });

  it('retries missing captions at 1 h, 3 h, 9 h, 24 h, 24 h, then gives up after about three days', () => {
    const schedule = [1, 2, 3, 4, 5, 6, 7].map(noCaptionsRetryDelayMs);
    expect(schedule).to.deep.equal([1 * HOUR, 3 * HOUR, 9 * HOUR, 24 * HOUR, 24 * HOUR, null, null]);
    const waited = schedule.reduce<number>((sum, d) => sum + (d ?? 0), 0);
    expect(waited).to.be.at.most(NO_CAPTIONS_GIVE_UP_AFTER_MS);
    expect(waited).to.be.at.least(48 * HOUR);
  });

  it('counts attempts from the stored record, and a given-up video has no next attempt', () => {
    let previous: VideoRecord | undefined;
    const nexts: (number | null)[] = [];
    for (let i = 0; i < 6; i += 1) {
      previous = videoRecordFor(facts, { kind: 'failure', outcome: 'no_captions', reason: 'no captions' }, previous, now);
      nexts.push(inMs(previous.nextAttemptAt));
    }
    expect(previous).to.deep.include({ state: 'no_transcript', attempts: 6, language: null, lastError: 'no captions' });
    expect(nexts).to.deep.equal([1 * HOUR, 3 * HOUR, 9 * HOUR, 24 * HOUR, 24 * HOUR, null]);
  });

  it('records a gone video as unavailable and looks again after a week', () => {
    for (const outcome of ['unavailable', 'not_found'] as const) {
      const r = videoRecordFor(facts, { kind: 'failure', outcome, reason: 'This video is unavailable' }, undefined, now);
      expect(r.state).to.equal('unavailable');
      expect(inMs(r.nextAttemptAt)).to.equal(UNAVAILABLE_RECHECK_MS);
    }
  });

  it('records transient failures as failed, backing off to a cap and never giving up', () => {
    expect([1, 2, 3, 4].map(transientRetryDelayMs)).to.deep.equal([10, 20, 40, 80].map((m) => m * 60_000));
    expect(transientRetryDelayMs(50)).to.equal(12 * HOUR);
    const r = videoRecordFor(facts, { kind: 'failure', outcome: 'transient', reason: 'HTTP 503' }, undefined, now);
    expect(r).to.deep.include({ state: 'failed', lastError: 'HTTP 503', attempts: 1 });
    expect(inMs(r.nextAttemptAt)).to.equal(10 * 60_000);
  });
});

describe('crawler video outcome without a publish date', () => {
  const undated: VideoFacts = { ...facts, publishedAt: null };
  const unknown = new Date(UNKNOWN_PUBLISHED_MS);
  const transcript: FetchResult = { kind: 'transcript', transcript: { language: 'en', kind: 'manual', cueCount: 1, paragraphs: [{ startMs: 0, text: 'hi' }] } };

  it('records a gone video as unavailable under the unknown-date sentinel, rechecked after a week', () => {
    const r = videoRecordFor(undated, { kind: 'failure', outcome: 'unavailable', reason: 'This video is unavailable' }, undefined, now);
    expect(r).to.deep.include({ state: 'unavailable', publishedAt: unknown, lastError: 'This video is unavailable', attempts: 1 });
    expect(inMs(r.nextAttemptAt)).to.equal(UNAVAILABLE_RECHECK_MS);
  });

  it('never stores what the feed would show without a date: failed, "publish date unknown", transient backoff', () => {
    const noCaptions = { kind: 'failure', outcome: 'no_captions', reason: 'no captions' } as const;
    let previous: VideoRecord | undefined;
    for (const [i, result] of [transcript, noCaptions, transcript].entries()) {
      previous = videoRecordFor(undated, result, previous, now);
      expect(previous).to.deep.include({
        state: 'failed', publishedAt: unknown, lastError: PUBLISH_DATE_UNKNOWN, language: null, kind: null, attempts: i + 1,
      });
      expect(inMs(previous.nextAttemptAt)).to.equal(transientRetryDelayMs(i + 1));
    }
    // A later attempt that learns the date stores the transcript as usual.
    expect(videoRecordFor(facts, transcript, previous, now)).to.deep.include({ state: 'ready', publishedAt: facts.publishedAt, attempts: 4 });
  });

  it('keeps a transient failure as it is, under the sentinel', () => {
    const r = videoRecordFor(undated, { kind: 'failure', outcome: 'transient', reason: 'HTTP 503' }, undefined, now);
    expect(r).to.deep.include({ state: 'failed', publishedAt: unknown, lastError: 'HTTP 503' });
  });
});
