// The timing rules of push (WebSub), as pure functions shared by the crawler (subscriber, pushed
// videos) and the API (a verified lease's renewal time): when a pushed video that was not ready is
// tried again, when a failed subscription is tried again, when a granted lease is renewed.

const MINUTE = 60_000;

/**
 * A notification can come before the video's page is ready (up to an hour before): the video is
 * tried again after these waits, then left to the channel's listings.
 */
export const PUSHED_RETRY_WAITS_MS: readonly number[] = [1, 2, 3, 4, 5, 5, 10, 15, 15].map((m) => m * MINUTE);

/** When a pushed video that was not ready after `attempts` tries is tried again; null = no more tries. */
export function pushedRetryAt(attempts: number, nowMs: number): number | null {
  const wait = PUSHED_RETRY_WAITS_MS[attempts - 1];
  return wait === undefined ? null : nowMs + wait;
}

/** A subscribe request the hub refused (5xx, 503, timeout): tried again after these waits, the last repeating. */
export const SUBSCRIBE_BACKOFF_MS: readonly number[] = [2, 5, 15, 30, 60].map((m) => m * MINUTE);

/** The wait after the `failures`-th failure in a row; a longer Retry-After from the hub wins. */
export function subscribeBackoffMs(failures: number, retryAfterMs: number | null = null): number {
  const base = SUBSCRIBE_BACKOFF_MS[Math.min(Math.max(failures, 1), SUBSCRIBE_BACKOFF_MS.length) - 1]!;
  return retryAfterMs !== null && retryAfterMs > base ? retryAfterMs : base;
}

/** The lease asked of the hub: 5 days (what Invidious asks). */
export const LEASE_ASKED_SECONDS = 5 * 24 * 3600;

/** A granted lease is renewed once this share of it has passed. */
export const RENEW_AT_SHARE = 0.8;

/** When a lease granted at `verifiedMs` for `leaseSeconds` is renewed: a little before 80 % of it has passed (76 %). */
export function renewAtMs(verifiedMs: number, leaseSeconds: number): number {
  return verifiedMs + Math.floor(leaseSeconds * 1000 * RENEW_AT_SHARE * 0.95);
}

/** A subscription the hub has not verified within this long falls back to polling. */
export const VERIFY_WITHIN_MS = 15 * MINUTE;
