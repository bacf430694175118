// The handles collection: a cache of handle → channel id, keyed by the lower-cased handle.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { normalizeHandle } from '../rules';
import { retryOnDuplicateKey } from './errors';

interface HandleDoc {
  _id: string;
  channelId: string;
  resolvedAt: Date;
}

export function handlesCollection(db: Db) {
  const col: Collection<HandleDoc> = db.collection<HandleDoc>('handles');
  return {
    async getHandle(handle) {
      const doc = await col.findOne({ _id: normalizeHandle(handle) });
      return doc ? doc.channelId : null;
    },

    async putHandle(handle, channelId, now) {
      const key = normalizeHandle(handle);
      await retryOnDuplicateKey(() => col.updateOne({ _id: key }, { $set: { channelId, resolvedAt: now } }, { upsert: true }));
    },
  } satisfies Partial<BackendMethods>;
}
