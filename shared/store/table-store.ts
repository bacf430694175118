// What the two stores have in common: each composes one object per record type (SQLite tables,
// MongoDB collections) and runs every call through its own `call`, which maps "cannot reach the
// database" to StoreUnavailableError. The Store methods are written once, here; an implementation
// supplies its tables, `call`, `ping` and `close`.

import { checkedHits } from './rate-window';
import type { ChannelRecord, RateLimitResult, RegisterChannelInput, ReleaseInput, Store, VideoRecord } from './types';

type Awaitable<T> = T | Promise<T>;

/** The record-type objects a store is made of; SQLite's answer at once, MongoDB's with a promise. */
export interface StoreTables {
  channels: {
    registerChannel(input: RegisterChannelInput, now: Date): Awaitable<ChannelRecord>;
    getChannel(channelId: string): Awaitable<ChannelRecord | null>;
    claimDueChannel(owner: string, leaseMs: number, now: Date): Awaitable<ChannelRecord | null>;
    renewLease(channelId: string, owner: string, leaseMs: number, now: Date): Awaitable<boolean>;
    releaseChannel(channelId: string, owner: string, result: ReleaseInput, now: Date): Awaitable<boolean>;
    markAllDue(now: Date): Awaitable<number>;
  };
  videos: {
    upsertVideos(videos: readonly VideoRecord[]): Awaitable<void>;
    listFeedEntries(channelId: string, limit: number): Awaitable<VideoRecord[]>;
    feedVersion(channelId: string): Awaitable<Date | null>;
    videosNeedingWork(videoIds: readonly string[], now: Date): Awaitable<string[]>;
    getVideos(videoIds: readonly string[]): Awaitable<VideoRecord[]>;
    storedVideoIds(videoIds: readonly string[]): Awaitable<string[]>;
    videosDueForRetry(channelId: string, now: Date, limit: number): Awaitable<VideoRecord[]>;
  };
  handles: {
    getHandle(handle: string): Awaitable<string | null>;
    putHandle(handle: string, channelId: string, now: Date): Awaitable<void>;
  };
  rateLimits: {
    hitRateLimit(keyId: string, limit: number, now: Date, hits: number): Awaitable<RateLimitResult>;
  };
}

export abstract class TableStore<T extends StoreTables> implements Store {
  abstract readonly kind: Store['kind'];

  protected constructor(protected readonly tables: T) {}

  /** Runs one table call; a closed or unreachable database becomes StoreUnavailableError. */
  protected abstract call<R>(work: () => Awaitable<R>): Promise<R>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  registerChannel(input: RegisterChannelInput, now: Date): Promise<ChannelRecord> {
    return this.call(() => this.tables.channels.registerChannel(input, now));
  }

  getChannel(channelId: string): Promise<ChannelRecord | null> {
    return this.call(() => this.tables.channels.getChannel(channelId));
  }

  claimDueChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null> {
    return this.call(() => this.tables.channels.claimDueChannel(owner, leaseMs, now));
  }

  renewLease(channelId: string, owner: string, leaseMs: number, now: Date): Promise<boolean> {
    return this.call(() => this.tables.channels.renewLease(channelId, owner, leaseMs, now));
  }

  releaseChannel(channelId: string, owner: string, result: ReleaseInput, now: Date): Promise<boolean> {
    return this.call(() => this.tables.channels.releaseChannel(channelId, owner, result, now));
  }

  markAllDue(now: Date): Promise<number> {
    return this.call(() => this.tables.channels.markAllDue(now));
  }

  upsertVideos(videos: readonly VideoRecord[]): Promise<void> {
    return this.call(() => this.tables.videos.upsertVideos(videos));
  }

  listFeedEntries(channelId: string, limit: number): Promise<VideoRecord[]> {
    return this.call(() => this.tables.videos.listFeedEntries(channelId, limit));
  }

  feedVersion(channelId: string): Promise<Date | null> {
    return this.call(() => this.tables.videos.feedVersion(channelId));
  }

  videosNeedingWork(videoIds: readonly string[], now: Date): Promise<string[]> {
    return this.call(() => this.tables.videos.videosNeedingWork(videoIds, now));
  }

  getVideos(videoIds: readonly string[]): Promise<VideoRecord[]> {
    return this.call(() => this.tables.videos.getVideos(videoIds));
  }

  storedVideoIds(videoIds: readonly string[]): Promise<string[]> {
    return this.call(() => this.tables.videos.storedVideoIds(videoIds));
  }

  videosDueForRetry(channelId: string, now: Date, limit: number): Promise<VideoRecord[]> {
    return this.call(() => this.tables.videos.videosDueForRetry(channelId, now, limit));
  }

  getHandle(handle: string): Promise<string | null> {
    return this.call(() => this.tables.handles.getHandle(handle));
  }

  putHandle(handle: string, channelId: string, now: Date): Promise<void> {
    return this.call(() => this.tables.handles.putHandle(handle, channelId, now));
  }

  hitRateLimit(keyId: string, limit: number, now: Date, hits = 1): Promise<RateLimitResult> {
    return this.call(() => this.tables.rateLimits.hitRateLimit(keyId, limit, now, checkedHits(hits)));
  }
}
