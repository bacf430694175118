// The rate_limits collection: one counter document per (key, minute window), counted with an
// atomic upsert-$inc (of one hit or several at once). A TTL index removes a window two minutes
// after its last hit, so nothing has to prune them.

import type { Collection, Db } from 'mongodb';
import type { RateLimitResult } from '../types';
import { RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';
import { retryOnDuplicateKey } from './errors';

interface RateLimitDoc {
  /** `${keyId}:${windowStart}` */
  _id: string;
  count: number;
  /** Server time of the last hit. */
  touchedAt: Date;
}

/**
 * The TTL monitor compares against the server's clock, so the expiry is measured from the server's
 * clock too ($currentDate), never from the caller's `now`: a caller clock running behind (or a test's
 * fixed `now` in the past) must not let the monitor delete a window that is still counting. A window
 * gets hits for 60 s at most, so it is never idle for two minutes while it is current.
 */
const IDLE_EXPIRY_SECONDS = (2 * RATE_WINDOW_MS) / 1000;

export class RateLimitsCollection {
  private readonly col: Collection<RateLimitDoc>;

  constructor(db: Db) {
    this.col = db.collection<RateLimitDoc>('rate_limits');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndexes([{ key: { touchedAt: 1 }, name: 'touched_ttl', expireAfterSeconds: IDLE_EXPIRY_SECONDS }]);
  }

  /** `hits` is already checked (a positive integer) by the store. */
  async hitRateLimit(keyId: string, limit: number, now: Date, hits: number): Promise<RateLimitResult> {
    const windowStart = windowStartOf(now);
    const count = await this.increment(`${keyId}:${windowStart}`, hits);
    return rateLimitResult(count, limit, windowStart);
  }

  /** $inc and $currentDate touch different fields, so the update is valid on insert and on match. */
  private async increment(id: string, hits: number): Promise<number> {
    const doc = await retryOnDuplicateKey(() =>
      this.col.findOneAndUpdate(
        { _id: id },
        { $inc: { count: hits }, $currentDate: { touchedAt: true } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (!doc) throw new Error('rate-limit upsert returned no document');
    return doc.count;
  }
}
