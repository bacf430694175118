// The API process's one in-process cache: rendered bodies, ETags, feed states and channel
// registrations share a single least-recently-used store bounded by bytes and by entries
// (lru-cache), instead of one map per step each with its own "clear everything at N" rule. A kind
// prefixes every key, so the steps cannot read each other's entries; what a step remembers may be
// evicted at any time, and every step treats a miss as "ask the store".

import { LRUCache } from 'lru-cache';

/** Default byte budget (CACHE_BYTES / renderCacheBytes). */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** Entry bound: keeps many tiny entries from costing far more than their estimated bytes. */
export const DEFAULT_CACHE_ENTRIES = 100_000;
/** Estimated cost of a small entry (object + key): an upper bound, so the byte budget holds. */
const SMALL_ENTRY_BYTES = 512;

interface Entry {
  readonly kind: string;
  readonly value: unknown;
}

/** One kind of cached value: a typed view on the shared cache. */
export interface CacheSlot<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

export class ApiCache {
  private readonly lru: LRUCache<string, Entry>;

  constructor(opts: { maxBytes?: number; maxEntries?: number } = {}) {
    const maxSize = opts.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.lru = new LRUCache<string, Entry>({
      max: opts.maxEntries ?? DEFAULT_CACHE_ENTRIES,
      maxSize,
      // A body larger than the whole budget is not kept (it would evict everything else).
      maxEntrySize: maxSize,
      sizeCalculation: (entry, key) => (Buffer.isBuffer(entry.value) ? entry.value.length : SMALL_ENTRY_BYTES + key.length * 2),
    });
  }

  /** A typed view for one kind. Two slots of the same kind see the same entries. */
  slot<V>(kind: string): CacheSlot<V> {
    const prefix = `${kind}\u0000`;
    return {
      get: (key) => {
        const e = this.lru.get(prefix + key);
        return e !== undefined && e.kind === kind ? (e.value as V) : undefined;
      },
      set: (key, value) => void this.lru.set(prefix + key, { kind, value }),
    };
  }

  get size(): number {
    return this.lru.size;
  }

  get totalBytes(): number {
    return this.lru.calculatedSize;
  }
}
