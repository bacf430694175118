// Failed sign-ins per client address: 10 a minute, then a wait until the oldest failure is a minute
// old, so guessing keys through the form costs what guessing through the feeds does. In-process.

const WINDOW_MS = 60_000;
const MAX_FAILURES = 10;
/** Bound on addresses remembered, so a flood from many addresses cannot grow the map without end. */
const MAX_ADDRESSES = 10_000;

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  /** Seconds `address` must wait before its next try; 0 when it may try now. */
  waitSeconds(address: string, now: Date): number {
    const recent = this.recent(address, now);
    if (recent.length < MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now.getTime()) / 1000));
  }

  failed(address: string, now: Date): void {
    const recent = this.recent(address, now);
    recent.push(now.getTime());
    if (!this.failures.has(address) && this.failures.size >= MAX_ADDRESSES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    this.failures.set(address, recent);
  }

  private recent(address: string, now: Date): number[] {
    return (this.failures.get(address) ?? []).filter((t) => now.getTime() - t < WINDOW_MS);
  }
}
