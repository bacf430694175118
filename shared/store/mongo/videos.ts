// The videos collection. Each video is one document keyed by video id; a batch is one unordered
// bulkWrite of upserts, so a batch replayed after a crash changes nothing. `inFeed` is derived on
// write so that the feed and its version are read through one compound index each.

import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, DEFAULT_FEED_KINDS, inInputOrder, inRetryWindow, isFeedEntry, needsWork, recordsInInputOrder, retryEdgeOffset } from '../rules';
import { UNKNOWN_PUBLISHED_MS, type TranscriptKind, type TranscriptRecord, type VideoKind, type VideoRecord, type VideoState } from '../types';
import type { BatchWriter } from './batch';
import { retryOnDuplicateKey } from './errors';
import { searchDocUpdates, type SearchDoc } from './search';
import { transcriptRecordOf, transcriptUpserts, type TranscriptDoc } from './transcripts';

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
  /** Only on documents written before transcripts were stored once; legacy-transcripts.ts converts and removes it. */
  transcriptHtml?: string | null;
  /** Missing on documents from before kinds were recorded (counted as regular). */
  videoKind?: VideoKind | null;
  durationSeconds?: number | null;
  description?: string | null;
  /** Missing on documents from before offered languages were recorded. */
  offeredLanguages?: string[] | null;
  inFeed: boolean;
}

export function toRecord(d: VideoDoc): VideoRecord {
  return {
    videoId: d._id,
    channelId: d.channelId,
    title: d.title,
    publishedAt: d.publishedAt,
    language: d.language ?? null,
    kind: d.kind ?? null,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt ?? null,
    lastError: d.lastError ?? null,
    fetchedAt: d.fetchedAt,
    videoKind: d.videoKind ?? null,
    durationSeconds: d.durationSeconds ?? null,
    description: d.description ?? null,
    ...(d.offeredLanguages == null ? {} : { offeredLanguages: d.offeredLanguages }),
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
    videoKind: v.videoKind,
    durationSeconds: v.durationSeconds,
    description: v.description,
    offeredLanguages: v.offeredLanguages == null ? null : [...v.offeredLanguages],
    inFeed: isFeedEntry(v.state, v.nextAttemptAt),
  };
  return { updateOne: { filter: { _id: v.videoId }, update: { $set: fields }, upsert: true } };
}

export async function videosIndexes(db: Db): Promise<void> {
  await db.collection<VideoDoc>('videos').createIndexes([
    { key: { channelId: 1, publishedAt: -1 }, name: 'channel_published' },
    { key: { channelId: 1, inFeed: 1, publishedAt: -1, _id: 1 }, name: 'feed' },
    { key: { channelId: 1, inFeed: 1, fetchedAt: -1 }, name: 'feed_version' },
    // Due retries: a range on nextAttemptAt up to now. Null (never retried) sorts below every
    // date, so the range never reaches the channel's ready and given-up videos.
    { key: { channelId: 1, nextAttemptAt: 1 }, name: 'retry' },
  ]);
}

/** A channel's feed version: moved by the last write of each batch (batch.ts). */
interface FeedVersionDoc {
  _id: string;
  version: Date;
}

/**
 * Per channel of the batch: a version of at least the newest fetchedAt of its feed entries (created
 * if missing); a batch with no feed entry of a channel still moves a version the channel already
 * has, since it may have taken an entry out of the feed.
 */
function feedVersionMoves(videos: readonly VideoRecord[]): AnyBulkWriteOperation<FeedVersionDoc>[] {
  const byChannel = new Map<string, { newest: Date; entry: boolean }>();
  for (const v of videos) {
    const entry = isFeedEntry(v.state, v.nextAttemptAt);
    const seen = byChannel.get(v.channelId);
    if (!seen) byChannel.set(v.channelId, { newest: v.fetchedAt, entry });
    else byChannel.set(v.channelId, { newest: v.fetchedAt > seen.newest ? v.fetchedAt : seen.newest, entry: seen.entry || entry });
  }
  return [...byChannel].map(([channelId, { newest, entry }]) => ({
    updateOne: { filter: { _id: channelId }, update: { $max: { version: newest } }, upsert: entry },
  }));
}

