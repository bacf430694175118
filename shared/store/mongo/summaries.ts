// The summaries collection (issue 31), one document per video, summary language and prompt
// version (`_id` `<video>\n<language>\n<version>`): the queue's lease and backoff, then the
// summary; and summary_days, the daily caps every crawler shares. A lease is one conditional
// upsert, so of two crawlers racing for a video exactly one gets it (the other's upsert collides).

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { SummaryKey, SummaryRecord } from '../types';
import type { TranscriptDoc } from './transcripts';
import type { VideoDoc } from './videos';

interface SummaryDoc {
  _id: string;
  videoId: string;
  language: string;
  promptVersion: number;
  status: 'waiting' | 'ready' | 'failed';
  transcriptLanguage?: string;
  model?: string;
  points?: SummaryRecord['points'];
  promptTokens?: number;
  completionTokens?: number;
  madeAt?: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  nextAttemptAt: Date | null;
  attempts: number;
  lastError: string | null;
}

interface DayDoc {
  _id: string;
  videos: number;
  tokens: number;
}

const idOf = (videoId: string, key: SummaryKey): string => `${videoId}\n${key.language}\n${key.promptVersion}`;
const PAGE = 200;

/** The index the queue's scan walks: every video, newest published first (schema step 12). */
export const SUMMARY_QUEUE_INDEX = 'summary_queue';

export async function summaryQueueIndexes(db: Db): Promise<void> {
  await db.collection<VideoDoc>('videos').createIndexes([{ key: { publishedAt: -1, _id: 1 }, name: SUMMARY_QUEUE_INDEX }]);
}

const isDuplicate = (err: unknown): boolean => (err as { code?: number }).code === 11000;

/** Whether a summary document keeps its video out of the queue at `now`. */
const busy = (d: SummaryDoc, now: Date): boolean =>
  d.status === 'ready' || (d.leaseExpiresAt !== null && d.leaseExpiresAt > now) || (d.nextAttemptAt !== null && d.nextAttemptAt > now);

