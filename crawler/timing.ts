// Time and chance, injected: the crawler never calls setTimeout or Math.random directly, so tests
// replace both and run in milliseconds, and a shutdown can cut every wait short.

import type { MsRange } from '../shared/config/crawl-profile';

export interface Timing {
  now(): Date;
  /** Resolves after `ms`, or early (without throwing) once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1), like Math.random. */
  random(): number;
}

/** The real clock. Sleeping is abortable so a SIGTERM never waits out a 90 s batch pause. */
export const realTiming: Timing = {
  now: () => new Date(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || ms <= 0) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** A whole number of milliseconds within [min, max], both ends included. */
export function pickMs(range: MsRange, random: () => number): number {
  const [min, max] = range;
  if (max <= min) return min;
  return Math.min(max, min + Math.floor(random() * (max - min + 1)));
}