export function videosCollection(db: Db, batch: BatchWriter) {
  const col: Collection<VideoDoc> = db.collection<VideoDoc>('videos');
  const transcriptCol = db.collection<TranscriptDoc>('transcripts');
  const searchCol = db.collection<SearchDoc>('search');
  const versions: Collection<FeedVersionDoc> = db.collection<FeedVersionDoc>('feed_versions');
  return {
    /**
     * One batch, visible to readers at once (batch.ts): in a transaction where the deployment has
     * them, else written in an order whose last write moves the feed version. Every write is
     * idempotent, so the whole batch may be sent again after a failure or a lost insert race.
     */
    async upsertVideos(videos, transcripts = []) {
      await batch.run(async (session) => {
        // Transcripts first: a crash in between leaves a video not yet ready, fetched again, rather
        // than a ready video whose languages were never stored.
        if (!asksNothing(transcripts)) {
          const tops = transcriptUpserts(transcripts);
          await retryOnDuplicateKey(() => transcriptCol.bulkWrite(tops, { ordered: false, session }));
        }
        if (!asksNothing(videos)) {
          const ops = videos.map(toUpsert);
          await retryOnDuplicateKey(() => col.bulkWrite(ops, { ordered: false, session }));
        }
        // The search documents next, rebuilt from what is now stored (every language of each
        // video), so a replayed batch rebuilds them the same way.
        const affected = [...new Set([...videos.map((v) => v.videoId), ...transcripts.map((t) => t.videoId)])];
        const [stored, texts] = await Promise.all([
          col.find({ _id: { $in: affected } }, { session }).toArray(),
          transcriptCol.find({ videoId: { $in: affected } }, { session }).toArray(),
        ]);
        const present = new Set(stored.map((d) => d._id));
        const updates = [
          ...searchDocUpdates(stored.map(toRecord), texts.map(transcriptRecordOf).filter((t): t is TranscriptRecord => t !== null)),
          ...affected.filter((id) => !present.has(id)).map((id): AnyBulkWriteOperation<SearchDoc> => ({ deleteOne: { filter: { _id: id } } })),
        ];
        if (updates.length > 0) await retryOnDuplicateKey(() => searchCol.bulkWrite(updates, { ordered: false, session }));
        // The feed versions last.
        const moves = feedVersionMoves(videos);
        if (moves.length > 0) await retryOnDuplicateKey(() => versions.bulkWrite(moves, { ordered: false, session }));
      });
    },

    async listFeedEntries(channelId, limit, kinds = DEFAULT_FEED_KINDS) {
      if (asksNothing(limit) || asksNothing(kinds)) return [];
      // A missing or null kind counts as regular (rules.ts isShownKind); `$in: [null]` matches both.
      const shown: (VideoKind | null)[] = kinds.includes('regular') ? [...kinds, null] : [...kinds];
      const docs = await col.find({ channelId, inFeed: true, videoKind: { $in: shown } }).sort({ publishedAt: -1, _id: 1 }).limit(limit).toArray();
      return docs.map(toRecord);
    },

    /** The version the last batch set; for a channel stored before versions were, its newest entry's fetchedAt. */
    async feedVersion(channelId) {
      const version = await versions.findOne({ _id: channelId });
      if (version) return version.version;
      const doc = await col.findOne({ channelId, inFeed: true }, { sort: { fetchedAt: -1 }, projection: { fetchedAt: 1 } });
      return doc ? doc.fetchedAt : null;
    },

    /** From the feed_written index (subscriptions.ts creates it). */
    async newestFeedWrite() {
      const doc = await col.findOne({ inFeed: true }, { sort: { fetchedAt: -1 }, projection: { fetchedAt: 1 } });
      return doc ? doc.fetchedAt : null;
    },

    async videosNeedingWork(videoIds, now) {
      if (asksNothing(videoIds)) return [];
      const docs = await col.find({ _id: { $in: [...videoIds] } }, { projection: { state: 1, nextAttemptAt: 1 } }).toArray();
      const stored = new Map(docs.map((d) => [d._id, d]));
      return inInputOrder(videoIds, (id) => {
        const d = stored.get(id);
        return d === undefined || needsWork(d.state, d.nextAttemptAt ?? null, now);
      });
    },

    async storedVideoIds(videoIds) {
      if (asksNothing(videoIds)) return [];
      const docs = await col.find({ _id: { $in: [...videoIds] } }, { projection: { _id: 1 } }).toArray();
      const stored = new Set(docs.map((d) => d._id));
      return inInputOrder(videoIds, (id) => stored.has(id));
    },

    async recentPublishTimes(channelId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await col
        .find({ channelId, publishedAt: { $gt: new Date(UNKNOWN_PUBLISHED_MS) } }, { projection: { _id: 0, publishedAt: 1 } })
        .sort({ publishedAt: -1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => d.publishedAt);
    },

    async videosDueForRetry(channelId, now, limit) {
      if (asksNothing(limit)) return [];
      // The publish time of the window's edge, read from the channel_published index alone.
      const edge = await col
        .find({ channelId }, { projection: { _id: 0, publishedAt: 1 } })
        .sort({ publishedAt: -1 })
        .skip(retryEdgeOffset(limit))
        .limit(1)
        .toArray();
      // Due videos are few: the retry index finds them; the retry window is applied to those found.
      const docs = await col.find({ channelId, nextAttemptAt: { $lte: now }, state: { $ne: 'ready' } }).sort({ publishedAt: -1, _id: 1 }).toArray();
      return docs.map(toRecord).filter((v) => inRetryWindow(v.publishedAt, edge[0]?.publishedAt, UNKNOWN_PUBLISHED_MS));
    },

    async getVideos(videoIds) {
      if (asksNothing(videoIds)) return [];
      const docs = await col.find({ _id: { $in: [...videoIds] } }).toArray();
      return recordsInInputOrder(videoIds, new Map(docs.map((d) => [d._id, toRecord(d)])));
    },
  } satisfies Partial<BackendMethods>;
}
