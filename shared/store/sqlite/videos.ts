// The videos table. Writes are upserts keyed by video id inside one transaction, so a batch
// replayed after a crash changes nothing. Feed reads go through the partial indexes of
// migrations.ts, which keeps them as cheap at 100k stored videos as at 1k.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, DEFAULT_FEED_KINDS, FEED_ENTRY_SQL, inInputOrder, inRetryWindow, needsWork, recordsInInputOrder, retryEdgeOffset } from '../rules';
import { UNKNOWN_PUBLISHED_MS, type TranscriptKind, type TranscriptRecord, type VideoKind, type VideoRecord, type VideoState } from '../types';
import { RETRY_SQL } from './migrations';
import { prepareSearchIndex } from './search';
import { prepareTranscriptUpsert, toTranscriptRow } from './transcripts';

interface VideoRow {
  video_id: string;
  channel_id: string;
  title: string;
  published_at: number;
  language: string | null;
  kind: string | null;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  fetched_at: number;
  video_kind: string | null;
  duration_seconds: number | null;
  description: string | null;
  offered_languages: string | null;
}

type VideoParams = VideoRow;

const COLUMNS = `video_id, channel_id, title, published_at, language, kind, state, attempts, next_attempt_at,
  last_error, fetched_at, video_kind, duration_seconds, description, offered_languages`;

function toRecord(r: VideoRow): VideoRecord {
  return {
    videoId: r.video_id,
    channelId: r.channel_id,
    title: r.title,
    publishedAt: new Date(r.published_at),
    language: r.language,
    kind: r.kind as TranscriptKind | null,
    state: r.state as VideoState,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at === null ? null : new Date(r.next_attempt_at),
    lastError: r.last_error,
    fetchedAt: new Date(r.fetched_at),
    videoKind: r.video_kind as VideoKind | null,
    durationSeconds: r.duration_seconds,
    description: r.description,
    // Left out when not known, so a record stored without the list reads back as it was written.
    ...(r.offered_languages === null ? {} : { offeredLanguages: JSON.parse(r.offered_languages) as string[] }),
  };
}

function toParams(v: VideoRecord): VideoParams {
  return {
    video_id: v.videoId,
    channel_id: v.channelId,
    title: v.title,
    published_at: v.publishedAt.getTime(),
    language: v.language,
    kind: v.kind,
    state: v.state,
    attempts: v.attempts,
    next_attempt_at: v.nextAttemptAt === null ? null : v.nextAttemptAt.getTime(),
    last_error: v.lastError,
    fetched_at: v.fetchedAt.getTime(),
    video_kind: v.videoKind,
    duration_seconds: v.durationSeconds,
    description: v.description,
    offered_languages: v.offeredLanguages == null ? null : JSON.stringify(v.offeredLanguages),
  };
}

