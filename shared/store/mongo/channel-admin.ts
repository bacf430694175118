// What the operator's endpoints ask of the channels and their videos: pages of channels, the
// failing ones first, video counts and window coverage, "crawl it now", "forget it", a purge in
// bounded batches, the queue at a glance and the store's size.

import type { Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, noVideos } from '../rules';
import type { ChannelStats, VideoState } from '../types';
import { toRecord, type ChannelDoc } from './channels';
import type { StoreClock } from './clock';
import type { TranscriptDoc } from './transcripts';
import type { VideoDoc } from './videos';

export async function channelAdminIndexes(db: Db): Promise<void> {
  await db.collection<ChannelDoc>('channels').createIndexes([{ key: { consecutiveFailures: -1, _id: 1 }, name: 'failures' }]);
}

export function channelAdmin(db: Db, clock: StoreClock) {
  const channels = db.collection<ChannelDoc>('channels');
  const videos = db.collection<VideoDoc>('videos');
  const transcripts = db.collection<TranscriptDoc>('transcripts');
  const subscriptions = db.collection<{ channelId: string | null }>('subscriptions');
  const searchDocs = db.collection<{ _id: string }>('search');
  const languages = db.collection<{ _id: string; channelId: string }>('channel_languages');
  const leased = (now: Date) => ({ leaseOwner: { $ne: null }, leaseExpiresAt: { $gt: now } });
  return {
    async listChannels(after, limit) {
      if (asksNothing(limit)) return [];
      const docs = await channels.find(after === null ? {} : { _id: { $gt: after } }).sort({ _id: 1 }).limit(limit).toArray();
      return docs.map(toRecord);
    },

    async listChannelsByFailures(limit) {
      if (asksNothing(limit)) return [];
      const docs = await channels.find({}).sort({ consecutiveFailures: -1, _id: 1 }).limit(limit).toArray();
      return docs.map(toRecord);
    },

    async channelStats(list) {
      return Promise.all(
        list.map(async ({ channelId, wanted }): Promise<ChannelStats> => {
          const counts = noVideos();
          const byState = await videos.aggregate<{ _id: VideoState; n: number }>([{ $match: { channelId } }, { $group: { _id: '$state', n: { $sum: 1 } } }]).toArray();
          for (const r of byState) if (r._id in counts) counts[r._id] = r.n;
          // The window as the crawler sees it: the newest `wanted` regular videos (no kind = regular).
          const window = wanted <= 0 ? [] : await videos
            .find({ channelId, videoKind: { $in: ['regular', null] } }, { projection: { inFeed: 1 } })
            .sort({ publishedAt: -1, _id: 1 })
            .limit(wanted)
            .toArray();
          const followers = await subscriptions.countDocuments({ channelId });
          return { channelId, videos: counts, window: window.length, windowShown: window.filter((d) => d.inFeed).length, followers };
        }),
      );
    },

    /**
     * Due now on the server's clock. A channel held by a crawler is also marked as asked for less than
     * is wanted now (claimedWanted 0, the mark a larger max_items leaves), so its release keeps it due
     * instead of setting the next due time from the run that was already under way.
     */
    async makeChannelDue(channelId, now) {
      const update = [{ $set: { dueAt: clock.now(now), claimedWanted: { $cond: [{ $eq: [{ $ifNull: ['$leaseOwner', null] }, null] }, '$claimedWanted', 0] } } }];
      return (await channels.updateOne({ _id: channelId }, update)).matchedCount === 1;
    },

    async removeChannel(channelId) {
      await languages.deleteMany({ channelId });
      await db.collection('language_asks').deleteMany({ channelId });
      return (await channels.deleteOne({ _id: channelId })).deletedCount === 1;
    },

    /**
     * Transcripts and search documents first: a purge cut short leaves videos to delete next time,
     * never a transcript or search hit without its video.
     */
    async purgeChannelVideos(channelId, limit) {
      if (asksNothing(limit)) return 0;
      const ids = (await videos.find({ channelId }, { projection: { _id: 1 } }).limit(limit).toArray()).map((d) => d._id);
      if (ids.length === 0) return 0;
      await transcripts.deleteMany({ videoId: { $in: ids } });
      await searchDocs.deleteMany({ _id: { $in: ids } });
      return (await videos.deleteMany({ _id: { $in: ids } })).deletedCount;
    },

    async queueSummary(now) {
      const [total, running, dueNow, next] = await Promise.all([
        channels.countDocuments({}),
        channels.countDocuments(leased(now)),
        channels.countDocuments({ dueAt: { $lte: now }, $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lte: now } }] }),
        channels.findOne({ dueAt: { $gt: now } }, { sort: { dueAt: 1 }, projection: { dueAt: 1 } }),
      ]);
      return { channels: total, running, dueNow, nextDueAt: next?.dueAt ?? null };
    },

    /** dbStats may be refused to a user without the privilege (hosted clusters): the size is then unknown. */
    async storeSize() {
      const [c, v, t] = await Promise.all([channels.countDocuments({}), videos.countDocuments({}), transcripts.countDocuments({})]);
      let bytes: number | null;
      try {
        const stats = await db.command({ dbStats: 1 });
        const sum = Number(stats.dataSize ?? NaN) + Number(stats.indexSize ?? NaN);
        bytes = Number.isFinite(sum) ? sum : null;
      } catch {
        bytes = null;
      }
      return { channels: c, videos: v, transcripts: t, bytes };
    },
  } satisfies Partial<BackendMethods>;
}
