// The transcripts collection (one document per video and language, keyed `<videoId>\n<language>`)
// and channel_languages (the languages readers asked for per channel, and whether the crawler has
// fetched each for the videos stored before it was asked for). Every write is an
// idempotent upsert, so a batch replayed after a crash changes nothing.

import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, readableTranscript } from '../rules';
import { retryOnDuplicateKey } from './errors';
import type { TranscriptRecord, TranscriptRecordKind } from '../types';
import { chooseLanguages, LANGUAGE_KEEP_MS, LANGUAGES_KEPT_PER_KEY } from '../language-choice';
import { awaitChannel, type ChannelDoc } from './channels';
import type { StoreClock } from './clock';

export interface TranscriptDoc {
  _id: string;
  videoId: string;
  language: string;
  kind: TranscriptRecordKind;
  paragraphs: TranscriptRecord['paragraphs'];
  /** Present (true) only on paragraphs recovered from HTML stored before start times were kept. */
  untimed?: boolean;
  fetchedAt: Date;
}

/** One key's ask for one language on one channel (`_id`: channel, key and language); keyId '' for no key. */
interface LanguageAskDoc {
  _id: string;
  channelId: string;
  keyId: string;
  language: string;
  askedAt: Date;
}

interface LanguageDoc {
  _id: string;
  channelId: string;
  language: string;
  askedAt: Date;
  /** Missing until the crawler fetched the language for the videos stored before it was asked for. */
  coveredAt?: Date | null;
}

export const transcriptRecordOf = (d: TranscriptDoc): TranscriptRecord | null =>
  readableTranscript({ videoId: d.videoId, language: d.language, kind: d.kind, paragraphs: d.paragraphs, untimed: d.untimed, fetchedAt: d.fetchedAt });

/** The document's key: one per video and language. */
export const transcriptKey = (videoId: string, language: string): string => `${videoId}\n${language}`;

export function transcriptUpserts(transcripts: readonly TranscriptRecord[]): AnyBulkWriteOperation<TranscriptDoc>[] {
  return transcripts.map((t) => ({
    updateOne: {
      filter: { _id: transcriptKey(t.videoId, t.language) },
      update: t.untimed === true
        ? { $set: { videoId: t.videoId, language: t.language, kind: t.kind, paragraphs: t.paragraphs, untimed: true, fetchedAt: t.fetchedAt } }
        : { $set: { videoId: t.videoId, language: t.language, kind: t.kind, paragraphs: t.paragraphs, fetchedAt: t.fetchedAt }, $unset: { untimed: '' } },
      upsert: true,
    },
  }));
}

export async function transcriptsIndexes(db: Db): Promise<void> {
  await db.collection<TranscriptDoc>('transcripts').createIndexes([{ key: { videoId: 1, language: 1 }, name: 'video_language' }]);
  await db.collection<LanguageDoc>('channel_languages').createIndexes([{ key: { channelId: 1, askedAt: -1, language: 1 }, name: 'channel_asked' }]);
}

export async function languageAsksIndexes(db: Db): Promise<void> {
  await db.collection<LanguageAskDoc>('language_asks').createIndexes([{ key: { channelId: 1, askedAt: -1 }, name: 'channel_asked' }]);
}

export function transcriptsCollection(db: Db, clock: StoreClock) {
  const col: Collection<TranscriptDoc> = db.collection<TranscriptDoc>('transcripts');
  const langs: Collection<LanguageDoc> = db.collection<LanguageDoc>('channel_languages');
  const asks: Collection<LanguageAskDoc> = db.collection<LanguageAskDoc>('language_asks');
  const channels: Collection<ChannelDoc> = db.collection<ChannelDoc>('channels');
  const chosen = async (channelId: string, limit: number, now: Date): Promise<string[]> => {
    const docs = await asks.find({ channelId, askedAt: { $gte: new Date(now.getTime() - LANGUAGE_KEEP_MS) } }).toArray();
    return chooseLanguages(docs, now, limit);
  };
  return {
    async getTranscripts(videoIds) {
      if (asksNothing(videoIds)) return [];
      const docs = await col.find({ videoId: { $in: [...videoIds] } }).sort({ videoId: 1, language: 1 }).toArray();
      return docs.map(transcriptRecordOf).filter((t): t is TranscriptRecord => t !== null);
    },
    async askLanguages(channelId, languages, now, keyId) {
      if (asksNothing(languages)) return;
      const key = keyId ?? '';
      const since = new Date(now.getTime() - LANGUAGE_KEEP_MS);
      const kept = new Set((await langs.find({ channelId, language: { $in: [...languages] }, askedAt: { $gte: since } }, { projection: { language: 1 } }).toArray()).map((d) => d.language));
      const ops = languages.map((language) => ({
        updateOne: { filter: { _id: `${channelId}\n${language}` }, update: { $set: { channelId, language }, $max: { askedAt: now } }, upsert: true },
      }));
      // Two API processes asking for a new language at once race to insert it (see retryOnDuplicateKey).
      await retryOnDuplicateKey(() => langs.bulkWrite(ops, { ordered: false }));
      const askOps = languages.map((language) => ({
        updateOne: { filter: { _id: `${channelId}\n${key}\n${language}` }, update: { $set: { channelId, keyId: key, language }, $max: { askedAt: now } }, upsert: true },
      }));
      await retryOnDuplicateKey(() => asks.bulkWrite(askOps, { ordered: false }));
      // A key keeps its newest few; asks older than the keep time go.
      const own = await asks.find({ channelId, keyId: key }).sort({ askedAt: -1, language: 1 }).toArray();
      const dropped = own.slice(LANGUAGES_KEPT_PER_KEY).map((d) => d._id);
      if (dropped.length > 0) await asks.deleteMany({ _id: { $in: dropped } });
      await asks.deleteMany({ channelId, askedAt: { $lt: since } });
      if (languages.some((l) => !kept.has(l))) await awaitChannel(channels, clock, channelId, keyId ?? null, now);
    },
    async wantedLanguages(channelId, limit, now) {
      if (asksNothing(limit)) return [];
      return chosen(channelId, limit, now);
    },
    async languagesToBackfill(channelId, limit, now) {
      if (asksNothing(limit)) return [];
      const open = new Set((await langs.find({ channelId, coveredAt: null }, { projection: { language: 1 } }).toArray()).map((d) => d.language));
      return (await chosen(channelId, limit, now)).filter((l) => open.has(l));
    },
    async markLanguagesCovered(channelId, languages, now) {
      if (languages.length > 0) await langs.updateMany({ channelId, language: { $in: [...languages] } }, { $set: { coveredAt: now } });
      await langs.updateMany({ channelId, language: { $nin: [...languages] } }, { $set: { coveredAt: null } });
    },
  } satisfies Partial<BackendMethods>;
}