function prepare(db: Database.Database, indexSearch: boolean) {
  const upsert = db.prepare<VideoParams>(`
    INSERT INTO videos (${COLUMNS})
    VALUES (@video_id, @channel_id, @title, @published_at, @language, @kind, @state, @attempts,
      @next_attempt_at, @last_error, @fetched_at, @video_kind, @duration_seconds, @description, @offered_languages)
    ON CONFLICT (video_id) DO UPDATE SET
      channel_id = excluded.channel_id, title = excluded.title, published_at = excluded.published_at,
      language = excluded.language, kind = excluded.kind, state = excluded.state,
      attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
      last_error = excluded.last_error, fetched_at = excluded.fetched_at,
      video_kind = excluded.video_kind,
      duration_seconds = excluded.duration_seconds, description = excluded.description,
      offered_languages = excluded.offered_languages`);
  const upsertTranscript = prepareTranscriptUpsert(db);
  const search = prepareSearchIndex(db);
  const upsertAll = db.transaction((rows: readonly VideoParams[], transcripts: readonly TranscriptRecord[]) => {
    for (const row of rows) upsert.run(row);
    for (const t of transcripts) upsertTranscript.run(toTranscriptRow(t));
    // The search index moves with the batch: same transaction, so it never shows a state the
    // videos table does not have.
    if (!indexSearch) return;
    const written = new Map<string, TranscriptRecord[]>(rows.map((r) => [r.video_id, []]));
    for (const t of transcripts) written.set(t.videoId, [...(written.get(t.videoId) ?? []), t]);
    for (const [id, own] of written) search.reindex(id, own);
  });

  // The kinds travel as one JSON array; a record without a kind counts as regular (rules.ts isShownKind).
  const feed = db.prepare<[string, string, number], VideoRow>(`
    SELECT ${COLUMNS} FROM videos
    WHERE channel_id = ? AND ${FEED_ENTRY_SQL}
      AND coalesce(video_kind, 'regular') IN (SELECT value FROM json_each(?))
    ORDER BY published_at DESC, video_id LIMIT ?`);

  const version = db.prepare<[string], number>(`
    SELECT fetched_at FROM videos
    WHERE channel_id = ? AND ${FEED_ENTRY_SQL}
    ORDER BY fetched_at DESC LIMIT 1`).pluck();

  // From videos_feed_written alone.
  const newestWrite = db.prepare<[], number>(`SELECT fetched_at FROM videos WHERE ${FEED_ENTRY_SQL} ORDER BY fetched_at DESC LIMIT 1`).pluck();

  // One statement for any number of ids: the list travels as one JSON array parameter.
  const states = db.prepare<[string], Pick<VideoRow, 'video_id' | 'state' | 'next_attempt_at'>>(
    'SELECT video_id, state, next_attempt_at FROM videos WHERE video_id IN (SELECT value FROM json_each(?))',
  );
  const byIds = db.prepare<[string], VideoRow>(
    `SELECT ${COLUMNS} FROM videos WHERE video_id IN (SELECT value FROM json_each(?))`,
  );

  const storedIds = db.prepare<[string], string>('SELECT video_id FROM videos WHERE video_id IN (SELECT value FROM json_each(?))').pluck();

  // The publish time of the channel's `limit`-th newest video: the oldest one in its retry window.
  // Read from videos_channel_published alone (the column is in the index).
  const windowEdge = db.prepare<[string, number], number>(`
    SELECT published_at FROM videos WHERE channel_id = ?
    ORDER BY published_at DESC LIMIT 1 OFFSET ?`).pluck();
  // Due videos are few: the partial index (RETRY_SQL repeated so SQLite may use it) finds them
  // without touching the channel's ready ones; the retry window (rules.ts) is applied to the few found.
  const dueRetries = db.prepare<{ channelId: string; now: number }, VideoRow>(`
    SELECT ${COLUMNS} FROM videos
    WHERE channel_id = @channelId AND ${RETRY_SQL} AND next_attempt_at <= @now AND state <> 'ready'
    ORDER BY published_at DESC, video_id`);

  // The channel's rhythm (crawler/rhythm.ts), from videos_channel_published alone; unknown dates (0) left out.
  const publishTimes = db.prepare<[string, number], number>(`
    SELECT published_at FROM videos WHERE channel_id = ? AND published_at > 0
    ORDER BY published_at DESC LIMIT ?`).pluck();

  return { upsertAll, feed, version, newestWrite, states, byIds, storedIds, windowEdge, dueRetries, publishTimes };
}

/** `indexSearch: false` only measures what the search index costs a write (bench/search.ts). */
export function videosTable(db: Database.Database, opts: { indexSearch?: boolean } = {}) {
  const sql = prepare(db, opts.indexSearch ?? true);
  return {
    upsertVideos(videos, transcripts = []) {
      if (asksNothing(videos) && asksNothing(transcripts)) return;
      sql.upsertAll.immediate(videos.map(toParams), transcripts);
    },

    listFeedEntries(channelId, limit, kinds = DEFAULT_FEED_KINDS) {
      if (asksNothing(limit) || asksNothing(kinds)) return [];
      return sql.feed.all(channelId, JSON.stringify(kinds), limit).map(toRecord);
    },

    feedVersion(channelId) {
      const ms = sql.version.get(channelId);
      return ms === undefined ? null : new Date(ms);
    },

    newestFeedWrite() {
      const ms = sql.newestWrite.get();
      return ms === undefined ? null : new Date(ms);
    },

    videosNeedingWork(videoIds, now) {
      if (asksNothing(videoIds)) return [];
      const stored = new Map(sql.states.all(JSON.stringify(videoIds)).map((r) => [r.video_id, r]));
      return inInputOrder(videoIds, (id) => {
        const r = stored.get(id);
        return r === undefined || needsWork(r.state, r.next_attempt_at, now);
      });
    },

    storedVideoIds(videoIds) {
      if (asksNothing(videoIds)) return [];
      const stored = new Set(sql.storedIds.all(JSON.stringify(videoIds)));
      return inInputOrder(videoIds, (id) => stored.has(id));
    },

    videosDueForRetry(channelId, now, limit) {
      if (asksNothing(limit)) return [];
      const edgeMs = sql.windowEdge.get(channelId, retryEdgeOffset(limit));
      const edge = edgeMs === undefined ? undefined : new Date(edgeMs);
      return sql.dueRetries
        .all({ channelId, now: now.getTime() })
        .map(toRecord)
        .filter((v) => inRetryWindow(v.publishedAt, edge, UNKNOWN_PUBLISHED_MS));
    },

    recentPublishTimes(channelId, limit) {
      if (asksNothing(limit)) return [];
      return sql.publishTimes.all(channelId, limit).map((ms) => new Date(ms));
    },

    getVideos(videoIds) {
      if (asksNothing(videoIds)) return [];
      const found = new Map(sql.byIds.all(JSON.stringify(videoIds)).map((r) => [r.video_id, toRecord(r)]));
      return recordsInInputOrder(videoIds, found);
    },
  } satisfies Partial<BackendMethods>;
}
