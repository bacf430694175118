// The handle cache: handles → channel id, keyed by the lower-cased handle, and handles the
// platform said do not exist (believed for UNKNOWN_HANDLE_TTL_MS; a TTL index removes them later).

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { UNKNOWN_HANDLE_TTL_MS, unknownHandleHolds } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import { retryOnDuplicateKey } from './errors';

interface UnknownHandleDoc {
  _id: string;
  checkedAt: Date;
  /** Server time of the write, for the TTL index (never the caller's clock, see rate-limits.ts). */
  touchedAt: Date;
}

export async function handlesIndexes(db: Db): Promise<void> {
  await db.collection<UnknownHandleDoc>('unknown_handles').createIndexes([{ key: { touchedAt: 1 }, name: 'touched_ttl', expireAfterSeconds: (2 * UNKNOWN_HANDLE_TTL_MS) / 1000 }]);
}

interface HandleDoc {
  _id: string;
  channelId: string;
  resolvedAt: Date;
}

export function handlesCollection(db: Db) {
  const col: Collection<HandleDoc> = db.collection<HandleDoc>('handles');
  const unknown: Collection<UnknownHandleDoc> = db.collection<UnknownHandleDoc>('unknown_handles');
  return {
    async getHandle(handle) {
      const doc = await col.findOne({ _id: normalizeHandle(handle) });
      return doc ? doc.channelId : null;
    },

    async putHandle(handle, channelId, now) {
      const key = normalizeHandle(handle);
      await retryOnDuplicateKey(() => col.updateOne({ _id: key }, { $set: { channelId, resolvedAt: now } }, { upsert: true }));
    },

    async putUnknownHandle(handle, now) {
      const key = normalizeHandle(handle);
      await retryOnDuplicateKey(() => unknown.updateOne({ _id: key }, { $set: { checkedAt: now }, $currentDate: { touchedAt: true } }, { upsert: true }));
    },

    async isUnknownHandle(handle, now) {
      const doc = await unknown.findOne({ _id: normalizeHandle(handle) });
      return doc !== null && unknownHandleHolds(doc.checkedAt, now);
    },
  } satisfies Partial<BackendMethods>;
}
