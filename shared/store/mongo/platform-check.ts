// The platform check the API asks the crawler for: one document (_id 'platform-check') holding the
// pending request, the crawler that took it, and the last report. Each step is one conditional
// update on the server, so two crawlers cannot both take a request.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { PlatformCheckState } from '../types';
import { retryOnDuplicateKey } from './errors';

interface PlatformCheckDoc {
  _id: 'platform-check';
  requestedAt: Date | null;
  claimedBy: string | null;
  claimedAt: Date | null;
  finishedAt: Date | null;
  report: string | null;
}

const ID = 'platform-check' as const;

/** Pending: asked, and asked after the last answer. */
const pending = { requestedAt: { $ne: null }, $or: [{ finishedAt: null }, { $expr: { $lt: ['$finishedAt', '$requestedAt'] } }] };

const toState = (d: PlatformCheckDoc): PlatformCheckState => ({
  requestedAt: d.requestedAt ?? null, claimedBy: d.claimedBy ?? null, claimedAt: d.claimedAt ?? null, finishedAt: d.finishedAt ?? null, report: d.report ?? null,
});

export function platformCheckCollection(db: Db) {
  const col: Collection<PlatformCheckDoc> = db.collection<PlatformCheckDoc>('platform_check');
  return {
    async requestPlatformCheck(now) {
      await retryOnDuplicateKey(() => col.updateOne(
        { _id: ID },
        { $setOnInsert: { claimedBy: null, claimedAt: null, finishedAt: null, report: null } },
        { upsert: true },
      ));
      // A request already pending stays as it is (its claim too).
      await col.updateOne({ _id: ID, $nor: [pending] }, { $set: { requestedAt: now, claimedBy: null, claimedAt: null } });
      const doc = await col.findOne({ _id: ID });
      return toState(doc!);
    },

    async claimPlatformCheck(owner, now, staleMs) {
      const r = await col.updateOne(
        { _id: ID, ...pending, $and: [{ $or: [{ claimedBy: null }, { claimedAt: { $lt: new Date(now.getTime() - staleMs) } }] }] },
        { $set: { claimedBy: owner, claimedAt: now } },
      );
      return r.modifiedCount === 1;
    },

    async finishPlatformCheck(owner, report, now) {
      await col.updateOne({ _id: ID, claimedBy: owner }, { $set: { finishedAt: now, report, claimedBy: null, claimedAt: null } });
    },

    async getPlatformCheck() {
      const doc = await col.findOne({ _id: ID });
      return doc === null ? null : toState(doc);
    },
  } satisfies Partial<BackendMethods>;
}
