// Per-key rate limits: one counter per key and minute, shared by every API process.

export interface RateLimitResult {
  /** False once the request is over the limit for this minute (it is still counted). */
  allowed: boolean;
  /** Requests left in this minute after this one, never below 0. */
  remaining: number;
  /** Requests counted in this minute including this one. */
  count: number;
  /** Start of the next minute window. */
  resetAt: Date;
}

/** The per-key minute windows. */
export interface RateLimitStore {
  /**
   * Count `hits` requests (default 1, a positive integer; otherwise RangeError) for `keyId` in the
   * minute window containing `now` and say how many remain. One atomic add, across processes
   * sharing the store too, so the hits get consecutive counts: the answer is that of the last of
   * them (`count` is the window's count after the add), and the others' follow from it
   * (rate-window.ts `hitOfBatch`). `keyId` is an opaque digest, never the raw key.
   */
  hitRateLimit(keyId: string, limit: number, now: Date, hits?: number): Promise<RateLimitResult>;
  /**
   * The window's count so far, counting nothing: what `keyId` has used of `limit` in the minute
   * containing `now` (`allowed`: whether one more would still be within it). For a limit on
   * failures, which must be read before an attempt and counted only when it fails (the web app's
   * sign-in, shared by every API process).
   */
  peekRateLimit(keyId: string, limit: number, now: Date): Promise<RateLimitResult>;
}
