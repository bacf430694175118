// Per-process coalescing of rate-limit hits: the requests of one key that reach the limiter in the
// same event-loop turn become ONE store call that adds all their hits at once. The store's add is
// atomic (across processes too), so the batch owns consecutive counts, and request i of n (arrival
// order) gets count = after - n + i: exactly what n sequential calls would have answered. Without
// this, every request paid for its own SQLite upsert, the largest cost left on the hot path.
//
// Batches are flushed with setImmediate, not process.nextTick: Node dispatches every request whose
// bytes arrived in one poll phase before the check phase runs, so setImmediate gathers requests
// from many connections, while a nextTick flush runs after each socket's callback and so almost
// always carries one hit. The added wait is at most the rest of the current turn.
//
// A batch counts in the minute window of its FIRST arrival's `now`: a request that arrives in the
// same turn just after a minute boundary is counted in the window that just ended (a turn lasts
// milliseconds; a client sees at worst one request counted a minute early).

import type { RateLimitResult, Store } from '../../shared/store/types';
import { hitOfBatch } from '../../shared/store/rate-window';

export type HitStore = Pick<Store, 'hitRateLimit'>;

export interface RateCounter {
  /** Counts one request of `keyId`; answers as the store would for this request alone. */
  hit(keyId: string, limit: number, now: Date): Promise<RateLimitResult>;
}

interface Waiter {
  limit: number;
  resolve(result: RateLimitResult): void;
  reject(err: unknown): void;
}

interface Batch {
  now: Date;
  waiters: Waiter[];
}

export function coalescingCounter(store: HitStore): RateCounter {
  let pending = new Map<string, Batch>();

  const flush = (): void => {
    const batches = pending;
    pending = new Map();
    for (const [keyId, batch] of batches) void send(keyId, batch);
  };

  // Never rejects: a store failure (thrown or rejected) is handed to every waiter of the batch.
  const send = async (keyId: string, { now, waiters }: Batch): Promise<void> => {
    const n = waiters.length;
    try {
      const last = await store.hitRateLimit(keyId, waiters[0]!.limit, now, n);
      // Each request is judged by its own limit, in case the key was reloaded within the turn.
      for (let i = 0; i < n; i++) waiters[i]!.resolve(hitOfBatch(last, n, i + 1, waiters[i]!.limit));
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  };

  return {
    hit(keyId, limit, now) {
      return new Promise<RateLimitResult>((resolve, reject) => {
        if (pending.size === 0) setImmediate(flush);
        const batch = pending.get(keyId);
        if (batch) batch.waiters.push({ limit, resolve, reject });
        else pending.set(keyId, { now, waiters: [{ limit, resolve, reject }] });
      });
    },
  };
}

const counters = new WeakMap<HitStore, RateCounter>();

/** The one counter of this store in this process, so that every keyed route shares its batches. */
export function counterFor(store: HitStore): RateCounter {
  let counter = counters.get(store);
  if (!counter) counters.set(store, (counter = coalescingCounter(store)));
  return counter;
}
