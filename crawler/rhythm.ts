// When a polled channel is listed next, from its own upload rhythm (its stored publish dates): a
// channel that uploads daily is looked at far more often than one that uploads monthly, within
// CRAWL_LISTING_INTERVAL (30 minutes to 24 hours by default). Pure functions, so the rule can be
// read, tested and simulated (bench/polling-week.ts) without a platform or a store.
//
// * The typical gap is the median of the channel's last gaps between uploads (one odd gap does not
//   move it).
// * The interval grows with the square root of that gap, not in proportion to it: for a fixed
//   number of listings an hour this is the split that keeps the average delay from upload to
//   stored entry lowest (a channel uploading n times as often is listed √n times as often), so
//   neither the few daily channels nor the many weekly ones starve the others.
// * A channel quiet for more than twice its typical gap slides towards the upper bound (the
//   interval grows with √ of how far past its rhythm it is): channels stop uploading.
// * A run that found a new upload brings the next look closer (half the interval): uploads come
//   in series, premieres and re-uploads follow one another, and the quiet time starts again.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface ListingBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

export const DEFAULT_LISTING_BOUNDS: ListingBounds = { minMs: 30 * MINUTE, maxMs: DAY };

/** How many of the newest publish dates the rhythm is read from (10 gaps). */
export const RHYTHM_SAMPLE = 11;

/**
 * Hours of interval per √(hours of typical gap): a daily channel is listed every 2.9 h, a weekly
 * one every 7.8 h, a monthly one every 16.1 h (before the bounds).
 */
export const RHYTHM_FACTOR_HOURS = 0.6;

/** Past this many typical gaps without an upload, a channel counts as gone quiet. */
export const QUIET_AFTER_GAPS = 2;

export interface Rhythm {
  /** Median of the recent gaps between uploads (the time since the only upload when there is one). */
  readonly typicalGapMs: number;
  /** Time since the newest upload. */
  readonly sinceMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The channel's rhythm from publish times (epoch ms, any order); times after `nowMs` (scheduled
 * premieres) and unknown dates (0) are left out. Null without any upload.
 */
export function rhythmOf(publishedMs: readonly number[], nowMs: number): Rhythm | null {
  const times = publishedMs.filter((t) => t > 0 && t <= nowMs).sort((a, b) => b - a).slice(0, RHYTHM_SAMPLE);
  if (times.length === 0) return null;
  const sinceMs = nowMs - times[0]!;
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) gaps.push(times[i - 1]! - times[i]!);
  return { typicalGapMs: Math.max(gaps.length === 0 ? sinceMs : median(gaps), MINUTE), sinceMs };
}

/**
 * How long after a listing at `nowMs` the channel is listed again.
 * @param foundNew whether this run found an upload that was not stored before
 */
export function rhythmIntervalMs(publishedMs: readonly number[], nowMs: number, bounds: ListingBounds = DEFAULT_LISTING_BOUNDS, foundNew = false): number {
  const rhythm = rhythmOf(publishedMs, nowMs);
  if (rhythm === null) return bounds.maxMs;
  const pastRhythm = rhythm.sinceMs / rhythm.typicalGapMs;
  const quiet = pastRhythm > QUIET_AFTER_GAPS ? Math.sqrt(pastRhythm / QUIET_AFTER_GAPS) : 1;
  let ms = RHYTHM_FACTOR_HOURS * Math.sqrt(rhythm.typicalGapMs / HOUR) * HOUR * quiet;
  if (foundNew) ms /= 2;
  return Math.round(Math.min(bounds.maxMs, Math.max(bounds.minMs, ms)));
}
