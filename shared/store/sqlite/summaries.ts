// The summaries table (issue 31): the queue's leases and backoffs, then the summary itself; and
// summary_days, the daily caps every crawler shares. A claim is one immediate transaction, so two
// crawlers never lease the same video; the allowance is one conditional upsert.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import type { SummaryRecord } from '../types';

interface SummaryRow {
  video_id: string;
  language: string;
  prompt_version: number;
  transcript_language: string;
  model: string;
  points: string;
  prompt_tokens: number;
  completion_tokens: number;
  made_at: number;
}

const recordOf = (r: SummaryRow): SummaryRecord => ({
  videoId: r.video_id,
  language: r.language,
  promptVersion: r.prompt_version,
  transcriptLanguage: r.transcript_language,
  model: r.model,
  points: JSON.parse(r.points) as SummaryRecord['points'],
  promptTokens: r.prompt_tokens,
  completionTokens: r.completion_tokens,
  madeAt: new Date(r.made_at),
});

// A video is waiting while it has a transcript and its row (if any) is neither ready, nor leased,
// nor backing off. Newest published first: new videos are summarised before the back catalogue.
const WAITING = `
  FROM videos v WHERE EXISTS (SELECT 1 FROM transcripts t WHERE t.video_id = v.video_id)
  AND NOT EXISTS (SELECT 1 FROM summaries s WHERE s.video_id = v.video_id AND s.language = @language AND s.prompt_version = @version
    AND (s.status = 'ready' OR s.lease_expires_at > @now OR s.next_attempt_at > @now))`;

/** The next videos to summarise, read off videos_summary_queue (migration 26) in its order. */
export const CANDIDATES_SQL = `SELECT v.video_id ${WAITING} ORDER BY v.published_at DESC, v.video_id LIMIT @limit`;

function prepare(db: Database.Database) {
  return {
    candidates: db.prepare<{ language: string; version: number; now: number; limit: number }, string>(CANDIDATES_SQL).pluck(),
    waiting: db.prepare<{ language: string; version: number; now: number }, number>(`SELECT count(*) ${WAITING}`).pluck(),
    lease: db.prepare<{ video: string; language: string; version: number; owner: string; until: number }>(`
      INSERT INTO summaries (video_id, language, prompt_version, status, lease_owner, lease_expires_at)
      VALUES (@video, @language, @version, 'waiting', @owner, @until)
      ON CONFLICT (video_id, language, prompt_version) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at`),
    put: db.prepare<SummaryRow>(`
      INSERT INTO summaries (video_id, language, prompt_version, status, transcript_language, model, points, prompt_tokens, completion_tokens, made_at)
      VALUES (@video_id, @language, @prompt_version, 'ready', @transcript_language, @model, @points, @prompt_tokens, @completion_tokens, @made_at)
      ON CONFLICT (video_id, language, prompt_version) DO UPDATE SET status = 'ready', transcript_language = excluded.transcript_language,
        model = excluded.model, points = excluded.points, prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
        made_at = excluded.made_at, lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = NULL, last_error = NULL`),
    defer: db.prepare<{ video: string; language: string; version: number; owner: string; error: string; retry: number; failed: number }>(`
      UPDATE summaries SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = @retry, last_error = @error,
        attempts = attempts + @failed, status = CASE WHEN @failed = 1 THEN 'failed' ELSE status END
      WHERE video_id = @video AND language = @language AND prompt_version = @version AND lease_owner = @owner AND status != 'ready'`),
    get: db.prepare<{ ids: string; language: string; version: number }, SummaryRow>(`
      SELECT * FROM summaries WHERE video_id IN (SELECT value FROM json_each(@ids)) AND language = @language AND prompt_version = @version AND status = 'ready'`),
    allow: db.prepare<{ day: string; videos: number; tokens: number }, number>(`
      INSERT INTO summary_days (day, videos, tokens) SELECT @day, 1, 0 WHERE true
      ON CONFLICT (day) DO UPDATE SET videos = videos + 1
      WHERE (@videos = 0 OR videos < @videos) AND (@tokens = 0 OR tokens < @tokens)
      RETURNING videos`).pluck(),
    addTokens: db.prepare<{ day: string; tokens: number }>(`
      INSERT INTO summary_days (day, videos, tokens) VALUES (@day, 0, @tokens) ON CONFLICT (day) DO UPDATE SET tokens = tokens + excluded.tokens`),
    byStatus: db.prepare<{ language: string; version: number }, { status: string; n: number }>(`
      SELECT status, count(*) AS n FROM summaries WHERE language = @language AND prompt_version = @version GROUP BY status`),
    drop: db.prepare<{ language: string; version: number }>('DELETE FROM summaries WHERE language = @language AND prompt_version = @version'),
  };
}

export function summariesTable(db: Database.Database) {
  const sql = prepare(db);
  const claim = db.transaction((language: string, version: number, owner: string, now: number, leaseMs: number, limit: number): string[] => {
    const ids = sql.candidates.all({ language, version, now, limit });
    for (const video of ids) sql.lease.run({ video, language, version, owner, until: now + leaseMs });
    return ids;
  });
  return {
    claimSummaries(key, owner, now, leaseMs, limit) {
      return claim.immediate(key.language, key.promptVersion, owner, now.getTime(), leaseMs, limit);
    },
    putSummary(r) {
      sql.put.run({
        video_id: r.videoId, language: r.language, prompt_version: r.promptVersion, transcript_language: r.transcriptLanguage, model: r.model,
        points: JSON.stringify(r.points), prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, made_at: r.madeAt.getTime(),
      });
    },
    deferSummary(videoId, key, owner, d) {
      sql.defer.run({ video: videoId, language: key.language, version: key.promptVersion, owner, error: d.error, retry: d.retryAt.getTime(), failed: d.failed ? 1 : 0 });
    },
    getSummaries(videoIds, key) {
      if (videoIds.length === 0) return [];
      return sql.get.all({ ids: JSON.stringify(videoIds), language: key.language, version: key.promptVersion }).map(recordOf);
    },
    takeSummaryAllowance(day, caps) {
      // all(), never get(): the RETURNING row only counts once the statement has run to its end.
      return sql.allow.all({ day, videos: caps.videosPerDay, tokens: caps.tokensPerDay }).length > 0;
    },
    addSummaryTokens(day, tokens) {
      if (tokens > 0) sql.addTokens.run({ day, tokens });
    },
    summaryCounts(key, now) {
      const counts = { waiting: sql.waiting.get({ language: key.language, version: key.promptVersion, now: now.getTime() }) ?? 0, ready: 0, failed: 0 };
      for (const r of sql.byStatus.all({ language: key.language, version: key.promptVersion })) {
        if (r.status === 'ready') counts.ready = r.n;
        if (r.status === 'failed') counts.failed = r.n;
      }
      return counts;
    },
    dropSummaries(key) {
      return sql.drop.run({ language: key.language, version: key.promptVersion }).changes;
    },
  } satisfies Partial<BackendMethods>;
}
