// The hourly_counts collection: videos stored and platform requests per UTC hour (the hour's start
// is the key), added to with an atomic upsert-$inc, for the status page's chart.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { hourOf, HOURLY_KEPT_MS } from '../rules';

interface CountDoc {
  _id: Date;
  videosStored: number;
  platformRequests: number;
}

export function hourlyCountsCollection(db: Db) {
  const col: Collection<CountDoc> = db.collection<CountDoc>('hourly_counts');
  return {
    async addHourlyCounts(counts, now) {
      if (counts.videosStored === 0 && counts.platformRequests === 0) return;
      const hour = hourOf(now);
      await col.updateOne({ _id: new Date(hour) }, { $inc: { videosStored: counts.videosStored, platformRequests: counts.platformRequests } }, { upsert: true });
      await col.deleteMany({ _id: { $lt: new Date(hour - HOURLY_KEPT_MS) } });
    },

    async hourlyCounts(since) {
      const docs = await col.find({ _id: { $gte: since } }).sort({ _id: 1 }).toArray();
      return docs.map((d) => ({ hour: d._id, videosStored: d.videosStored, platformRequests: d.platformRequests }));
    },
  } satisfies Partial<BackendMethods>;
}
