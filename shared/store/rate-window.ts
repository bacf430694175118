// The per-minute rate-limit arithmetic both store implementations share, so that they answer
// the same RateLimitResult for the same count.

import type { RateLimitResult } from './types';

export const RATE_WINDOW_MS = 60_000;

/** Epoch ms of the start of the minute window containing `now`. */
export function windowStartOf(now: Date): number {
  return Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS;
}

/** The answer for the `count`-th request of a window (count includes this request). */
export function rateLimitResult(count: number, limit: number, windowStart: number): RateLimitResult {
  return {
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    count,
    resetAt: new Date(windowStart + RATE_WINDOW_MS),
  };
}

/** `hits` as the stores take it: a positive integer, or a RangeError (never a silent no-op add). */
export function checkedHits(hits: number): number {
  if (!Number.isInteger(hits) || hits < 1) throw new RangeError(`rate-limit hits must be a positive integer, got ${hits}`);
  return hits;
}

/**
 * The answer the `i`-th (1-based) of `hits` hits added at once would have had as a call of its own,
 * judged by its own `limit`: the add gave the hits consecutive counts ending at `last.count`.
 */
export function hitOfBatch(last: RateLimitResult, hits: number, i: number, limit: number): RateLimitResult {
  const count = last.count - hits + i;
  return { allowed: count <= limit, remaining: Math.max(0, limit - count), count, resetAt: last.resetAt };
}

/** What a window holding `count` hits says before the next one: allowed while fewer than `limit`. */
export function peekResult(count: number, limit: number, windowStart: number): RateLimitResult {
  return { allowed: count < limit, remaining: Math.max(0, limit - count), count, resetAt: new Date(windowStart + RATE_WINDOW_MS) };
}
