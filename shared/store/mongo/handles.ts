// The handles collection: a cache of handle → channel id, keyed by the lower-cased handle.

import type { Collection, Db } from 'mongodb';
import { normalizeHandle } from '../normalize';
import { retryOnDuplicateKey } from './errors';

interface HandleDoc {
  _id: string;
  channelId: string;
  resolvedAt: Date;
}

export class HandlesCollection {
  private readonly col: Collection<HandleDoc>;

  constructor(db: Db) {
    this.col = db.collection<HandleDoc>('handles');
  }

  async getHandle(handle: string): Promise<string | null> {
    const doc = await this.col.findOne({ _id: normalizeHandle(handle) });
    return doc ? doc.channelId : null;
  }

  async putHandle(handle: string, channelId: string, now: Date): Promise<void> {
    const key = normalizeHandle(handle);
    await retryOnDuplicateKey(() => this.col.updateOne({ _id: key }, { $set: { channelId, resolvedAt: now } }, { upsert: true }));
  }
}
