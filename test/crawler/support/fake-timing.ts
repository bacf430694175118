// Injected time for crawler tests: sleeping advances a fake clock instead of waiting, every sleep is
// recorded (with whatever else the test logs into the same `events` list, to check order), and
// `random()` replays scripted values so waits are predictable. Stepped (for a loop running in the
// background, the scheduler's): each sleep is parked until the test's `until` lets it go, one at a
// time between two looks at the test's condition, so the loop moves exactly as fast as the test
// looks at it, without spinning and without waiting on the wall clock.

import type { Timing } from '../../../crawler/timing';

export class FakeTiming implements Timing {
  readonly sleeps: number[] = [];
  /** Runs inside each sleep, before it resolves: a window onto the store between two batches. */
  onSleep: ((ms: number) => Promise<void> | void) | null = null;
  private clock: number;
  private randomIndex = 0;
  /** Stepped sleeps waiting for `until` (or `free`) to let them go, oldest first. */
  private readonly parked: (() => void)[] = [];

  constructor(
    readonly events: string[] = [],
    start = Date.parse('2026-07-01T12:00:00Z'),
    private readonly randoms: readonly number[] = [0.5],
    private stepped = false,
  ) {
    this.clock = start;
  }

  /**
   * Lets the parked loops go one step at a time until `check` holds. Between steps it yields to the
   * event loop; only when nothing is parked (the loop is busy elsewhere) does it give that work a
   * millisecond. `timeoutMs` bounds a failure, never the pace.
   */
  async until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      const next = this.parked.shift();
      if (next) {
        next();
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else {
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
      }
    }
  }

  /** No more stepping: every parked sleep and every later one returns at once (before stopping a loop). */
  free(): void {
    this.stepped = false;
    for (const release of this.parked.splice(0)) release();
  }

  now(): Date {
    return new Date(this.clock);
  }

  advance(ms: number): void {
    this.clock += ms;
  }

  random(): number {
    const v = this.randoms[this.randomIndex % this.randoms.length] ?? 0.5;
    this.randomIndex += 1;
    return v;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.events.push(`sleep:${ms}`);
    this.clock += ms;
    await this.onSleep?.(ms);
    if (signal?.aborted) return;
    // Yield to the event loop like a real timer would, without waiting for real.
    if (!this.stepped) return new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => {
      const release = (): void => {
        signal?.removeEventListener('abort', release);
        const at = this.parked.indexOf(release);
        if (at >= 0) this.parked.splice(at, 1);
        resolve();
      };
      this.parked.push(release);
      signal?.addEventListener('abort', release, { once: true });
    });
  }
}
