// The transcripts table: one row per (video, language) with what rendering needs (paragraphs with
// their start times), so the HTML can change without fetching again; and channel_languages, the
// languages readers asked for per channel (the crawler fetches those for each new video, and once
// for the videos stored before: covered_at).

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, readableTranscript } from '../rules';
import { chooseLanguages, LANGUAGE_KEEP_MS, LANGUAGES_KEPT_PER_KEY } from '../language-choice';
import { prepareAwait } from './channels';
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
  const known = db.prepare<[string, string, number], number>('SELECT 1 FROM channel_languages WHERE channel_id = ? AND language = ? AND asked_at >= ?').pluck();
  const ask = db.prepare<[string, string, number]>(`
    INSERT INTO channel_languages (channel_id, language, asked_at) VALUES (?, ?, ?)
    ON CONFLICT (channel_id, language) DO UPDATE SET asked_at = max(asked_at, excluded.asked_at)`);
  const askByKey = db.prepare<[string, string, string, number]>(`
    INSERT INTO language_asks (channel_id, key_id, language, asked_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (channel_id, key_id, language) DO UPDATE SET asked_at = max(asked_at, excluded.asked_at)`);
  // A key keeps its newest few; asks older than the keep time go.
  const pruneKey = db.prepare<{ channelId: string; keyId: string; keep: number }>(`
    DELETE FROM language_asks WHERE channel_id = @channelId AND key_id = @keyId AND language NOT IN (
      SELECT language FROM language_asks WHERE channel_id = @channelId AND key_id = @keyId ORDER BY asked_at DESC, language LIMIT @keep)`);
  const pruneOld = db.prepare<[string, number]>('DELETE FROM language_asks WHERE channel_id = ? AND asked_at < ?');
  const awaitChannel = prepareAwait(db);
  const askAll = db.transaction((channelId: string, languages: readonly string[], at: number, keyId: string | null) => {
    const since = at - LANGUAGE_KEEP_MS;
    let added = false;
    for (const l of languages) {
      if (known.get(channelId, l, since) === undefined) added = true;
      ask.run(channelId, l, at);
      askByKey.run(channelId, keyId ?? '', l, at);
    }
    pruneKey.run({ channelId, keyId: keyId ?? '', keep: LANGUAGES_KEPT_PER_KEY });
    pruneOld.run(channelId, since);
    if (added) awaitChannel.run({ channelId, keyId, now: at });
  });
  const asks = db.prepare<[string, number], { key_id: string; language: string; asked_at: number }>(
    'SELECT key_id, language, asked_at FROM language_asks WHERE channel_id = ? AND asked_at >= ?',
  );
  const chosen = (channelId: string, limit: number, now: Date): string[] =>
    chooseLanguages(asks.all(channelId, now.getTime() - LANGUAGE_KEEP_MS).map((r) => ({ keyId: r.key_id, language: r.language, askedAt: new Date(r.asked_at) })), now, limit);
  const uncovered = db.prepare<[string], string>('SELECT language FROM channel_languages WHERE channel_id = ? AND covered_at IS NULL').pluck();
  const cover = db.prepare<[number, string, string]>('UPDATE channel_languages SET covered_at = ? WHERE channel_id = ? AND language = ?');
  const uncoverOthers = db.prepare<[string, string]>('UPDATE channel_languages SET covered_at = NULL WHERE channel_id = ? AND language NOT IN (SELECT value FROM json_each(?))');
  const coverAll = db.transaction((channelId: string, languages: readonly string[], at: number) => {
    for (const l of languages) cover.run(at, channelId, l);
    uncoverOthers.run(channelId, JSON.stringify(languages));
  });
  return {
    getTranscripts(videoIds) {
      if (asksNothing(videoIds)) return [];
      return byVideos.all(JSON.stringify(videoIds)).map(toRecord).filter((t): t is TranscriptRecord => t !== null);
    },
    askLanguages(channelId, languages, now, keyId) {
      if (asksNothing(languages)) return;
      askAll.immediate(channelId, languages, now.getTime(), keyId ?? null);
    },
    wantedLanguages(channelId, limit, now) {
      if (asksNothing(limit)) return [];
      return chosen(channelId, limit, now);
    },
    languagesToBackfill(channelId, limit, now) {
      if (asksNothing(limit)) return [];
      const open = new Set(uncovered.all(channelId));
      return chosen(channelId, limit, now).filter((l) => open.has(l));
    },
    markLanguagesCovered(channelId, languages, now) {
      coverAll.immediate(channelId, languages, now.getTime());
    },
  } satisfies Partial<BackendMethods>;
}
