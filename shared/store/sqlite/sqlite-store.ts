// The embedded store: one SQLite file shared by the API and the crawler processes, made of one
// file per table (channels, videos, handles, rate limits). better-sqlite3 is synchronous, which is
// what we want here: every call is short and indexed.

import type Database from 'better-sqlite3';
import type { Logger } from '../../logger';
import { assembleStore, type BackendMethods } from '../call';
import type { Store } from '../types';
import { channelsTable } from './channels';
import { toStoreError } from './errors';
import { handlesTable } from './handles';
import { migrate } from './migrations';
import { openDatabase } from './open-database';
import { rateLimitsTable } from './rate-limits';
import { videosTable } from './videos';

/** Opens (creating when missing) and migrates the file. `:memory:` gives a private database. */
export function openSqliteStore(file: string, logger: Logger): Store {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(file);
    migrate(db, logger);
  } catch (err) {
    db?.close();
    throw toStoreError(err);
  }
  const open = db;
  const methods: BackendMethods = {
    ...channelsTable(open),
    ...videosTable(open),
    ...handlesTable(open),
    ...rateLimitsTable(open),
    ping: () => void open.prepare('SELECT 1').get(),
    close: () => {
      if (open.open) open.close();
    },
  };
  logger.debug({ file }, 'sqlite store open');
  return assembleStore({ kind: 'sqlite', logger, isOpen: () => open.open, toStoreError }, methods);
}
