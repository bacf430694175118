// The scale-out store: MongoDB 6+ through the official driver. Composes one class per collection;
// this class owns the client, creates the indexes at start, and maps "cannot reach the server"
// (and any call after close) to StoreUnavailableError.

import { MongoClient } from 'mongodb';
import type { Logger } from '../../logger';
import { TableStore } from '../table-store';
import { StoreUnavailableError } from '../types';
import { ChannelsCollection } from './channels';
import { toStoreError } from './errors';
import { HandlesCollection } from './handles';
import { RateLimitsCollection } from './rate-limits';
import { VideosCollection } from './videos';

export interface MongoStoreOptions {
  logger: Logger;
  /** How long an operation waits for a reachable server before failing (default 5000). */
  serverSelectionTimeoutMS?: number;
  /** Database to use; default: the one named in the URL, else `transcript-feed`. */
  dbName?: string;
}

export const DEFAULT_DB_NAME = 'transcript-feed';

/** The database named in the URL path (`mongodb://host/name?…`), if any. */
export function dbNameFromUrl(url: string): string | null {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(url);
  const name = m?.[1] ? decodeURIComponent(m[1]) : '';
  return name === '' ? null : name;
}

interface MongoCollections {
  channels: ChannelsCollection;
  videos: VideosCollection;
  handles: HandlesCollection;
  rateLimits: RateLimitsCollection;
}

export class MongoStore extends TableStore<MongoCollections> {
  readonly kind = 'mongodb' as const;
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly logger: Logger,
    collections: MongoCollections,
  ) {
    super(collections);
  }

  static async connect(url: string, opts: MongoStoreOptions): Promise<MongoStore> {
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5000,
      appName: 'transcript-feed',
    });
    try {
      await client.connect();
      const db = client.db(opts.dbName ?? dbNameFromUrl(url) ?? DEFAULT_DB_NAME);
      const collections: MongoCollections = {
        channels: new ChannelsCollection(db),
        videos: new VideosCollection(db),
        handles: new HandlesCollection(db),
        rateLimits: new RateLimitsCollection(db),
      };
      await Promise.all([collections.channels.ensureIndexes(), collections.videos.ensureIndexes(), collections.rateLimits.ensureIndexes()]);
      const store = new MongoStore(client, opts.logger, collections);
      opts.logger.debug({ db: db.databaseName }, 'mongodb store open');
      return store;
    } catch (err) {
      await client.close().catch(() => undefined);
      throw toStoreError(err);
    }
  }

  protected async call<T>(work: () => T | Promise<T>): Promise<T> {
    // Driver 7 refuses a closed client itself (MongoNotConnectedError, mapped too); checking first
    // keeps a closed store closed without a driver round trip and with a plain message.
    if (this.closed) throw new StoreUnavailableError('MongoDB store is closed');
    try {
      return await work();
    } catch (err) {
      const mapped = toStoreError(err);
      if (mapped instanceof StoreUnavailableError) this.logger.warning({ err: (err as Error).message }, 'mongodb store unavailable');
      throw mapped;
    }
  }

  override ping(): Promise<void> {
    return this.call(async () => {
      await this.client.db('admin').command({ ping: 1 });
    });
  }

  /** Closing twice is harmless. */
  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}
