// A key's imported channels become crawler work like any other new channel the key asks for: each
// one the store does not know is registered under the key (so it counts in newChannelsOfKey with the
// key's feed requests) and awaited by it, so the crawler serves it round-robin with every other
// key's awaited work; at most `perKeyHour` new ones a key in any hour, the rest waiting in the key's
// own queue (oldest first) for the hour to make room. A queued channel someone else has made known
// meanwhile leaves the queue at once and costs nothing. The API releases right after an import; the
// crawler every RELEASE_EVERY_MS (the hour makes room as it slides). Written once over the Store
// interface for both backends; two processes releasing together can pass the allowance by one
// batch at most, as two feed requests can pass CRAWL_NEW_CHANNELS_PER_KEY_HOUR.

import type { Store } from './types';

/** CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR's default. */
export const DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR = 100;
/** How often the crawler gives keys' queues the room their hour has made. */
export const RELEASE_EVERY_MS = 15_000;
const HOUR_MS = 3_600_000;
/** Queued imports read at a time. */
const BATCH = 100;

export type ImportQueueStore = Pick<Store, 'importQueues' | 'queuedImports' | 'newChannelsOfKey' | 'getChannel' | 'registerChannel' | 'dequeueImports'>;

export interface ImportAllowance {
  /** New channels one key's imports may give the crawler in any hour (CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR). */
  readonly perKeyHour: number;
  /** The wanted count a released channel starts with. */
  readonly wanted: number;
}

/** Releases what the allowance has room for, for `keyId` or every key with a queue; answers how many left a queue. */
export async function releaseImports(store: ImportQueueStore, allowance: ImportAllowance, now: Date, keyId: string | null = null): Promise<number> {
  const keys = keyId !== null ? [keyId] : (await store.importQueues()).filter((q) => q.queued > 0).map((q) => q.keyId);
  let released = 0;
  for (const key of keys) released += await releaseKey(store, allowance, now, key);
  return released;
}

async function releaseKey(store: ImportQueueStore, allowance: ImportAllowance, now: Date, keyId: string): Promise<number> {
  let room = allowance.perKeyHour - (await store.newChannelsOfKey(keyId, new Date(now.getTime() - HOUR_MS))).count;
  let released = 0;
  for (;;) {
    const batch = await store.queuedImports(keyId, BATCH);
    const leaving: string[] = [];
    for (const q of batch) {
      if ((await store.getChannel(q.channelId)) === null) {
        if (room <= 0) break;
        await store.registerChannel({ channelId: q.channelId, kind: q.kind, wanted: allowance.wanted, keyId }, now);
        room -= 1;
      }
      leaving.push(q.channelId);
    }
    await store.dequeueImports(keyId, leaving, now);
    released += leaving.length;
    // A batch cut short by the allowance, or the end of the queue.
    if (leaving.length < BATCH) return released;
  }
}
