// Migration 17's data step (shared/store/sqlite/migrations.ts): transcripts stored as HTML in the
// videos table become paragraphs in the transcripts table, a page of rows at a time. Kept in a file
// of its own, being the one step that is code rather than SQL.

import type Database from 'better-sqlite3';
import { legacyTrack, paragraphsFromHtml } from '../legacy-html';

/** Rows converted per read: the HTML of a whole store is never in memory at once. */
const CONVERT_PAGE = 500;

export function htmlTranscriptsToParagraphs(db: Database.Database): void {
  db.exec('ALTER TABLE transcripts ADD COLUMN untimed INTEGER NOT NULL DEFAULT 0');
  // Rows written as `ready` always had a language and kind; a row that somehow lacks them gets
  // the ones its converted transcript is stored under, so the feed still finds it.
  db.exec(`UPDATE videos SET language = coalesce(language, 'und'), kind = coalesce(kind, 'automatic')
    WHERE transcript_html IS NOT NULL AND (language IS NULL OR kind IS NULL)`);
  const page = db.prepare<[number, number], { rowid: number; video_id: string; language: string; kind: string; fetched_at: number; transcript_html: string }>(`
    SELECT rowid, video_id, language, kind, fetched_at, transcript_html FROM videos v
    WHERE rowid > ? AND transcript_html IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM transcripts t WHERE t.video_id = v.video_id AND t.language = v.language AND json_valid(t.paragraphs))
    ORDER BY rowid LIMIT ?`);
  const put = db.prepare<{ video_id: string; language: string; kind: string; paragraphs: string; untimed: number; fetched_at: number }>(`
    INSERT INTO transcripts (video_id, language, kind, paragraphs, untimed, fetched_at)
    VALUES (@video_id, @language, @kind, @paragraphs, @untimed, @fetched_at)
    ON CONFLICT (video_id, language) DO UPDATE SET
      kind = excluded.kind, paragraphs = excluded.paragraphs, untimed = excluded.untimed, fetched_at = excluded.fetched_at`);
  for (let after = 0; ;) {
    const rows = page.all(after, CONVERT_PAGE);
    if (rows.length === 0) break;
    for (const r of rows) {
      const { paragraphs, untimed } = paragraphsFromHtml(r.transcript_html);
      const track = legacyTrack(r.language, r.kind);
      put.run({ video_id: r.video_id, language: track.language, kind: track.kind, paragraphs: JSON.stringify(paragraphs), untimed: untimed ? 1 : 0, fetched_at: r.fetched_at });
    }
    after = rows[rows.length - 1]!.rowid;
  }
  db.exec('ALTER TABLE videos DROP COLUMN transcript_html');
}