export function summariesCollection(db: Db) {
  const col: Collection<SummaryDoc> = db.collection<SummaryDoc>('summaries');
  const days: Collection<DayDoc> = db.collection<DayDoc>('summary_days');
  const videos = db.collection<VideoDoc>('videos');
  const transcripts = db.collection<TranscriptDoc>('transcripts');

  /**
   * Videos with a transcript, newest published first, a page at a time, calling `take` until it
   * says stop. Each page walks the `summary_queue` index (schema step 12) on from where the last
   * one ended, so finding the next video never re-reads the pages of videos already summarised.
   */
  async function scanWaiting(key: SummaryKey, now: Date, take: (videoId: string) => Promise<boolean>): Promise<void> {
    let after: { publishedAt: Date; _id: string } | null = null;
    for (;;) {
      const from: Record<string, unknown> = after === null ? {} : { $or: [{ publishedAt: { $lt: after.publishedAt } }, { publishedAt: after.publishedAt, _id: { $gt: after._id } }] };
      const page = await videos.find(from, { projection: { _id: 1, publishedAt: 1 } }).sort({ publishedAt: -1, _id: 1 }).hint(SUMMARY_QUEUE_INDEX).limit(PAGE).toArray();
      if (page.length === 0) return;
      const last = page[page.length - 1]!;
      after = { publishedAt: last.publishedAt, _id: last._id };
      const ids = page.map((v) => v._id);
      const withText = new Set((await transcripts.find({ videoId: { $in: ids } }, { projection: { videoId: 1 } }).toArray()).map((t) => t.videoId));
      const docs = new Map((await col.find({ _id: { $in: ids.map((id) => idOf(id, key)) } }).toArray()).map((d) => [d.videoId, d]));
      for (const id of ids) {
        const d = docs.get(id);
        if (!withText.has(id) || (d && busy(d, now))) continue;
        if (!(await take(id))) return;
      }
    }
  }

  return {
    async claimSummaries(key, owner, now, leaseMs, limit) {
      const claimed: string[] = [];
      if (limit <= 0) return claimed;
      await scanWaiting(key, now, async (videoId) => {
        try {
          const got = await col.findOneAndUpdate(
            {
              _id: idOf(videoId, key),
              status: { $ne: 'ready' },
              $and: [
                { $or: [{ leaseExpiresAt: null }, { leaseExpiresAt: { $lte: now } }] },
                { $or: [{ nextAttemptAt: null }, { nextAttemptAt: { $lte: now } }] },
              ],
            },
            {
              $set: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) },
              $setOnInsert: { videoId, language: key.language, promptVersion: key.promptVersion, status: 'waiting', nextAttemptAt: null, attempts: 0, lastError: null },
            },
            { upsert: true, returnDocument: 'after' },
          );
          if (got) claimed.push(videoId);
        } catch (err) {
          // Another crawler holds it (its document did not match, so the upsert collided).
          if (!isDuplicate(err)) throw err;
        }
        return claimed.length < limit;
      });
      return claimed;
    },

    async putSummary(r) {
      const key = { language: r.language, promptVersion: r.promptVersion };
      await col.updateOne(
        { _id: idOf(r.videoId, key) },
        {
          $set: {
            videoId: r.videoId, language: r.language, promptVersion: r.promptVersion, status: 'ready', transcriptLanguage: r.transcriptLanguage, model: r.model,
            points: r.points, promptTokens: r.promptTokens, completionTokens: r.completionTokens, madeAt: r.madeAt, leaseOwner: null, leaseExpiresAt: null, nextAttemptAt: null, lastError: null,
          },
          $setOnInsert: { attempts: 0 },
        },
        { upsert: true },
      );
    },

    async deferSummary(videoId, key, owner, d) {
      await col.updateOne(
        { _id: idOf(videoId, key), leaseOwner: owner, status: { $ne: 'ready' } },
        { $set: { leaseOwner: null, leaseExpiresAt: null, nextAttemptAt: d.retryAt, lastError: d.error, ...(d.failed ? { status: 'failed' as const } : {}) }, $inc: { attempts: d.failed ? 1 : 0 } },
      );
    },

    async getSummaries(videoIds, key) {
      if (videoIds.length === 0) return [];
      const docs = await col.find({ _id: { $in: videoIds.map((id) => idOf(id, key)) }, status: 'ready' }).toArray();
      return docs.map((d): SummaryRecord => ({
        videoId: d.videoId, language: d.language, promptVersion: d.promptVersion, transcriptLanguage: d.transcriptLanguage ?? '', model: d.model ?? '',
        points: d.points ?? [], promptTokens: d.promptTokens ?? 0, completionTokens: d.completionTokens ?? 0, madeAt: d.madeAt ?? new Date(0),
      }));
    },

    async takeSummaryAllowance(day, caps) {
      const under: Record<string, unknown>[] = [];
      if (caps.videosPerDay > 0) under.push({ videos: { $lt: caps.videosPerDay } });
      if (caps.tokensPerDay > 0) under.push({ tokens: { $lt: caps.tokensPerDay } });
      const filter = { _id: day, ...(under.length > 0 ? { $and: under } : {}) };
      try {
        // Matched (under the caps) or inserted (the day's first): either way one more is counted.
        await days.updateOne(filter, { $inc: { videos: 1 }, $setOnInsert: { tokens: 0 } }, { upsert: true });
        return true;
      } catch (err) {
        if (!isDuplicate(err)) throw err;
        // The day's document exists: a cap is reached, or another crawler inserted it between our
        // match and our insert (the day's first two claims at once). Only the match decides now.
        return (await days.updateOne(filter, { $inc: { videos: 1 } })).matchedCount > 0;
      }
    },

    async addSummaryTokens(day, tokens) {
      if (tokens > 0) await days.updateOne({ _id: day }, { $inc: { tokens }, $setOnInsert: { videos: 0 } }, { upsert: true });
    },

    async summaryCounts(key, now) {
      let waiting = 0;
      await scanWaiting(key, now, async () => {
        waiting += 1;
        return true;
      });
      const [ready, failed] = await Promise.all([
        col.countDocuments({ language: key.language, promptVersion: key.promptVersion, status: 'ready' }),
        col.countDocuments({ language: key.language, promptVersion: key.promptVersion, status: 'failed' }),
      ]);
      return { waiting, ready, failed };
    },

    async dropSummaries(key) {
      return (await col.deleteMany({ language: key.language, promptVersion: key.promptVersion })).deletedCount;
    },
  } satisfies Partial<BackendMethods>;
}
