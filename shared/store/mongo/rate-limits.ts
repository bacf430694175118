// The rate_limits collection: one counter document per key, holding the current minute window and
// its count, counted with one atomic upsert pipeline (of one hit or several at once). The window is
// the minute on the server's clock (clock.ts), so API hosts with skewed clocks count one minute's
// requests together. A TTL index removes a key's document two minutes after its last hit.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { checkedHits, peekResult, RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';
import { lit, type StoreClock } from './clock';
import { retryOnDuplicateKey } from './errors';

interface RateLimitDoc {
  /** The key's digest (keyId). Documents of an earlier layout (`${keyId}:${windowStart}`) expire. */
  _id: string;
  /** Start of the minute window `count` belongs to. */
  windowStart: Date;
  count: number;
  /** Server time of the last hit. */
  touchedAt: Date;
}

/**
 * The TTL monitor compares against the server's clock, so the expiry is measured from the server's
 * clock too, never from the caller's `now` (a test's fixed `now` in the past must not let the
 * monitor delete a window that is still counting). A window gets hits for 60 s at most, so it is
 * never idle for two minutes while it is current.
 */
const IDLE_EXPIRY_SECONDS = (2 * RATE_WINDOW_MS) / 1000;

export async function rateLimitsIndexes(db: Db): Promise<void> {
  await db.collection<RateLimitDoc>('rate_limits').createIndexes([{ key: { touchedAt: 1 }, name: 'touched_ttl', expireAfterSeconds: IDLE_EXPIRY_SECONDS }]);
}

export function rateLimitsCollection(db: Db, clock: StoreClock) {
  const col: Collection<RateLimitDoc> = db.collection<RateLimitDoc>('rate_limits');
  return {
    async hitRateLimit(keyId, limit, now, hits = 1) {
      const n = checkedHits(hits);
      const present = clock.now(now);
      // The minute containing the present: present - (present mod 60 s).
      const windowStart = { $subtract: [present, { $mod: [{ $toLong: present }, RATE_WINDOW_MS] }] };
      // One stage: every expression reads the document as it was, so `$windowStart` is the old
      // window (missing on insert) and a new minute starts the count again.
      const doc = await retryOnDuplicateKey(() =>
        col.findOneAndUpdate(
          { _id: keyId },
          [{ $set: { count: { $cond: [{ $eq: ['$windowStart', windowStart] }, { $add: ['$count', lit(n)] }, lit(n)] }, windowStart, touchedAt: '$$NOW' } }],
          { upsert: true, returnDocument: 'after' },
        ),
      );
      if (!doc) throw new Error('rate-limit upsert returned no document');
      return rateLimitResult(doc.count, limit, doc.windowStart.getTime());
    },
    async peekRateLimit(keyId, limit, now) {
      const present = clock.now(now);
      const windowStart = { $subtract: [present, { $mod: [{ $toLong: present }, RATE_WINDOW_MS] }] };
      // The same minute as hitRateLimit's, on the same clock: a document of an earlier minute holds 0.
      const [doc] = await col
        .aggregate<{ count: number; windowStart: Date }>([{ $match: { _id: keyId } }, { $project: { _id: 0, windowStart, count: { $cond: [{ $eq: ['$windowStart', windowStart] }, '$count', 0] } } }])
        .toArray();
      return peekResult(doc?.count ?? 0, limit, doc?.windowStart.getTime() ?? windowStartOf(now));
    },
  } satisfies Partial<BackendMethods>;
}
