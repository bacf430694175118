// The embedded store: one SQLite file shared by the API and the crawler processes, made of one
// file per table (channels, videos, handles, rate limits, subscriptions). better-sqlite3 is synchronous, which is
// what we want here: every call is short and indexed.

import Database from 'better-sqlite3';
import type { Logger } from '../../logger';
import { assembleStore, type BackendMethods } from '../call';
import type { Store } from '../types';
import { channelAdmin } from './channel-admin';
import { channelsTable } from './channels';
import { heartbeatsTable } from './heartbeats';
import { hourlyCountsTable } from './hourly-counts';
import { runsTable } from './runs';
import { toStoreError } from './errors';
import { handlesTable } from './handles';
import { watchDatabaseFile } from './file-watch';
import { migrate } from './migrations';
import { platformCheckTable } from './platform-check';
import { openDatabase } from './open-database';
import { playlistsTable } from './playlists';
import { platformPacingTable } from './platform-pacing';
import { rateLimitsTable } from './rate-limits';
import { webSessionsTable } from './web-sessions';
import { searchTable } from './search';
import { subscriptionsTable } from './subscriptions';
import { followedOverviewTable } from './followed-overview';
import { summariesTable } from './summaries';
import { transcriptsTable } from './transcripts';
import { videosTable } from './videos';
import { webSubTable } from './websub';

export interface SqliteOptions {
  /**
   * How long a write waits for another process's write lock. better-sqlite3 waits on the event
   * loop, so the API keeps this short; the crawler keeps the long default (BUSY_TIMEOUT_MS).
   */
  busyTimeoutMs?: number;
  /**
   * After a write found the database locked, fail every call at once for this long instead of
   * waiting again (0 = off): a lock held for seconds then costs one short wait per window, not one
   * per request, and everything else the process does (its /health) stays fast.
   */
  busyFailFastMs?: number;
  /**
   * Called once if the database file is deleted or replaced while open (file-watch.ts); the
   * process should report it and exit. Not watched when left out, or for `:memory:`.
   */
  onFileLost?: (reason: string) => void;
  /**
   * Keep the search index in step with every write (default true). False only to measure what the
   * index costs a batch write (bench/search.ts): searches then miss what is written.
   */
  indexSearch?: boolean;
}

const isBusy = (err: unknown): boolean => err instanceof Database.SqliteError && err.code.startsWith('SQLITE_BUSY');

/** Opens (creating when missing) and migrates the file. `:memory:` gives a private database. */
export function openSqliteStore(file: string, logger: Logger, opts: SqliteOptions = {}): Store {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(file);
    migrate(db, logger);
  } catch (err) {
    db?.close();
    throw toStoreError(err);
  }
  const open = db;
  if (opts.busyTimeoutMs !== undefined) open.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs))}`);
  const failFastMs = opts.busyFailFastMs ?? 0;
  const stopWatch = opts.onFileLost && file !== ':memory:'
    ? watchDatabaseFile(file, opts.onFileLost, {
      onUnchecked: (reason) => logger.warning({ file, reason }, `cannot check whether the database file was deleted or replaced: ${reason}`),
    })
    : () => undefined;
  let lockedUntil = 0;
  const videos = videosTable(open, { indexSearch: opts.indexSearch });
  const transcripts = transcriptsTable(open);
  const { closeSearch, ...search } = searchTable(open, file, videos, transcripts);
  const methods: BackendMethods = {
    ...channelsTable(open),
    ...videos,
    ...transcripts,
    ...search,
    ...handlesTable(open),
    ...playlistsTable(open),
    ...rateLimitsTable(open),
    ...platformPacingTable(open),
    ...platformCheckTable(open),
    ...subscriptionsTable(open),
    ...followedOverviewTable(open),
    ...channelAdmin(open),
    ...runsTable(open),
    ...heartbeatsTable(open),
    ...hourlyCountsTable(open),
    ...webSubTable(open),
    ...summariesTable(open),
    ...webSessionsTable(open),
    close: () => {
      stopWatch();
      closeSearch();
      if (open.open) open.close();
    },
  };
  logger.debug({ file }, 'sqlite store open');
  return assembleStore(
    {
      kind: 'sqlite',
      logger,
      isOpen: () => open.open,
      refuseNow: () => (Date.now() < lockedUntil ? 'SQLite store unavailable: locked by another process (failing fast)' : null),
      toStoreError(err) {
        if (failFastMs > 0 && isBusy(err)) lockedUntil = Date.now() + failFastMs;
        return toStoreError(err);
      },
    },
    methods,
  );
}
