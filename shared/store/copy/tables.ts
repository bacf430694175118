// What `npm run store:copy` moves, one entry per table: its fields with their types, its key, and
// what either backend keeps differently. Both backends name fields alike (SQLite columns are the
// snake_case of the names here; MongoDB fields are the names, a one-field key being `_id`), so a
// new table is one entry here.
//
// Copied: what a deployment needs to go on where it stopped, as its readers see it: the crawler's
// work (channels and playlists with their schedule, leases and failure history), videos,
// transcripts, handles, the languages readers asked for, subscriptions and their version counters,
// playlists' listings, push (WebSub) subscriptions with their secrets, and the videos the hub
// notified. Left behind: NOT_COPIED below, and MongoDB's feed_versions (read from the entries when
// absent). docs/operations.md says both to operators.

import { isFeedEntry } from '../rules';

/**
 * text and int are stored as they are; time is a Date (SQLite: epoch ms); json a value (SQLite: its
 * JSON text); flag a boolean (SQLite: 0/1).
 */
export type FieldType = 'text' | 'int' | 'time' | 'json' | 'flag';

export interface FieldSpec {
  type: FieldType;
  /** What a MongoDB document without the field means (documents written before it existed). */
  mongoMissing?: unknown;
  /** MongoDB keeps the field only when true (a flag the store $unsets otherwise). */
  mongoOnlyTrue?: boolean;
  /** Not a SQLite column of the table: read with this SQL expression, never written there. */
  sqliteRead?: string;
  /** MongoDB keeps the field only when it has this value (else it is absent). */
  mongoOnlyWhen?: unknown;
}

/** One row in the backend-neutral form the copy carries between stores. */
export type Row = Record<string, unknown>;

export interface CopyTable {
  /** SQLite table and MongoDB collection. */
  readonly name: string;
  /** The fields forming the key, in key order. */
  readonly key: readonly string[];
  readonly fields: Readonly<Record<string, FieldType | FieldSpec>>;
  /** Fields MongoDB keeps beside the record's own, derived from it (indexes read them). */
  readonly mongoDerived?: (row: Row) => Row;
  /** What joins a composite key's parts into MongoDB's `_id` (default a newline). */
  readonly mongoIdJoin?: string;
  /** Rows of this table name videos whose search entries the destination makes again. */
  readonly feedsSearch?: boolean;
}

export const specOf = (f: FieldType | FieldSpec): FieldSpec => (typeof f === 'string' ? { type: f } : f);

