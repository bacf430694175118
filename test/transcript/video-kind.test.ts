// Which kind of video a fetch records (issue #10): from the listing's /shorts/ link and the
// player answer's isLiveContent / LIVE_STREAM_OFFLINE, all free with requests made anyway.

import { expect } from 'chai';
import { transientRetryDelayMs, videoRecordFor, type FetchResult, type VideoFacts } from '../../crawler/video-outcome';
import { classifyPlayer } from '../../shared/platform/classify';
import type { Transcript } from '../../shared/transcript/types';
import { videoRecord } from '../support/factories';

const now = new Date('2026-07-01T12:00:00Z');
const facts: VideoFacts = { videoId: 'v1', channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa', title: 'One', publishedAt: new Date('2026-06-30T00:00:00Z') };
const transcript = (details?: Transcript['details']): FetchResult => ({ kind: 'transcript', transcript: { language: 'en', kind: 'manual', cueCount: 1, paragraphs: [{ startMs: 0, text: 'hi' }], ...(details ? { details } : {}) } });

describe('video kind, duration and description on the stored record', () => {
  it('a transcript from the player records regular, its duration and description', () => {
    const r = videoRecordFor(facts, transcript({ durationSeconds: 316, description: 'About.', live: false }), undefined, now);
    expect(r).to.deep.include({ videoKind: 'regular', durationSeconds: 316, description: 'About.' });
  });

  it('isLiveContent makes it live; a /shorts/ link makes it a Short', () => {
    expect(videoRecordFor(facts, transcript({ durationSeconds: 7200, description: null, live: true }), undefined, now).videoKind).to.equal('live');
    expect(videoRecordFor({ ...facts, short: true }, transcript({ durationSeconds: 40, description: null, live: false }), undefined, now)).to.deep.include({ videoKind: 'short', durationSeconds: 40 });
  });

  it('a Short keeps its kind when its transcript comes on a retry from the store (no /shorts/ link in hand)', () => {
    const listed = videoRecordFor({ ...facts, short: true }, { kind: 'failure', outcome: 'no_captions', reason: 'x' }, undefined, now);
    expect(listed.videoKind).to.equal('short');
    const retried = videoRecordFor(facts, transcript(), listed, now);
    expect(retried).to.deep.include({ state: 'ready', videoKind: 'short' });
  });

  it('the listing flag never reaches the record as a field of its own', () => {
    expect(videoRecordFor({ ...facts, short: true }, transcript(), undefined, now)).not.to.have.property('short');
  });

  it('a stream or premiere that has not aired is upcoming, retried without giving up', () => {
    const verdict = classifyPlayer({ playabilityStatus: { status: 'LIVE_STREAM_OFFLINE', reason: 'Premieres in 2 hours' }, videoDetails: { videoId: 'v1', isUpcoming: true } }, 'v1');
    if (verdict.outcome !== 'no_captions') throw new Error('an upcoming video has no captions yet');
    expect(verdict.outcome).to.equal('no_captions');
    expect(verdict.signal).to.equal('not_aired');
    let previous;
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      previous = videoRecordFor(facts, { kind: 'failure', outcome: 'no_captions', reason: verdict.reason, signal: verdict.signal }, previous, now);
      expect(previous).to.deep.include({ videoKind: 'upcoming', state: 'no_transcript' });
      expect(previous.nextAttemptAt!.getTime() - now.getTime()).to.equal(transientRetryDelayMs(attempt));
    }
  });

  it('once it airs, the transcript tells its kind again', () => {
    const before = videoRecord({ videoId: 'v1', videoKind: 'upcoming', state: 'no_transcript', language: null, kind: null });
    expect(videoRecordFor(facts, transcript({ durationSeconds: 3600, description: null, live: true }), before, now).videoKind).to.equal('live');
    expect(videoRecordFor(facts, { kind: 'failure', outcome: 'transient', reason: 'x' }, before, now).videoKind).to.equal(null);
  });

  it('a failure keeps what an earlier answer told', () => {
    const before = videoRecord({ videoId: 'v1', videoKind: 'live', durationSeconds: 99, description: 'd' });
    expect(videoRecordFor(facts, { kind: 'failure', outcome: 'transient', reason: 'x' }, before, now)).to.deep.include({ videoKind: 'live', durationSeconds: 99, description: 'd' });
  });

  it('without details (the browser path) a transcript is regular with nothing else known', () => {
    expect(videoRecordFor(facts, transcript(), undefined, now)).to.deep.include({ videoKind: 'regular', durationSeconds: null, description: null });
  });
});
