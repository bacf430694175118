// The platform as every process shares it: requests counted per source and minute, the cool-down
// after the platform rate-limited us, and the platform check the API asks the crawler for.

/** Who sent platform requests: the crawler's work, or the API's handle lookups. */
export type PlatformRequestSource = 'crawler' | 'api';

export interface PlatformCoolDown {
  until: Date;
  reason: string;
}

/** The one platform-check request and its last answer. A request is pending while requestedAt is later than finishedAt. */
export interface PlatformCheckState {
  requestedAt: Date | null;
  /** The crawler working on the pending request, and since when; null when none took it. */
  claimedBy: string | null;
  claimedAt: Date | null;
  finishedAt: Date | null;
  /** The last finished check's report, as JSON text (shared/platform/platform-check.ts PlatformCheckReport). */
  report: string | null;
}

/** Platform pacing shared by every process (the crawler's budget, the API's handle lookups). */
export interface PlatformPacingStore {
  /** Count `count` platform requests sent by `source` in the minute containing `now`. */
  addPlatformRequests(source: PlatformRequestSource, count: number, now: Date): Promise<void>;
  /** Platform requests counted in the hour up to `now`: of `source`, or of every source. */
  platformRequestsInHour(now: Date, source?: PlatformRequestSource): Promise<number>;
  /**
   * The platform rate-limited us ("try again later"): no process sends a platform request until
   * `until`. A later `until` wins; an earlier one changes nothing.
   */
  setPlatformCoolDown(until: Date, reason: string, now: Date): Promise<void>;
  /** The cool-down in force at `now`, or null. */
  platformCoolDown(now: Date): Promise<PlatformCoolDown | null>;
}

/** The platform check (POST /admin/platform-check): the API asks, a crawler claims and reports. */
export interface PlatformCheckStore {
  /** Ask the crawlers for a platform check; a request already pending stays as it is. Returns the state after. */
  requestPlatformCheck(now: Date): Promise<PlatformCheckState>;
  /** A crawler takes the pending request (unclaimed, or claimed longer than `staleMs` ago by a crawler that died); false when there is none. */
  claimPlatformCheck(owner: string, now: Date, staleMs: number): Promise<boolean>;
  /** The crawler that claimed the request stores its report. */
  finishPlatformCheck(owner: string, report: string, now: Date): Promise<void>;
  getPlatformCheck(): Promise<PlatformCheckState | null>;
}
