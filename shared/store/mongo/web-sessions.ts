// The web_sessions collection: one document per signed-in browser, _id the SHA-256 of its cookie's
// id. Idle expiry is measured on the caller's clock, as the SQLite store does (the API's clock set
// the cookie's lifetime); the lastSeenAt index (schema step 11) serves the sweep of idle sessions.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { WebSessionRecord } from '../types';

interface WebSessionDoc {
  _id: string;
  keyId: string;
  csrf: string;
  createdAt: Date;
  lastSeenAt: Date;
}

const toRecord = (d: WebSessionDoc): WebSessionRecord => ({ idHash: d._id, keyId: d.keyId, csrf: d.csrf, createdAt: d.createdAt, lastSeenAt: d.lastSeenAt });

export function webSessionsCollection(db: Db) {
  const col: Collection<WebSessionDoc> = db.collection<WebSessionDoc>('web_sessions');
  return {
    async putWebSession(r) {
      await col.replaceOne({ _id: r.idHash }, { keyId: r.keyId, csrf: r.csrf, createdAt: r.createdAt, lastSeenAt: r.lastSeenAt }, { upsert: true });
    },
    async touchWebSession(idHash, idleMs, now) {
      // $max: a request slower than a newer one never moves lastSeenAt back.
      const doc = await col.findOneAndUpdate(
        { _id: idHash, lastSeenAt: { $gte: new Date(now.getTime() - idleMs) } },
        { $max: { lastSeenAt: now } },
        { returnDocument: 'after' },
      );
      if (doc !== null) return toRecord(doc);
      await col.deleteOne({ _id: idHash });
      return null;
    },
    async deleteWebSession(idHash) {
      await col.deleteOne({ _id: idHash });
    },
    async deleteIdleWebSessions(idleMs, now) {
      return (await col.deleteMany({ lastSeenAt: { $lt: new Date(now.getTime() - idleMs) } })).deletedCount;
    },
  } satisfies Partial<BackendMethods>;
}
