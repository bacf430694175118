// The videos collection. Each video is one document keyed by video id; a batch is one unordered
// bulkWrite of upserts, so a batch replayed after a crash changes nothing. `inFeed` is derived on
// write so that the feed and its version are read through one compound index each.

import type { AnyBulkWriteOperation, Collection, Db, Filter } from 'mongodb';
import { UNKNOWN_PUBLISHED_MS, type TranscriptKind, type VideoRecord, type VideoState } from '../types';
import { isFeedEntry, needsWork } from '../normalize';
import { retryOnDuplicateKey } from './errors';

export interface VideoDoc {
  _id: string;
  channelId: string;
  title: string;
  publishedAt: Date;
  language: string | null;
  kind: TranscriptKind | null;
  state: VideoState;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  fetchedAt: Date;
  transcriptHtml: string | null;
  inFeed: boolean;
}

function toRecord(d: VideoDoc): VideoRecord {
  return {
    videoId: d._id,
    channelId: d.channelId,
    title: d.title,
    publishedAt: d.publishedAt,
    transcriptHtml: d.transcriptHtml ?? null,
    language: d.language ?? null,
    kind: d.kind ?? null,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt ?? null,
    lastError: d.lastError ?? null,
    fetchedAt: d.fetchedAt,
  };
}

function toUpsert(v: VideoRecord): AnyBulkWriteOperation<VideoDoc> {
  const fields: Omit<VideoDoc, '_id'> = {
    channelId: v.channelId,
    title: v.title,
    publishedAt: v.publishedAt,
    language: v.language,
    kind: v.kind,
    state: v.state,
    attempts: v.attempts,
    nextAttemptAt: v.nextAttemptAt,
    lastError: v.lastError,
    fetchedAt: v.fetchedAt,
    transcriptHtml: v.transcriptHtml,
    inFeed: isFeedEntry(v.state, v.nextAttemptAt),
  };
  return { updateOne: { filter: { _id: v.videoId }, update: { $set: fields }, upsert: true } };
}

export class VideosCollection {
  private readonly col: Collection<VideoDoc>;

  constructor(db: Db) {
    this.col = db.collection<VideoDoc>('videos');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndexes([
      { key: { channelId: 1, publishedAt: -1 }, name: 'channel_published' },
      { key: { channelId: 1, inFeed: 1, publishedAt: -1, _id: 1 }, name: 'feed' },
      { key: { channelId: 1, inFeed: 1, fetchedAt: -1 }, name: 'feed_version' },
      // Due retries: a range on nextAttemptAt up to now. Null (never retried) sorts below every
      // date, so the range never reaches the channel's ready and given-up videos.
      { key: { channelId: 1, nextAttemptAt: 1 }, name: 'retry' },
    ]);
  }

  /**
   * Without transactions the batch is not all-or-nothing, but each write is idempotent, so the
   * whole batch may be sent again after a lost insert race.
   */
  async upsertVideos(videos: readonly VideoRecord[]): Promise<void> {
    if (videos.length === 0) return;
    const ops = videos.map(toUpsert);
    await retryOnDuplicateKey(() => this.col.bulkWrite(ops, { ordered: false }));
  }

  async listFeedEntries(channelId: string, limit: number): Promise<VideoRecord[]> {
    if (limit <= 0) return []; // limit(0) means "no limit" to MongoDB
    const docs = await this.col
      .find({ channelId, inFeed: true })
      .sort({ publishedAt: -1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toRecord);
  }

  async feedVersion(channelId: string): Promise<Date | null> {
    const doc = await this.col.findOne(
      { channelId, inFeed: true },
      { sort: { fetchedAt: -1 }, projection: { fetchedAt: 1 } },
    );
    return doc ? doc.fetchedAt : null;
  }

  async videosNeedingWork(videoIds: readonly string[], now: Date): Promise<string[]> {
    if (videoIds.length === 0) return [];
    const docs = await this.col
      .find({ _id: { $in: [...videoIds] } }, { projection: { state: 1, nextAttemptAt: 1 } })
      .toArray();
    const stored = new Map(docs.map((d) => [d._id, d]));
    return videoIds.filter((id) => {
      const d = stored.get(id);
      return d === undefined || needsWork(d.state, d.nextAttemptAt ? d.nextAttemptAt.getTime() : null, now.getTime());
    });
  }

  async storedVideoIds(videoIds: readonly string[]): Promise<string[]> {
    if (videoIds.length === 0) return [];
    const docs = await this.col.find({ _id: { $in: [...videoIds] } }, { projection: { _id: 1 } }).toArray();
    const stored = new Set(docs.map((d) => d._id));
    return videoIds.filter((id) => stored.has(id));
  }

  async videosDueForRetry(channelId: string, now: Date, limit: number): Promise<VideoRecord[]> {
    if (limit <= 0) return [];
    // The oldest publish time in the window, read from the channel_published index alone.
    const edge = await this.col
      .find({ channelId }, { projection: { _id: 0, publishedAt: 1 } })
      .sort({ publishedAt: -1 })
      .skip(limit - 1)
      .limit(1)
      .toArray();
    const filter: Filter<VideoDoc> = { channelId, nextAttemptAt: { $lte: now }, state: { $ne: 'ready' } };
    // Fewer than `limit` stored: the whole channel is the window.
    const oldest = edge[0]?.publishedAt;
    if (oldest !== undefined) filter.$or = [{ publishedAt: { $gte: oldest } }, { publishedAt: new Date(UNKNOWN_PUBLISHED_MS) }];
    const docs = await this.col.find(filter).sort({ publishedAt: -1, _id: 1 }).toArray();
    return docs.map(toRecord);
  }

  /** Records in the order of the ids asked for; unknown ids are left out. */
  async getVideos(videoIds: readonly string[]): Promise<VideoRecord[]> {
    if (videoIds.length === 0) return [];
    const docs = await this.col.find({ _id: { $in: [...videoIds] } }).toArray();
    const found = new Map(docs.map((d) => [d._id, d]));
    return [...new Set(videoIds)].flatMap((id) => {
      const d = found.get(id);
      return d ? [toRecord(d)] : [];
    });
  }
}
