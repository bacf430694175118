// Opens the store DATABASE_URL names: `sqlite:<path>` (embedded, the default) or
// `mongodb://…` / `mongodb+srv://…` (scale out). Both processes call this the same way.

import path from 'node:path';
import type { Logger } from '../logger';
import type { connectMongoStore } from './mongo/mongo-store';
import { openSqliteStore } from './sqlite/sqlite-store';
import type { Store } from './types';

export * from './types';

export interface OpenStoreOptions {
  /** The store's own logger: pass `categoryLogger(root, 'store')`; it is used as given. */
  logger: Logger;
  /** Relative SQLite paths are resolved against this (default: the working directory). */
  rootDir?: string;
  /**
   * The API's store waits (bootstrap.ts storeWaits). SQLite: the write-lock wait and fail-fast
   * window (sqlite-store.ts SqliteOptions); MongoDB: the most a call waits for an answer, and the
   * fail-fast window after one found the server unavailable (mongo-store.ts MongoStoreOptions).
   */
  busyTimeoutMs?: number;
  busyFailFastMs?: number;
  /** SQLite only: the database file was deleted or replaced while open (sqlite/file-watch.ts). */
  onFileLost?: (reason: string) => void;
  /** MongoDB only: how long to wait for a reachable server (default 5000 ms). */
  serverSelectionTimeoutMS?: number;
}

/** `sqlite:data/x.db`, `sqlite:/abs/x.db`, `sqlite:///abs/x.db` or `sqlite::memory:` → a file path. */
export function sqlitePath(databaseUrl: string, rootDir: string): string {
  const rest = databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '');
  if (rest === '') throw new Error('DATABASE_URL: sqlite: needs a file path, e.g. sqlite:data/transcript-feed.db');
  return rest === ':memory:' ? rest : path.resolve(rootDir, rest);
}

export async function openStore(databaseUrl: string, opts: OpenStoreOptions): Promise<Store> {
  const { logger } = opts;
  if (databaseUrl.startsWith('sqlite:')) {
    return openSqliteStore(sqlitePath(databaseUrl, opts.rootDir ?? process.cwd()), logger, { busyTimeoutMs: opts.busyTimeoutMs, busyFailFastMs: opts.busyFailFastMs, onFileLost: opts.onFileLost });
  }
  if (/^mongodb(\+srv)?:\/\//.test(databaseUrl)) {
    // Loaded only when asked for: the driver costs ~20 MB of memory that SQLite deployments never use.
    const mongo = (await import('./mongo/mongo-store.js')) as { connectMongoStore: typeof connectMongoStore };
    return mongo.connectMongoStore(databaseUrl, {
      logger, serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS, operationTimeoutMs: opts.busyTimeoutMs, failFastMs: opts.busyFailFastMs,
    });
  }
  // Only the scheme is echoed: the rest of the URL may hold credentials.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(databaseUrl)?.[0] ?? '(none)';
  throw new Error(`DATABASE_URL must start with sqlite:, mongodb:// or mongodb+srv:// (got scheme ${scheme})`);
}
