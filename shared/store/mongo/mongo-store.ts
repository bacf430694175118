// The scale-out store: MongoDB 6+ through the official driver. Composes one class per collection;
// this class owns the client, creates the indexes at start, and maps "cannot reach the server"
// (and any call after close) to StoreUnavailableError.

import { MongoClient } from 'mongodb';
import type { Logger } from '../../logger';
import {
  StoreUnavailableError,
  type ChannelRecord,
  type RateLimitResult,
  type RegisterChannelInput,
  type ReleaseInput,
  type Store,
  type VideoRecord,
} from '../types';
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

export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  private closed = false;

  private constructor(
    private readonly client: MongoClient,
    private readonly logger: Logger,
    private readonly channels: ChannelsCollection,
    private readonly videos: VideosCollection,
    private readonly handles: HandlesCollection,
    private readonly rateLimits: RateLimitsCollection,
  ) {}

  static async connect(url: string, opts: MongoStoreOptions): Promise<MongoStore> {
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5000,
      appName: 'transcript-feed',
    });
    try {
      await client.connect();
      const db = client.db(opts.dbName ?? dbNameFromUrl(url) ?? DEFAULT_DB_NAME);
      const store = new MongoStore(
        client,
        opts.logger,
        new ChannelsCollection(db),
        new VideosCollection(db),
        new HandlesCollection(db),
        new RateLimitsCollection(db),
      );
      await Promise.all([store.channels.ensureIndexes(), store.videos.ensureIndexes(), store.rateLimits.ensureIndexes()]);
      opts.logger.debug({ db: db.databaseName }, 'mongodb store open');
      return store;
    } catch (err) {
      await client.close().catch(() => undefined);
      throw toStoreError(err);
    }
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
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

  registerChannel(input: RegisterChannelInput, now: Date): Promise<ChannelRecord> {
    return this.call(() => this.channels.registerChannel(input, now));
  }

  getChannel(channelId: string): Promise<ChannelRecord | null> {
    return this.call(() => this.channels.getChannel(channelId));
  }

  claimDueChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null> {
    return this.call(() => this.channels.claimDueChannel(owner, leaseMs, now));
  }

  renewLease(channelId: string, owner: string, leaseMs: number, now: Date): Promise<boolean> {
    return this.call(() => this.channels.renewLease(channelId, owner, leaseMs, now));
  }

  releaseChannel(channelId: string, owner: string, result: ReleaseInput, now: Date): Promise<boolean> {
    return this.call(() => this.channels.releaseChannel(channelId, owner, result, now));
  }

  markAllDue(now: Date): Promise<number> {
    return this.call(() => this.channels.markAllDue(now));
  }

  upsertVideos(videos: readonly VideoRecord[]): Promise<void> {
    return this.call(() => this.videos.upsertVideos(videos));
  }

  listFeedEntries(channelId: string, limit: number): Promise<VideoRecord[]> {
    return this.call(() => this.videos.listFeedEntries(channelId, limit));
  }

  feedVersion(channelId: string): Promise<Date | null> {
    return this.call(() => this.videos.feedVersion(channelId));
  }

  videosNeedingWork(videoIds: readonly string[], now: Date): Promise<string[]> {
    return this.call(() => this.videos.videosNeedingWork(videoIds, now));
  }

  getVideos(videoIds: readonly string[]): Promise<VideoRecord[]> {
    return this.call(() => this.videos.getVideos(videoIds));
  }

  storedVideoIds(videoIds: readonly string[]): Promise<string[]> {
    return this.call(() => this.videos.storedVideoIds(videoIds));
  }

  videosDueForRetry(channelId: string, now: Date, limit: number): Promise<VideoRecord[]> {
    return this.call(() => this.videos.videosDueForRetry(channelId, now, limit));
  }

  getHandle(handle: string): Promise<string | null> {
    return this.call(() => this.handles.getHandle(handle));
  }

  putHandle(handle: string, channelId: string, now: Date): Promise<void> {
    return this.call(() => this.handles.putHandle(handle, channelId, now));
  }

  hitRateLimit(keyId: string, limit: number, now: Date): Promise<RateLimitResult> {
    return this.call(() => this.rateLimits.hitRateLimit(keyId, limit, now));
  }

  ping(): Promise<void> {
    return this.call(async () => {
      await this.client.db('admin').command({ ping: 1 });
    });
  }

  /** Closing twice is harmless. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }
}
