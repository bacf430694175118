// The embedded store: one SQLite file shared by the API and the crawler processes. Composes one
// class per table; this class only adds the Store's promise interface and the error mapping.
// better-sqlite3 is synchronous, which is what we want here: every call is short and indexed.

import type Database from 'better-sqlite3';
import type { Logger } from '../../logger';
import { TableStore } from '../table-store';
import { StoreUnavailableError } from '../types';
import { ChannelsTable } from './channels';
import { toStoreError } from './errors';
import { HandlesTable } from './handles';
import { migrate } from './migrations';
import { openDatabase } from './open-database';
import { RateLimitsTable } from './rate-limits';
import { VideosTable } from './videos';

interface SqliteTables {
  channels: ChannelsTable;
  videos: VideosTable;
  handles: HandlesTable;
  rateLimits: RateLimitsTable;
}

export class SqliteStore extends TableStore<SqliteTables> {
  readonly kind = 'sqlite' as const;

  private constructor(
    private readonly db: Database.Database,
    private readonly logger: Logger,
  ) {
    super({ channels: new ChannelsTable(db), videos: new VideosTable(db), handles: new HandlesTable(db), rateLimits: new RateLimitsTable(db) });
  }

  /** Opens (creating when missing) and migrates the file. `:memory:` gives a private database. */
  static open(file: string, logger: Logger): SqliteStore {
    let db: Database.Database | undefined;
    try {
      db = openDatabase(file);
      migrate(db, logger);
      const store = new SqliteStore(db, logger);
      logger.debug({ file }, 'sqlite store open');
      return store;
    } catch (err) {
      db?.close();
      throw toStoreError(err);
    }
  }

  /** Runs one synchronous table call; a closed database or a lock timeout becomes StoreUnavailableError. */
  protected async call<T>(work: () => T | Promise<T>): Promise<T> {
    if (!this.db.open) throw new StoreUnavailableError('SQLite store is closed');
    try {
      return await work();
    } catch (err) {
      const mapped = toStoreError(err);
      if (mapped instanceof StoreUnavailableError) this.logger.warning({ err: (err as Error).message }, 'sqlite store unavailable');
      throw mapped;
    }
  }

  override ping(): Promise<void> {
    return this.call(() => {
      this.db.prepare('SELECT 1').get();
    });
  }

  /** Closing twice is harmless. */
  override async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
