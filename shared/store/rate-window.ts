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
