// Push (WebSub): the per-channel subscription record the crawler's subscriber keeps and the API's
// callback reads (`websub`, keyed by channel id, token unique), and the videos the hub notified,
// due for a fetch without a listing (`pushed_videos`, keyed by video id). Every write is one
// single-document atomic operation.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { PushedVideo, WebSubRecord } from '../types';
import type { ChannelDoc } from './channels';
import { retryOnDuplicateKey } from './errors';
import type { VideoDoc } from './videos';

/** The record under its channel id as `_id`. */
type WebSubDoc = Omit<WebSubRecord, 'channelId'> & { _id: string };

/** The record under its video id as `_id`, and the lease of the crawler fetching it. */
type PushedDoc = Omit<PushedVideo, 'videoId'> & { _id: string; leaseOwner: string | null; leaseExpiresAt: Date | null };

const toRecord = (d: WebSubDoc): WebSubRecord => ({
  channelId: d._id, topic: d.topic, token: d.token, secret: d.secret, status: d.status, requestedAt: d.requestedAt ?? null,
  verifiedAt: d.verifiedAt ?? null, leaseSeconds: d.leaseSeconds ?? null, leaseExpiresAt: d.leaseExpiresAt ?? null,
  nextActionAt: d.nextActionAt, failures: d.failures ?? 0, lastError: d.lastError ?? null, updatedAt: d.updatedAt,
});

const toPushed = (d: PushedDoc): PushedVideo => ({
  videoId: d._id, channelId: d.channelId, title: d.title, publishedAt: d.publishedAt ?? null, dueAt: d.dueAt, attempts: d.attempts ?? 0,
});

export async function webSubIndexes(db: Db): Promise<void> {
  await Promise.all([
    db.collection<WebSubDoc>('websub').createIndexes([
      { key: { token: 1 }, name: 'token', unique: true },
      { key: { nextActionAt: 1, _id: 1 }, name: 'next_action' },
    ]),
    db.collection<PushedDoc>('pushed_videos').createIndexes([{ key: { dueAt: 1, _id: 1 }, name: 'due' }]),
  ]);
}

export function webSubCollection(db: Db) {
  const col: Collection<WebSubDoc> = db.collection<WebSubDoc>('websub');
  const pushed: Collection<PushedDoc> = db.collection<PushedDoc>('pushed_videos');
  const videos: Collection<VideoDoc> = db.collection<VideoDoc>('videos');
  const channels: Collection<ChannelDoc> = db.collection<ChannelDoc>('channels');
  return {
    async putWebSub(r) {
      const { channelId, ...rest } = r;
      await retryOnDuplicateKey(() => col.replaceOne({ _id: channelId }, { ...rest }, { upsert: true }));
    },

    async webSubStates(channelIds, limit) {
      if (limit <= 0 || (channelIds !== null && channelIds.length === 0)) return [];
      const filter = channelIds === null ? {} : { _id: { $in: [...channelIds] } };
      return (await col.find(filter).sort({ _id: 1 }).limit(limit).toArray()).map(toRecord);
    },

    async webSubByToken(token) {
      const doc = await col.findOne({ token });
      return doc ? toRecord(doc) : null;
    },

    async deleteWebSub(channelId, token) {
      return (await col.deleteOne({ _id: channelId, token })).deletedCount === 1;
    },

    async webSubDue(now, limit) {
      if (limit <= 0) return [];
      return (await col.find({ nextActionAt: { $lte: now } }).sort({ nextActionAt: 1, _id: 1 }).limit(limit).toArray()).map(toRecord);
    },

    async pushVideos(list, now) {
      if (list.length === 0) return;
      await pushed.bulkWrite(
        list.map((v) => ({
          updateOne: {
            filter: { _id: v.videoId },
            update: [
              {
                $set: {
                  channelId: { $literal: v.channelId },
                  title: { $literal: v.title },
                  publishedAt: v.publishedAt === null ? { $ifNull: ['$publishedAt', { $literal: null }] } : { $literal: v.publishedAt },
                  dueAt: { $min: [{ $ifNull: ['$dueAt', { $literal: now }] }, { $literal: now }] },
                  attempts: { $ifNull: ['$attempts', { $literal: 0 }] },
                  leaseOwner: { $ifNull: ['$leaseOwner', { $literal: null }] },
                  leaseExpiresAt: { $ifNull: ['$leaseExpiresAt', { $literal: null }] },
                },
              },
            ],
            upsert: true,
          },
        })),
        { ordered: false },
      );
    },

    async claimPushedVideo(owner, leaseMs, now) {
      const doc = await pushed.findOneAndUpdate(
        { dueAt: { $lte: now }, $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lte: now } }] },
        { $set: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) } },
        { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
      );
      return doc ? toPushed(doc) : null;
    },

    async finishPushedVideo(videoId, owner, nextAt) {
      if (nextAt === null) await pushed.deleteOne({ _id: videoId, leaseOwner: owner });
      else await pushed.updateOne({ _id: videoId, leaseOwner: owner }, { $set: { dueAt: nextAt, leaseOwner: null, leaseExpiresAt: null }, $inc: { attempts: 1 } });
    },

    async removeFromFeeds(videoIds, now) {
      if (videoIds.length === 0) return 0;
      await pushed.deleteMany({ _id: { $in: [...videoIds] } });
      const res = await videos.updateMany(
        { _id: { $in: [...videoIds] } },
        { $set: { state: 'unavailable', nextAttemptAt: null, lastError: 'deleted on the platform (hub)', fetchedAt: now, inFeed: false } },
      );
      return res.matchedCount;
    },

    async pollChannelNow(channelId, now) {
      await channels.updateOne({ _id: channelId, dueAt: { $gt: now } }, { $set: { dueAt: now } });
    },
  } satisfies Partial<BackendMethods>;
}
