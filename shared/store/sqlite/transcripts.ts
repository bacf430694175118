// The transcripts table: one row per (video, language) with what rendering needs (paragraphs with
// their start times), so the HTML can change without fetching again; and channel_languages, the
// languages readers asked for per channel (the crawler fetches those for each new video, and once
// for the videos stored before: covered_at).

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, readableTranscript } from '../rules';
import type { TranscriptRecord } from '../types';

interface TranscriptRow {
  video_id: string;
  language: string;
  kind: string;
  paragraphs: string;
  untimed: number;
  fetched_at: number;
}

/** A row that cannot be read is left out (rules.ts readableTranscript). */
function toRecord(r: TranscriptRow): TranscriptRecord | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.paragraphs);
  } catch {
    return null;
  }
  return readableTranscript({ videoId: r.video_id, language: r.language, kind: r.kind, paragraphs: parsed, untimed: r.untimed === 1, fetchedAt: new Date(r.fetched_at) });
}

export const toTranscriptRow = (t: TranscriptRecord): TranscriptRow => ({
  video_id: t.videoId,
  language: t.language,
  kind: t.kind,
  paragraphs: JSON.stringify(t.paragraphs),
  untimed: t.untimed === true ? 1 : 0,
  fetched_at: t.fetchedAt.getTime(),
});

/** The upsert, for the videos table to run inside its own batch transaction. */
export function prepareTranscriptUpsert(db: Database.Database) {
  return db.prepare<TranscriptRow>(`
    INSERT INTO transcripts (video_id, language, kind, paragraphs, untimed, fetched_at)
    VALUES (@video_id, @language, @kind, @paragraphs, @untimed, @fetched_at)
    ON CONFLICT (video_id, language) DO UPDATE SET
      kind = excluded.kind, paragraphs = excluded.paragraphs, untimed = excluded.untimed, fetched_at = excluded.fetched_at`);
}

export function transcriptsTable(db: Database.Database) {
  const byVideos = db.prepare<[string], TranscriptRow>(
    'SELECT video_id, language, kind, paragraphs, untimed, fetched_at FROM transcripts WHERE video_id IN (SELECT value FROM json_each(?)) ORDER BY video_id, language',
  );
  const ask = db.prepare<[string, string, number]>(`
    INSERT INTO channel_languages (channel_id, language, asked_at) VALUES (?, ?, ?)
    ON CONFLICT (channel_id, language) DO UPDATE SET asked_at = max(asked_at, excluded.asked_at)`);
  const askAll = db.transaction((channelId: string, languages: readonly string[], at: number) => {
    for (const l of languages) ask.run(channelId, l, at);
  });
  const wanted = db.prepare<[string, number], string>(
    'SELECT language FROM channel_languages WHERE channel_id = ? ORDER BY asked_at DESC, language LIMIT ?',
  ).pluck();
  const toBackfill = db.prepare<[string, number], string>(`
    SELECT language FROM (
      SELECT language, asked_at, covered_at FROM channel_languages WHERE channel_id = ? ORDER BY asked_at DESC, language LIMIT ?
    ) WHERE covered_at IS NULL ORDER BY asked_at DESC, language`).pluck();
  const cover = db.prepare<[number, string, string]>('UPDATE channel_languages SET covered_at = ? WHERE channel_id = ? AND language = ?');
  const coverAll = db.transaction((channelId: string, languages: readonly string[], at: number) => {
    for (const l of languages) cover.run(at, channelId, l);
  });
  return {
    getTranscripts(videoIds) {
      if (asksNothing(videoIds)) return [];
      return byVideos.all(JSON.stringify(videoIds)).map(toRecord).filter((t): t is TranscriptRecord => t !== null);
    },
    askLanguages(channelId, languages, now) {
      if (asksNothing(languages)) return;
      askAll.immediate(channelId, languages, now.getTime());
    },
    wantedLanguages(channelId, limit) {
      if (asksNothing(limit)) return [];
      return wanted.all(channelId, limit);
    },
    languagesToBackfill(channelId, limit) {
      if (asksNothing(limit)) return [];
      return toBackfill.all(channelId, limit);
    },
    markLanguagesCovered(channelId, languages, now) {
      if (asksNothing(languages)) return;
      coverAll.immediate(channelId, languages, now.getTime());
    },
  } satisfies Partial<BackendMethods>;
}
