// The embedded store: one SQLite file shared by the API and the crawler processes. Composes one
// class per table; this class only adds the Store's promise interface and the error mapping.
// better-sqlite3 is synchronous, which is what we want here: every call is short and indexed.

import type Database from 'better-sqlite3';
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
import { ChannelsTable } from './channels';
import { toStoreError } from './errors';
import { HandlesTable } from './handles';
import { migrate } from './migrations';
import { openDatabase } from './open-database';
import { RateLimitsTable } from './rate-limits';
import { VideosTable } from './videos';

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly channels: ChannelsTable;
  private readonly videos: VideosTable;
  private readonly handles: HandlesTable;
  private readonly rateLimits: RateLimitsTable;

  private constructor(
    private readonly db: Database.Database,
    private readonly logger: Logger,
  ) {
    this.channels = new ChannelsTable(db);
    this.videos = new VideosTable(db);
    this.handles = new HandlesTable(db);
    this.rateLimits = new RateLimitsTable(db);
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
  private async call<T>(work: () => T): Promise<T> {
    if (!this.db.open) throw new StoreUnavailableError('SQLite store is closed');
    try {
      return work();
    } catch (err) {
      const mapped = toStoreError(err);
      if (mapped instanceof StoreUnavailableError) this.logger.warning({ err: (err as Error).message }, 'sqlite store unavailable');
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
    return this.call(() => {
      this.db.prepare('SELECT 1').get();
    });
  }

  /** Closing twice is harmless. */
  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
