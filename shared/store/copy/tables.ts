// What `npm run store:copy` moves, one entry per table: its fields with their types, its key, and
// what MongoDB derives on write. Both backends name fields the same way (SQLite columns are the
// snake_case of the names here; MongoDB fields are the names, a one-field key being `_id`), so a
// new table is one entry here and nothing else.

import { isFeedEntry } from '../rules';

/**
 * text and int are stored as they are; time is a Date (SQLite: epoch ms); json a value (SQLite: its
 * JSON text); flag a boolean (SQLite: 0/1; MongoDB: `true` or absent).
 */
export type FieldType = 'text' | 'int' | 'time' | 'json' | 'flag';

/** One row in the backend-neutral form the copy carries between stores. */
export type Row = Record<string, unknown>;

export interface CopyTable {
  /** SQLite table and MongoDB collection. */
  readonly name: string;
  /** The fields forming the key, in key order (a subset of `fields`). */
  readonly key: readonly string[];
  readonly fields: Readonly<Record<string, FieldType>>;
  /** Fields MongoDB keeps beside the record's own, derived from it (indexes read them). */
  readonly mongoDerived?: (row: Row) => Row;
  /** What joins a composite key's parts into MongoDB's `_id` (default a newline). */
  readonly mongoIdJoin?: string;
  /**
   * The field naming the video whose search entry a row feeds: the destination makes those
   * entries again from what it now stores, as a batch write does (search is never copied).
   */
  readonly feedsSearchOf?: string;
}

export const COPY_TABLES: readonly CopyTable[] = [
  {
    name: 'channels',
    key: ['channelId'],
    fields: {
      channelId: 'text', handle: 'text', title: 'text', wanted: 'int', dueAt: 'time', leaseOwner: 'text', leaseExpiresAt: 'time',
      claimedWanted: 'int', lastCrawlAt: 'time', lastOutcome: 'text', lastError: 'text', consecutiveFailures: 'int', createdAt: 'time',
      coveredWanted: 'int', followed: 'flag', askedAt: 'time',
    },
  },
  {
    name: 'videos',
    key: ['videoId'],
    fields: {
      videoId: 'text', channelId: 'text', title: 'text', publishedAt: 'time', language: 'text', kind: 'text', state: 'text',
      attempts: 'int', nextAttemptAt: 'time', lastError: 'text', fetchedAt: 'time', videoKind: 'text', durationSeconds: 'int',
      description: 'text',
    },
    mongoDerived: (row) => ({ inFeed: isFeedEntry(String(row.state), (row.nextAttemptAt as Date | null) ?? null) }),
    feedsSearchOf: 'videoId',
  },
  {
    name: 'transcripts',
    key: ['videoId', 'language'],
    fields: { videoId: 'text', language: 'text', kind: 'text', paragraphs: 'json', untimed: 'flag', fetchedAt: 'time' },
    feedsSearchOf: 'videoId',
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
    name: 'subscriptions',
    key: ['keyId', 'ref'],
    fields: { keyId: 'text', ref: 'text', channelId: 'text', handle: 'text', title: 'text', source: 'text', since: 'time', checkedAt: 'time' },
    mongoIdJoin: '/',
  },
];

/** SQLite's column for a field name: `channelId` → `channel_id`. */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** MongoDB's `_id` of a row: the key itself, or a composite key's parts joined as the store joins them. */
export const mongoIdOf = (table: CopyTable, row: Row): string => table.key.map((k) => String(row[k])).join(table.mongoIdJoin ?? '\n');
