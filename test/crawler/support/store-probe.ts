// Wraps a real store to watch and disturb it: records the size of every upsert, and while `down`
// is set, every call fails with StoreUnavailableError as during a database outage.

import { StoreUnavailableError, type Store } from '../../../shared/store/types';

export interface StoreProbe {
  store: Store;
  /** Sizes of the upsertVideos calls, in order. */
  upserts: number[];
  /** Method names called while down (each call failed). */
  failedCalls: string[];
  down: boolean;
  /** Runs after each successful upsertVideos (e.g. to switch the fake platform between batches). */
  afterUpsert: ((count: number) => void) | null;
  /** Replace one method's answer (e.g. renewLease → false). */
  override: Partial<Record<keyof Store, (...args: unknown[]) => Promise<unknown>>>;
}

export function probeStore(inner: Store): StoreProbe {
  const probe: StoreProbe = { store: inner, upserts: [], failedCalls: [], down: false, afterUpsert: null, override: {} };
  probe.store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const name = prop as keyof Store;
      return async (...args: unknown[]) => {
        if (probe.down && name !== 'close') {
          probe.failedCalls.push(String(name));
          throw new StoreUnavailableError('database is locked (test outage)');
        }
        if (name === 'upsertVideos') probe.upserts.push((args[0] as unknown[]).length);
        const replaced = probe.override[name];
        if (replaced) return replaced(...args);
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (name === 'upsertVideos') probe.afterUpsert?.((args[0] as unknown[]).length);
        return result;
      };
    },
  });
  return probe;
}
