// The SQLite schema as an append-only list of steps. schema_version holds how many steps this
// database has applied; opening runs the missing ones in one immediate transaction, so two
// processes starting together cannot both migrate. Never edit a released step: add a new one.

import type Database from 'better-sqlite3';
import type { Logger } from '../../logger';
import { htmlTranscriptsToParagraphs } from './migration-html';
import { FEED_ENTRY_SQL } from '../rules';
import { buildSearchIndex, SEARCH_SCHEMA, SEARCH_SCHEMA_1 } from './search';

/** Videos that may be retried some day; repeated in the due-retry query for the same reason. */
export const RETRY_SQL = `next_attempt_at IS NOT NULL`;

/** A step is SQL, or code for what SQL cannot say; either runs inside the migration's transaction. */
export type MigrationStep = string | ((db: Database.Database, logger: Logger) => void);

export const MIGRATIONS: readonly MigrationStep[] = [
  // 1: the four record types. Times are epoch milliseconds. transcript_html is the last column so
  // reading a video's state does not walk the overflow pages of its transcript.
  `
  CREATE TABLE channels (
    channel_id           TEXT PRIMARY KEY,
    handle               TEXT,
    title                TEXT,
    wanted               INTEGER NOT NULL,
    due_at               INTEGER NOT NULL,
    lease_owner          TEXT,
    lease_expires_at     INTEGER,
    claimed_wanted       INTEGER,
    last_crawl_at        INTEGER,
    last_outcome         TEXT,
    last_error           TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL
  );
  CREATE INDEX channels_due ON channels (due_at, channel_id);

  CREATE TABLE videos (
    video_id        TEXT PRIMARY KEY,
    channel_id      TEXT NOT NULL,
    title           TEXT NOT NULL,
    published_at    INTEGER NOT NULL,
    language        TEXT,
    kind            TEXT,
    state           TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    next_attempt_at INTEGER,
    last_error      TEXT,
    fetched_at      INTEGER NOT NULL,
    transcript_html TEXT
  );
  CREATE INDEX videos_channel_published ON videos (channel_id, published_at DESC);
  CREATE INDEX videos_feed ON videos (channel_id, published_at DESC, video_id) WHERE ${FEED_ENTRY_SQL};
  CREATE INDEX videos_feed_version ON videos (channel_id, fetched_at) WHERE ${FEED_ENTRY_SQL};

  CREATE TABLE handles (
    handle      TEXT PRIMARY KEY,
    channel_id  TEXT NOT NULL,
    resolved_at INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE rate_limits (
    key_id       TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (key_id, window_start)
  ) WITHOUT ROWID;
  `,
  // 2: what a refresh needs to trust the channel feed alone: how much of the channel the stored
  // videos cover, and the videos due for a retry without walking the channel's whole history.
  `
  ALTER TABLE channels ADD COLUMN covered_wanted INTEGER;
  CREATE INDEX videos_retry ON videos (channel_id, next_attempt_at) WHERE ${RETRY_SQL};
  `,
  // 3: handles the platform said do not exist, so a junk handle costs one request a while, not one
  // per feed request; the scheduled refresh skips channels in a failure backoff.
  `
  CREATE TABLE unknown_handles (
    handle     TEXT PRIMARY KEY,
    checked_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX channels_refresh ON channels (due_at) WHERE consecutive_failures = 0;
  `,
  // 4: what an entry shows beside the transcript, and which videos a feed lists (its kind). Null
  // on rows from before: such a video is listed as regular and renders as it always did.
  `
  ALTER TABLE videos ADD COLUMN video_kind TEXT;
  ALTER TABLE videos ADD COLUMN duration_seconds INTEGER;
  ALTER TABLE videos ADD COLUMN description TEXT;
  `,
  // 5: transcripts per video and language, and the languages readers asked for per channel.
  // Rows with large paragraphs keep their rowid: WITHOUT ROWID suits small rows only.
  `
  CREATE TABLE transcripts (
    video_id   TEXT NOT NULL,
    language   TEXT NOT NULL,
    kind       TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    paragraphs TEXT NOT NULL,
    PRIMARY KEY (video_id, language)
  );
  CREATE TABLE channel_languages (
    channel_id TEXT NOT NULL,
    language   TEXT NOT NULL,
    asked_at   INTEGER NOT NULL,
    PRIMARY KEY (channel_id, language)
  ) WITHOUT ROWID;
  `,
  // 6: when the crawler fetched a language for the videos stored before it was asked for.
  `
  ALTER TABLE channel_languages ADD COLUMN covered_at INTEGER;
  `,
  // 7: which channels each API key follows (key_id: the key's SHA-256 hex digest, never the key);
  // `ref` is the channel id, or '@handle' until the crawler resolves it. A channel knows whether
  // anyone follows it and when a reader last asked for it (rules.ts isRefreshed): rows from before
  // start their 30 days now. The combined feed walks every feed entry newest first through
  // videos_feed_recent (covering: no row is read until the entry is kept).
  `
  CREATE TABLE subscriptions (
    key_id     TEXT NOT NULL,
    ref        TEXT NOT NULL,
    channel_id TEXT,
    handle     TEXT,
    title      TEXT,
    source     TEXT NOT NULL,
    since      INTEGER NOT NULL,
    checked_at INTEGER,
    PRIMARY KEY (key_id, ref)
  ) WITHOUT ROWID;
  CREATE INDEX subscriptions_channel ON subscriptions (channel_id) WHERE channel_id IS NOT NULL;
  CREATE INDEX subscriptions_handle ON subscriptions (handle, checked_at) WHERE handle IS NOT NULL;
  ALTER TABLE channels ADD COLUMN followed INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE channels ADD COLUMN asked_at INTEGER;
  UPDATE channels SET asked_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
  CREATE INDEX channels_followed ON channels (channel_id) WHERE followed = 1;
  CREATE INDEX videos_feed_recent ON videos (published_at DESC, video_id, channel_id, video_kind, fetched_at) WHERE ${FEED_ENTRY_SQL};
  `,
  // 8: the search index's first table (sqlite/search.ts). Left empty here: step 18 drops it and
  // indexes everything stored, in the same migration of any store that runs this step, so building
  // it here too would index an old store twice.
  (db) => {
    db.exec(SEARCH_SCHEMA_1);
  },
  // 9: playlists. Their work items live in channels (kind 'playlist'), so leases, backoff and the
  // refresh treat them as channels; what the crawler last listed (order, title, owner, or the
  // platform's private / does-not-exist answer) is one row per playlist.
  `
  ALTER TABLE channels ADD COLUMN kind TEXT NOT NULL DEFAULT 'channel';
  CREATE TABLE playlists (
    playlist_id      TEXT PRIMARY KEY,
    title            TEXT,
    owner            TEXT,
    owner_channel_id TEXT,
    state            TEXT NOT NULL,
    video_ids        TEXT NOT NULL,
    listed_at        INTEGER NOT NULL,
    changed_at       INTEGER NOT NULL
  );
  `,
  // 10: the combined feed's version in two primary-key reads: the newest write among all feed
  // entries, and a per-key counter of changes to its subscriptions (kept in the same transactions).
  `
  CREATE INDEX videos_feed_written ON videos (fetched_at) WHERE ${FEED_ENTRY_SQL};
  CREATE TABLE subscription_changes (
    key_id  TEXT PRIMARY KEY,
    changes INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 11: platform requests per source and minute, and the platform cool-down, shared by every process.
  `
  CREATE TABLE platform_requests (
    source TEXT NOT NULL,
    minute INTEGER NOT NULL,
    count  INTEGER NOT NULL,
    PRIMARY KEY (source, minute)
  ) WITHOUT ROWID;
  CREATE TABLE platform_cool_down (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    until  INTEGER NOT NULL,
    reason TEXT NOT NULL
  );
  `,
  // 12: the platform check the API asks the crawler for (GET /admin/platform-check): one row.
  `
  CREATE TABLE platform_check (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    requested_at INTEGER,
    claimed_by   TEXT,
    claimed_at   INTEGER,
    finished_at  INTEGER,
    report       TEXT
  );
  `,
  // 13: what operators see: each channel's last runs, each crawler's heartbeat, counts per hour for
  // the status page's chart, and the failing channels first.
  `
  CREATE TABLE channel_runs (
    id         INTEGER PRIMARY KEY,
    channel_id TEXT NOT NULL,
    owner      TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL,
    outcome    TEXT NOT NULL,
    error      TEXT,
    stored     INTEGER NOT NULL
  );
  CREATE INDEX channel_runs_channel ON channel_runs (channel_id, ended_at DESC, id DESC);
  CREATE INDEX channel_runs_ended ON channel_runs (ended_at DESC, id DESC);
  CREATE TABLE crawler_heartbeats (
    owner              TEXT PRIMARY KEY,
    started_at         INTEGER NOT NULL,
    version            TEXT NOT NULL,
    state              TEXT NOT NULL,
    until              INTEGER,
    channel_id         TEXT,
    batch              TEXT,
    requests_last_hour INTEGER NOT NULL,
    budget_per_hour    INTEGER NOT NULL,
    proxies            TEXT NOT NULL,
    browser_runs       INTEGER NOT NULL,
    at                 INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE hourly_counts (
    hour              INTEGER PRIMARY KEY,
    videos_stored     INTEGER NOT NULL,
    platform_requests INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX channels_failures ON channels (consecutive_failures DESC, channel_id);
  `,
  // 14: a followed playlist's new listing (order, entries) changes the combined feed: the newest
  // playlist change joins its version, one index read.
  `
  CREATE INDEX playlists_changed ON playlists (changed_at);
  `,
  // 15: since when a reader has been waiting for a channel no run has served yet (new, or a larger
  // max_items): such a channel runs before the rhythm's backlog. Cleared by the run that serves it.
  `
  ALTER TABLE channels ADD COLUMN awaited_at INTEGER;
  CREATE INDEX channels_awaited ON channels (awaited_at, channel_id) WHERE awaited_at IS NOT NULL;
  `,
  // 16: push (WebSub): one subscription record per channel, and the videos the hub notified, due for
  // a fetch without a listing.
  `
  CREATE TABLE websub (
    channel_id       TEXT PRIMARY KEY,
    topic            TEXT NOT NULL,
    token            TEXT NOT NULL UNIQUE,
    secret           TEXT NOT NULL,
    status           TEXT NOT NULL,
    requested_at     INTEGER,
    verified_at      INTEGER,
    lease_seconds    INTEGER,
    lease_expires_at INTEGER,
    next_action_at   INTEGER NOT NULL,
    failures         INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT,
    updated_at       INTEGER NOT NULL
  );
  CREATE INDEX websub_next ON websub (next_action_at);
  CREATE TABLE pushed_videos (
    video_id         TEXT PRIMARY KEY,
    channel_id       TEXT NOT NULL,
    title            TEXT NOT NULL,
    published_at     INTEGER,
    due_at           INTEGER NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    lease_owner      TEXT,
    lease_expires_at INTEGER
  );
  CREATE INDEX pushed_videos_due ON pushed_videos (due_at);
  `,
  // 17: one copy of each transcript: the timed paragraphs in transcripts. The HTML on video rows
  // goes; a row without readable paragraphs gets them from its HTML first, so no entry loses text
  // (step 18, in the same migration, indexes the converted text with everything else).
  htmlTranscriptsToParagraphs,
  // 18: the search index rebuilt as sqlite/search.ts keeps it now (text folded before FTS5 sees it,
  // rowids by publish second, positions for phrases), progress logged.
  (db, logger) => {
    db.exec('DROP TABLE search_index; DROP TABLE search_docs;');
    db.exec(SEARCH_SCHEMA);
    buildSearchIndex(db, logger);
  },
  // 19: awaited work served round-robin by the key that asked (awaited_by, awaited_round), and the
  // key that created each channel (created_by), which bounds a key's new channels an hour.
  `
  ALTER TABLE channels ADD COLUMN awaited_by TEXT;
  ALTER TABLE channels ADD COLUMN awaited_round INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE channels ADD COLUMN created_by TEXT;
  CREATE INDEX channels_awaited_round ON channels (awaited_round, awaited_at, channel_id) WHERE awaited_at IS NOT NULL;
  CREATE INDEX channels_awaited_by ON channels (awaited_by, awaited_round) WHERE awaited_at IS NOT NULL;
  CREATE INDEX channels_created_by ON channels (created_by, created_at) WHERE created_by IS NOT NULL;
  `,
  // 20: who asked for which language on a channel, and when (key_id '' for no key): the channel keeps
  // every language asked within 30 days, chosen fairly between keys (language-choice.ts).
  // channel_languages keeps whether each was backfilled; the languages asked so far count as asked
  // by no key at their time.
  `
  CREATE TABLE language_asks (
    channel_id TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    language   TEXT NOT NULL,
    asked_at   INTEGER NOT NULL,
    PRIMARY KEY (channel_id, key_id, language)
  ) WITHOUT ROWID;
  INSERT INTO language_asks (channel_id, key_id, language, asked_at) SELECT channel_id, '', language, asked_at FROM channel_languages;
  `,
  // 21: the player clients a crawler has left out of its process (a retired version…), as JSON, in
  // its heartbeat: the status page and /admin/crawlers show them.
  `ALTER TABLE crawler_heartbeats ADD COLUMN clients_left_out TEXT NOT NULL DEFAULT '[]';`,
  // 22: imports as work a key asks for: an imported channel the store does not know waits in its
  // key's queue (queued_kind, no work item) until the key's hourly allowance lets it in; each
  // platform ask for a followed handle is stamped on the asking key's row (its hourly share).
  `
  ALTER TABLE subscriptions ADD COLUMN queued_kind TEXT;
  ALTER TABLE subscriptions ADD COLUMN handle_asked_at INTEGER;
  CREATE INDEX subscriptions_queued ON subscriptions (key_id, since, ref) WHERE queued_kind IS NOT NULL;
  CREATE INDEX subscriptions_handle_asks ON subscriptions (key_id, handle_asked_at) WHERE handle_asked_at IS NOT NULL;
  `,
  // 23: summaries (issue 31), one row per video, summary language and prompt version: the queue's
  // lease and backoff while none is made, the points once one is; and each UTC day's shared caps.
  `
  CREATE TABLE summaries (
    video_id            TEXT NOT NULL,
    language            TEXT NOT NULL,
    prompt_version      INTEGER NOT NULL,
    status              TEXT NOT NULL,
    transcript_language TEXT,
    model               TEXT,
    points              TEXT,
    prompt_tokens       INTEGER NOT NULL DEFAULT 0,
    completion_tokens   INTEGER NOT NULL DEFAULT 0,
    made_at             INTEGER,
    lease_owner         TEXT,
    lease_expires_at    INTEGER,
    next_attempt_at     INTEGER,
    attempts            INTEGER NOT NULL DEFAULT 0,
    last_error          TEXT,
    PRIMARY KEY (video_id, language, prompt_version)
  ) WITHOUT ROWID;
  CREATE INDEX summaries_status ON summaries (language, prompt_version, status);
  CREATE TABLE summary_days (
    day    TEXT PRIMARY KEY,
    videos INTEGER NOT NULL,
    tokens INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 24: the web app's sessions, keyed by the SHA-256 of the cookie's
  // id (never the id itself), the key's digest, and the last request for the idle expiry.
  `
  CREATE TABLE web_sessions (
    id_hash      TEXT PRIMARY KEY,
    key_id       TEXT NOT NULL,
    csrf         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX web_sessions_idle ON web_sessions (last_seen_at);
  `,
  // 25: the languages a video's last player answer offered (JSON), so a language asked later is
  // fetched again only where offered. Null on rows from before: those are asked once, as before.
  `
  ALTER TABLE videos ADD COLUMN offered_languages TEXT;
  `,
  // 26: the summary queue's scan (issue 31): every video newest published first, so the next video
  // to summarise is read off an index instead of sorting the whole table at each claim.
  `
  CREATE INDEX videos_summary_queue ON videos (published_at DESC, video_id);
  `,
];

/** Bring the schema up to date. Throws when the file was written by a newer version of the code. */
export function migrate(db: Database.Database, logger: Logger): void {
  const apply = db.transaction((): { from: number; to: number } => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const row = db.prepare<[], { version: number }>('SELECT version FROM schema_version').get();
    const from = row?.version ?? 0;
    if (from > MIGRATIONS.length) {
      throw new Error(`SQLite schema version ${from} is newer than this code knows (${MIGRATIONS.length}); upgrade the service`);
    }
    for (const step of MIGRATIONS.slice(from)) {
      if (typeof step === 'string') db.exec(step);
      else step(db, logger);
    }
    if (row) db.prepare('UPDATE schema_version SET version = ?').run(MIGRATIONS.length);
    else db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(MIGRATIONS.length);
    return { from, to: MIGRATIONS.length };
  });
  const { from, to } = apply.immediate();
  if (from !== to) logger.info({ from, to }, 'store schema migrated');
}
