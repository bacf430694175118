// The transcripts collection (one document per video and language, keyed `<videoId>\n<language>`)
// and channel_languages (the languages readers asked for per channel, and whether the crawler has
// fetched each for the videos stored before it was asked for). Every write is an
// idempotent upsert, so a batch replayed after a crash changes nothing.

import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, readableTranscript } from '../rules';
import { retryOnDuplicateKey } from './errors';
import type { TranscriptRecord, TranscriptRecordKind } from '../types';

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

export function transcriptsCollection(db: Db) {
  const col: Collection<TranscriptDoc> = db.collection<TranscriptDoc>('transcripts');
  const langs: Collection<LanguageDoc> = db.collection<LanguageDoc>('channel_languages');
  return {
    async getTranscripts(videoIds) {
      if (asksNothing(videoIds)) return [];
      const docs = await col.find({ videoId: { $in: [...videoIds] } }).sort({ videoId: 1, language: 1 }).toArray();
      return docs.map(transcriptRecordOf).filter((t): t is TranscriptRecord => t !== null);
    },
    async askLanguages(channelId, languages, now) {
      if (asksNothing(languages)) return;
      const ops = languages.map((language) => ({
        updateOne: { filter: { _id: `${channelId}\n${language}` }, update: { $set: { channelId, language }, $max: { askedAt: now } }, upsert: true },
      }));
      // Two API processes asking for a new language at once race to insert it (see retryOnDuplicateKey).
      await retryOnDuplicateKey(() => langs.bulkWrite(ops, { ordered: false }));
    },
    async wantedLanguages(channelId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await langs.find({ channelId }).sort({ askedAt: -1, language: 1 }).limit(limit).toArray();
      return docs.map((d) => d.language);
    },
    async languagesToBackfill(channelId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await langs.find({ channelId }).sort({ askedAt: -1, language: 1 }).limit(limit).toArray();
      return docs.filter((d) => d.coveredAt == null).map((d) => d.language);
    },
    async markLanguagesCovered(channelId, languages, now) {
      if (asksNothing(languages)) return;
      await langs.updateMany({ channelId, language: { $in: [...languages] } }, { $set: { coveredAt: now } });
    },
  } satisfies Partial<BackendMethods>;
}
