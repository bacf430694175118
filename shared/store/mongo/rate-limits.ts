// The rate_limits collection: one counter document per (key, minute window), counted with an
// atomic upsert-$inc. A TTL index removes windows two minutes after they start, so nothing has
// to prune them.

import type { Collection, Db } from 'mongodb';
import type { RateLimitResult } from '../types';
import { RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';
import { isDuplicateKey } from './errors';

interface RateLimitDoc {
  /** `${keyId}:${windowStart}` */
  _id: string;
  count: number;
  expiresAt: Date;
}

export class RateLimitsCollection {
  private readonly col: Collection<RateLimitDoc>;

  constructor(db: Db) {
    this.col = db.collection<RateLimitDoc>('rate_limits');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndexes([{ key: { expiresAt: 1 }, name: 'expires', expireAfterSeconds: 0 }]);
  }

  async hitRateLimit(keyId: string, limit: number, now: Date): Promise<RateLimitResult> {
    const windowStart = windowStartOf(now);
    const count = await this.increment(`${keyId}:${windowStart}`, new Date(windowStart + 2 * RATE_WINDOW_MS));
    return rateLimitResult(count, limit, windowStart);
  }

  private async increment(id: string, expiresAt: Date): Promise<number> {
    const once = () =>
      this.col.findOneAndUpdate(
        { _id: id },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
        { upsert: true, returnDocument: 'after' },
      );
    let doc;
    try {
      doc = await once();
    } catch (err) {
      // Two first hits of a window raced to insert; the loser's retry increments the winner's document.
      if (!isDuplicateKey(err)) throw err;
      doc = await once();
    }
    if (!doc) throw new Error('rate-limit upsert returned no document');
    return doc.count;
  }
}
