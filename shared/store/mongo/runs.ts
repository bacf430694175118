// The channel_runs collection: each finished run of a channel, newest RUNS_KEPT_PER_CHANNEL per
// channel, for the admin endpoints and the status page.

import type { Collection, Db, ObjectId } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, RUNS_KEPT_PER_CHANNEL } from '../rules';
import type { ChannelRunRecord } from '../types';

/** The record as stored, under the server's own ObjectId. */
type RunDoc = ChannelRunRecord & { _id?: ObjectId };

const toRecord = (d: RunDoc): ChannelRunRecord => ({
  channelId: d.channelId,
  owner: d.owner,
  startedAt: d.startedAt,
  endedAt: d.endedAt,
  outcome: d.outcome,
  error: d.error ?? null,
  stored: d.stored,
});

export async function runsIndexes(db: Db): Promise<void> {
  await db.collection<RunDoc>('channel_runs').createIndexes([
    { key: { channelId: 1, endedAt: -1, _id: -1 }, name: 'channel_ended' },
    { key: { endedAt: -1, _id: -1 }, name: 'ended' },
  ]);
}

export function runsCollection(db: Db) {
  const col: Collection<RunDoc> = db.collection<RunDoc>('channel_runs');
  return {
    async recordRun(run) {
      await col.insertOne({ ...run });
      // What fell below the channel's newest RUNS_KEPT_PER_CHANNEL: usually one document.
      const old = await col.find({ channelId: run.channelId }, { projection: { _id: 1 } }).sort({ endedAt: -1, _id: -1 }).skip(RUNS_KEPT_PER_CHANNEL).toArray();
      if (old.length > 0) await col.deleteMany({ _id: { $in: old.map((d) => d._id!) } });
    },

    async listRuns(channelId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await col.find(channelId === null ? {} : { channelId }).sort({ endedAt: -1, _id: -1 }).limit(limit).toArray();
      return docs.map(toRecord);
    },
  } satisfies Partial<BackendMethods>;
}
