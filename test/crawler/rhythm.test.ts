import { expect } from 'chai';
import { ListingShare, listingShareOf } from '../../crawler/listing-share';
import { DEFAULT_LISTING_BOUNDS, QUIET_AFTER_GAPS, rhythmIntervalMs, rhythmOf } from '../../crawler/rhythm';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-02T12:00:00Z');
/** `count` uploads `gapMs` apart, the newest `sinceMs` before NOW. */
const uploads = (count: number, gapMs: number, sinceMs = 0): number[] => Array.from({ length: count }, (_, i) => NOW - sinceMs - i * gapMs);
const interval = (times: readonly number[], foundNew = false) => rhythmIntervalMs(times, NOW, DEFAULT_LISTING_BOUNDS, foundNew);

describe('crawler upload rhythm (next listing of a polled channel)', () => {
  it('reads the typical gap as the median of the recent gaps: one odd gap does not move it', () => {
    const times = [...uploads(6, DAY), NOW - 6 * DAY - 40 * DAY];
    expect(rhythmOf(times, NOW)).to.deep.equal({ typicalGapMs: DAY, sinceMs: 0 });
    // Premieres scheduled in the future and unknown dates (0) are not uploads yet.
    expect(rhythmOf([...times, NOW + DAY, 0], NOW)).to.deep.equal({ typicalGapMs: DAY, sinceMs: 0 });
    expect(rhythmOf([], NOW)).to.equal(null);
  });

  it('looks at a daily channel far more often than a weekly one, and a weekly one more often than a monthly one', () => {
    const daily = interval(uploads(11, DAY, 2 * HOUR));
    const weekly = interval(uploads(11, 7 * DAY, 2 * DAY));
    const monthly = interval(uploads(11, 30 * DAY, 10 * DAY));
    expect(daily).to.be.below(weekly);
    expect(weekly).to.be.below(monthly);
    // The square-root split: 7x the gap → √7 ≈ 2.6x the interval.
    expect(weekly / daily).to.be.closeTo(Math.sqrt(7), 0.01);
    expect(daily).to.be.within(2 * HOUR, 4 * HOUR);
  });

  it('stays between the bounds: 30 minutes for a channel uploading every few minutes, 24 hours for one with no upload', () => {
    expect(interval(uploads(11, 5 * MIN))).to.equal(30 * MIN);
    expect(interval([])).to.equal(DAY);
    expect(interval(uploads(11, 365 * DAY, 100 * DAY))).to.equal(DAY);
    expect(rhythmIntervalMs(uploads(11, DAY), NOW, { minMs: 1000, maxMs: 2000 })).to.equal(2000);
    expect(rhythmIntervalMs(uploads(11, 5 * MIN), NOW, { minMs: 4 * HOUR, maxMs: DAY })).to.equal(4 * HOUR);
  });

  it('slides a channel gone quiet towards the upper bound', () => {
    const onTime = interval(uploads(11, DAY, 12 * HOUR));
    const quiet = interval(uploads(11, DAY, 5 * DAY));
    const silent = interval(uploads(11, DAY, 365 * DAY));
    expect(quiet).to.be.above(onTime);
    expect(silent).to.equal(DAY);
    expect(interval(uploads(11, DAY, 60 * DAY))).to.be.within(quiet, DAY);
    // Up to twice its gap without an upload, a channel keeps its rhythm.
    expect(interval(uploads(11, DAY, QUIET_AFTER_GAPS * DAY))).to.equal(onTime);
  });

  it('a new upload found brings the next look closer', () => {
    // A weekly channel quiet for three weeks: then it uploads.
    const before = uploads(11, 7 * DAY, 21 * DAY);
    const quiet = interval(before);
    const afterUpload = interval([NOW - MIN, ...before], true);
    expect(afterUpload).to.be.below(quiet);
    // On a channel on its rhythm too, the run that found the upload looks again sooner.
    const onRhythm = uploads(11, 7 * DAY, 3 * DAY);
    expect(interval([NOW - MIN, ...onRhythm], true)).to.be.below(interval(onRhythm));
  });
});

describe('crawler listing share (half the hourly budget)', () => {
  it('is half the budget, at least one; no budget, no cap', () => {
    expect(listingShareOf(500)).to.equal(250);
    expect(listingShareOf(1)).to.equal(1);
    expect(listingShareOf(0)).to.equal(0);
  });

  it('counts listings in any sliding hour and says when the next one fits', () => {
    let now = NOW;
    const share = new ListingShare(2, () => now);
    expect(share.hasRoom()).to.equal(true);
    share.note();
    now += 10 * MIN;
    share.note();
    expect(share.hasRoom()).to.equal(false);
    expect(share.roomAtMs()).to.equal(NOW + HOUR);
    // A listing a reader asked for is counted beyond the share: the schedule waits longer.
    share.note();
    expect(share.usedInLastHour()).to.equal(3);
    expect(share.roomAtMs()).to.equal(NOW + 10 * MIN + HOUR);
    now = NOW + HOUR + 10 * MIN;
    expect(share.usedInLastHour()).to.equal(0);
    expect(share.hasRoom()).to.equal(true);
    const unlimited = new ListingShare(0, () => now);
    for (let i = 0; i < 1000; i++) unlimited.note();
    expect(unlimited.hasRoom()).to.equal(true);
  });
});
