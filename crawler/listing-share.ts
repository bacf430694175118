// Listings may take at most half of the hourly request budget (CRAWL_REQUESTS_PER_HOUR), so the
// transcripts of what they find always have room. The share counts listings started in any
// sliding hour; a channel a reader just asked for runs anyway (the scheduler claims those first
// and does not ask the share), and is counted like any other listing.

export const HOUR_MS = 3_600_000;

/** Listings allowed in any hour for a request budget: half of it, at least one; 0 (no budget) = no cap. */
export function listingShareOf(requestsPerHour: number): number {
  return requestsPerHour > 0 ? Math.max(1, Math.floor(requestsPerHour / 2)) : 0;
}

export class ListingShare {
  /** When each listing of the last hour started, oldest first. */
  private readonly stamps: number[] = [];

  /** @param perHour listings allowed in any sliding hour; 0 = no cap */
  constructor(readonly perHour: number, private readonly nowMs: () => number) {}

  /** Listings started in the hour up to now. */
  usedInLastHour(): number {
    const now = this.nowMs();
    while (this.stamps.length > 0 && this.stamps[0]! <= now - HOUR_MS) this.stamps.shift();
    return this.stamps.length;
  }

  /** Whether one more listing fits in the share now. */
  hasRoom(): boolean {
    return this.perHour === 0 || this.usedInLastHour() < this.perHour;
  }

  /** When the next listing fits (now when it already does). */
  roomAtMs(): number {
    const now = this.nowMs();
    if (this.hasRoom()) return now;
    return this.stamps[this.stamps.length - this.perHour]! + HOUR_MS;
  }

  /** A listing started now. */
  note(): void {
    // Not capped at perHour: listings a reader asked for count beyond the share, and the next
    // listing of the schedule waits until the hour has room again.
    this.stamps.push(this.nowMs());
    this.usedInLastHour();
  }
}
