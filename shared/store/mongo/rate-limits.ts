// The rate_limits collection: one counter document per (key, minute window), counted with an
// atomic upsert-$inc (of one hit or several at once). A TTL index removes a window two minutes
// after its last hit, so nothing has to prune them.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { checkedHits, RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';
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

export async function rateLimitsIndexes(db: Db): Promise<void> {
  await db.collection<RateLimitDoc>('rate_limits').createIndexes([{ key: { touchedAt: 1 }, name: 'touched_ttl', expireAfterSeconds: IDLE_EXPIRY_SECONDS }]);
}

export function rateLimitsCollection(db: Db) {
  const col: Collection<RateLimitDoc> = db.collection<RateLimitDoc>('rate_limits');
  /** $inc and $currentDate touch different fields, so the update is valid on insert and on match. */
  const increment = async (id: string, hits: number): Promise<number> => {
    const doc = await retryOnDuplicateKey(() =>
      col.findOneAndUpdate({ _id: id }, { $inc: { count: hits }, $currentDate: { touchedAt: true } }, { upsert: true, returnDocument: 'after' }),
    );
    if (!doc) throw new Error('rate-limit upsert returned no document');
    return doc.count;
  };
  return {
    async hitRateLimit(keyId, limit, now, hits = 1) {
      const windowStart = windowStartOf(now);
      const count = await increment(`${keyId}:${windowStart}`, checkedHits(hits));
      return rateLimitResult(count, limit, windowStart);
    },
  } satisfies Partial<BackendMethods>;
}
