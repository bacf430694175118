// Injected time for crawler tests: sleeping advances a fake clock instead of waiting, every sleep is
// recorded (with whatever else the test logs into the same `events` list, to check order), and
// `random()` replays scripted values so waits are predictable.

import type { Timing } from '../../../crawler/timing';

export class FakeTiming implements Timing {
  readonly sleeps: number[] = [];
  /** Runs inside each sleep, before it resolves: a window onto the store between two batches. */
  onSleep: ((ms: number) => Promise<void> | void) | null = null;
  private clock: number;
  private randomIndex = 0;

  constructor(
    readonly events: string[] = [],
    start = Date.parse('2026-07-01T12:00:00Z'),
    private readonly randoms: readonly number[] = [0.5],
    /** Real milliseconds each sleep takes (scheduler tests, so idle polling does not spin). */
    private readonly realDelayMs = 0,
  ) {
    this.clock = start;
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
    // Yield to the event loop like a real timer would, without waiting for real.
    if (signal?.aborted) return;
    await new Promise<void>((resolve) => {
      if (this.realDelayMs <= 0) return void setImmediate(resolve);
      const t = setTimeout(done, this.realDelayMs);
      function done(): void {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
