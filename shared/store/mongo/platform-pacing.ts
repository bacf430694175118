// platform_requests (one counter document per source and minute, $inc-upserted; a TTL index drops
// it two hours after its last count) and platform_state (the one cool-down document, `$max`-ed so
// a later end wins): what every process reads before a platform request.

import type { Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { PlatformRequestSource } from '../types';
import { checkedCount, hourStartMinute, minuteOf } from '../pacing-rules';
import { isDuplicateKey, retryOnDuplicateKey } from './errors';

interface RequestsDoc {
  /** `${source}:${minute}` */
  _id: string;
  source: PlatformRequestSource;
  minute: number;
  count: number;
  touchedAt: Date;
}

interface StateDoc {
  _id: 'cool-down';
  until: Date;
  reason: string;
}

/** Measured from the server's clock ($currentDate), like rate_limits: two hours after the last count. */
const IDLE_EXPIRY_SECONDS = 2 * 3600;

export async function platformPacingIndexes(db: Db): Promise<void> {
  await db.collection<RequestsDoc>('platform_requests').createIndexes([
    { key: { touchedAt: 1 }, name: 'touched_ttl', expireAfterSeconds: IDLE_EXPIRY_SECONDS },
    { key: { minute: 1, source: 1 }, name: 'minute_source' },
  ]);
}

export function platformPacingCollection(db: Db) {
  const requests = db.collection<RequestsDoc>('platform_requests');
  const state = db.collection<StateDoc>('platform_state');
  return {
    async addPlatformRequests(source, count, now) {
      if (checkedCount(count) === 0) return;
      const minute = minuteOf(now);
      await retryOnDuplicateKey(() =>
        requests.updateOne({ _id: `${source}:${minute}` }, { $inc: { count }, $set: { source, minute }, $currentDate: { touchedAt: true } }, { upsert: true }),
      );
    },
    async platformRequestsInHour(now, source) {
      const filter = { minute: { $gte: hourStartMinute(now) }, ...(source === undefined ? {} : { source }) };
      // At most 60 documents per source: summed here rather than by an aggregation.
      const docs = await requests.find(filter, { projection: { count: 1 } }).toArray();
      return docs.reduce((sum, d) => sum + d.count, 0);
    },
    async setPlatformCoolDown(until, reason) {
      const set = { $set: { until, reason: reason.slice(0, 200) } };
      // Only a later end replaces the stored one; the document is created the first time.
      const moved = await state.updateOne({ _id: 'cool-down', until: { $lt: until } }, set);
      if (moved.matchedCount > 0) return;
      try {
        await state.insertOne({ _id: 'cool-down', until, reason: reason.slice(0, 200) });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // It exists (with a later end, or another process just created it): one more conditional update.
        await state.updateOne({ _id: 'cool-down', until: { $lt: until } }, set);
      }
    },
    async platformCoolDown(now) {
      const doc = await state.findOne({ _id: 'cool-down' });
      return doc !== null && doc.until.getTime() > now.getTime() ? { until: doc.until, reason: doc.reason } : null;
    },
  } satisfies Partial<BackendMethods>;
}