export const COPY_TABLES: readonly CopyTable[] = [
  {
    name: 'channels',
    key: ['channelId'],
    fields: {
      channelId: 'text', kind: { type: 'text', mongoMissing: 'channel' }, handle: 'text', title: 'text', wanted: 'int', dueAt: 'time',
      leaseOwner: 'text', leaseExpiresAt: 'time', claimedWanted: 'int', lastCrawlAt: 'time', lastOutcome: 'text', lastError: 'text',
      consecutiveFailures: 'int', createdAt: 'time', coveredWanted: 'int', followed: 'flag', askedAt: 'time', awaitedAt: 'time',
      awaitedBy: 'text', awaitedRound: { type: 'int', mongoMissing: 0 }, createdBy: 'text',
    },
  },
  {
    name: 'videos',
    key: ['videoId'],
    fields: {
      videoId: 'text', channelId: 'text', title: 'text', publishedAt: 'time', language: 'text', kind: 'text', state: 'text',
      attempts: 'int', nextAttemptAt: 'time', lastError: 'text', fetchedAt: 'time', videoKind: 'text', durationSeconds: 'int',
      description: 'text', offeredLanguages: 'json',
    },
    mongoDerived: (row) => ({ inFeed: isFeedEntry(String(row.state), (row.nextAttemptAt as Date | null) ?? null) }),
    feedsSearch: true,
  },
  {
    name: 'transcripts',
    key: ['videoId', 'language'],
    fields: { videoId: 'text', language: 'text', kind: 'text', paragraphs: 'json', untimed: { type: 'flag', mongoOnlyTrue: true }, fetchedAt: 'time' },
  },
  {
    name: 'handles',
    key: ['handle'],
    fields: { handle: 'text', channelId: 'text', resolvedAt: 'time' },
  },
  {
    name: 'channel_languages',
    key: ['channelId', 'language'],
    fields: { channelId: 'text', language: 'text', askedAt: 'time', coveredAt: 'time' },
  },
  {
    name: 'language_asks',
    key: ['channelId', 'keyId', 'language'],
    fields: { channelId: 'text', keyId: 'text', language: 'text', askedAt: 'time' },
  },
  {
    name: 'subscriptions',
    key: ['keyId', 'ref'],
    fields: {
      keyId: 'text', ref: 'text', channelId: 'text', handle: 'text', title: 'text', source: 'text', since: 'time', checkedAt: 'time',
      queuedKind: 'text', handleAskedAt: 'time',
      // SQLite reads a playlist's subscription from its work item; MongoDB marks the document.
      kind: { type: 'text', sqliteRead: `coalesce((SELECT c.kind FROM channels c WHERE c.channel_id = subscriptions.channel_id), 'channel')`, mongoMissing: 'channel', mongoOnlyWhen: 'playlist' },
    },
    mongoIdJoin: '/',
  },
  {
    name: 'subscription_changes',
    key: ['keyId'],
    fields: { keyId: 'text', changes: 'int' },
  },
  {
    name: 'playlists',
    key: ['playlistId'],
    fields: {
      playlistId: 'text', title: 'text', owner: 'text', ownerChannelId: 'text', state: 'text', videoIds: 'json', listedAt: 'time', changedAt: 'time',
    },
  },
  {
    name: 'websub',
    key: ['channelId'],
    fields: {
      channelId: 'text', topic: 'text', token: 'text', secret: 'text', status: 'text', requestedAt: 'time', verifiedAt: 'time',
      leaseSeconds: 'int', leaseExpiresAt: 'time', nextActionAt: 'time', failures: 'int', lastError: 'text', updatedAt: 'time',
    },
  },
  {
    name: 'pushed_videos',
    key: ['videoId'],
    fields: {
      videoId: 'text', channelId: 'text', title: 'text', publishedAt: 'time', dueAt: 'time', attempts: 'int', leaseOwner: 'text', leaseExpiresAt: 'time',
    },
  },
  {
    // Summaries are costly to make again (model calls): copied, queue state included.
    name: 'summaries',
    key: ['videoId', 'language', 'promptVersion'],
    fields: {
      videoId: 'text', language: 'text', promptVersion: 'int', status: 'text', transcriptLanguage: { type: 'text', mongoMissing: null }, model: { type: 'text', mongoMissing: null },
      points: { type: 'json', mongoMissing: null }, promptTokens: { type: 'int', mongoMissing: 0 }, completionTokens: { type: 'int', mongoMissing: 0 }, madeAt: { type: 'time', mongoMissing: null },
      leaseOwner: 'text', leaseExpiresAt: 'time', nextAttemptAt: 'time', attempts: 'int', lastError: 'text',
    },
  },
];

/**
 * The tables a move leaves behind, and why (docs/operations.md says the same to operators). A table
 * in neither list fails the store:copy test: whoever adds one decides whether a move carries it.
 */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  search_docs: 'made again at the destination from the copied text',
  search_index: 'made again at the destination from the copied text',
  rate_limits: 'per-minute counters',
  platform_requests: 'per-minute counters; the hour\'s budget starts afresh',
  unknown_handles: 'an hour-long negative cache',
  platform_cool_down: 'a cool-down in force: wait for it to end before moving',
  platform_check: 'the last check; ask again',
  crawler_heartbeats: 'written again within seconds by running crawlers',
  channel_runs: 'the runs history of the operators\' views',
  hourly_counts: 'the status page\'s chart',
  summary_days: 'the daily summary caps; the day starts afresh',
  web_sessions: 'the web app\'s sign-ins: readers sign in again after a move',
  schema_version: 'each store has its own',
};

/** SQLite's column for a field name: `channelId` → `channel_id`. */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** MongoDB's `_id` of a row: the key itself, or a composite key's parts joined as the store joins them. */
export const mongoIdOf = (table: CopyTable, row: Row): string => table.key.map((k) => String(row[k])).join(table.mongoIdJoin ?? '\n');
