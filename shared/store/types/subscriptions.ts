// Subscriptions: the channels and playlists each API key follows, and its combined feed.

import type { ChannelRecord, WorkKind } from './channels';
import type { FeedKind } from './videos';

/** How a key came to follow a channel. */
export type SubscriptionSource = 'feed' | 'import';

/**
 * One channel (or playlist) a key wants to follow: by id, or a channel by handle until the crawler
 * resolves it. A playlist is followed by its id with `kind: 'playlist'` (its work item is created of
 * that kind; an existing work item keeps its kind).
 */
export type SubscriptionInput =
  | { readonly channelId: string; readonly handle?: undefined; readonly title?: string | null; readonly kind?: WorkKind }
  | { readonly channelId?: undefined; readonly handle: string; readonly title?: string | null; readonly kind?: 'channel' };

/** A channel (or playlist) a key imported that waits in the key's queue for its hourly allowance. */
export interface QueuedImport {
  channelId: string;
  kind: WorkKind;
}

/** One key's imported work still waiting: channels in its queue and handles not resolved yet. */
export interface ImportQueue {
  keyId: string;
  /** Imported channels (and playlists) with no work item yet, waiting for the key's allowance. */
  queued: number;
  /** Imported handles the crawler has not resolved yet (those the platform did not know included). */
  handles: number;
}

export interface FollowOptions {
  /** A channel (playlist) the store does not know waits in the key's import queue instead of getting a work item. */
  readonly queueNew?: boolean;
}

export interface ResolveHandleOptions extends FollowOptions {
  /** The key in whose turn the platform was asked. */
  readonly askedBy?: string | null;
}

/** A followed handle to resolve, in the turn of the key that follows it. */
export interface HandleTurn {
  keyId: string;
  handle: string;
}

export interface SubscriptionRecord {
  /** Null while the subscription names a handle the crawler has not resolved yet; a playlist's id for a playlist. */
  channelId: string | null;
  /** What is followed: a channel, or a playlist (channelId is then the playlist id). */
  kind: WorkKind;
  /** Lower-cased handle without `@` for a subscription by handle not resolved yet; else null. */
  handle: string | null;
  /** The channel's (playlist's) title as the crawler saw it, else the title the import gave, else null. */
  title: string | null;
  source: SubscriptionSource;
  since: Date;
}

/** One followed channel (playlist) as the web app's home lists it: the subscription, what is stored of it, its crawl state. */
export interface FollowedOverview extends SubscriptionRecord {
  /** Its feed entries stored (a playlist: those of the videos its last listing names). */
  stored: number;
  /** The newest of those entries' publication date; null with none. */
  newestAt: Date | null;
  /** Its work item's crawl fields; null without one (a handle not resolved yet, an import still queued). */
  work: Pick<ChannelRecord, 'leaseOwner' | 'leaseExpiresAt' | 'lastOutcome' | 'dueAt' | 'lastCrawlAt'> | null;
}

/**
 * One entry of a key's combined feed as the store lists it: enough to decide a 304 or a cached
 * body without reading any transcript (the route reads the full records only to render).
 */
export interface SubscriptionFeedEntry {
  videoId: string;
  channelId: string;
  publishedAt: Date;
  fetchedAt: Date;
  /** The channel's title as the crawler saw it, else the import's title, else null. */
  channelTitle: string | null;
}

/** A key's followed channels (keyId is the key's SHA-256 hex digest, never the key). */
export interface SubscriptionStore {
  /**
   * Make the key follow these channels (and playlists), all in one batched write: a known channel is
   * marked followed and asked-for; an unknown one gets a work item (created with `wanted` and due at
   * `now`), or with `queueNew` waits in the key's import queue instead (queuedImports, no work item
   * yet); a handle already in the handle cache is followed as its channel id, any other handle waits
   * for the crawler (subscribedHandlesToResolve). Answers, per input, whether it was newly followed
   * (false: the key already followed it, or it repeats an earlier input).
   */
  follow(keyId: string, subs: readonly SubscriptionInput[], source: SubscriptionSource, wanted: number, now: Date, opts?: FollowOptions): Promise<boolean[]>;
  /**
   * Stop following `ref` (a channel or playlist id, or `@handle` for one not resolved yet). False when
   * not followed. When no key follows the channel any more, its push subscription record becomes due
   * at once, so the crawler asks the hub to stop pushing it.
   */
  unfollow(keyId: string, ref: string, now: Date): Promise<boolean>;
  /** The key's subscriptions, oldest first. */
  listSubscriptions(keyId: string): Promise<SubscriptionRecord[]>;
  /**
   * listSubscriptions' records, in its order, each with its stored entries' count and newest date and
   * its work item's crawl state: a constant number of indexed reads for the whole list, however many
   * channels the key follows (the web app's home page of a key following 1,000 channels).
   */
  followedOverview(keyId: string): Promise<FollowedOverview[]>;
  /**
   * Channels at least one key follows, by channel id ascending, `limit` at a time after
   * `afterChannelId` (null = from the start): the WebSub subscriber and the scheduler page through it.
   * Followed playlists are not among them (the platform's hub pushes channels only).
   */
  followedChannels(afterChannelId: string | null, limit: number): Promise<ChannelRecord[]>;
  /**
   * The newest feed entries across every channel the key follows and every video listed by a
   * playlist it follows (publishedAt desc, then videoId; a video both ways is listed once), at most
   * `limit`, of the given kinds (as listFeedEntries): indexed queries, not one per channel or playlist.
   */
  subscriptionFeed(keyId: string, limit: number, kinds?: readonly FeedKind[]): Promise<SubscriptionFeedEntry[]>;
  /**
   * A token that changes whenever the key's combined feed may have changed: the newest write among
   * all feed entries (one index read), the newest playlist listing change (one index read: a
   * followed playlist's new order or entries) and the key's subscription change counter. Equal
   * tokens let the API reuse what it listed a moment ago.
   */
  subscriptionFeedVersion(keyId: string): Promise<string>;
  /**
   * Handles keys follow that no channel id is known for, not tried since `retryBefore`, at most
   * `limit`, taken round-robin by key: each key's oldest first, one per key and turn, the keys asked
   * least recently first, and no key past `perKeyHour` asks (resolveSubscribedHandle's `askedBy`) in
   * the hour up to `now`. One handle followed by several keys comes once per key.
   */
  subscribedHandlesToResolve(retryBefore: Date, limit: number, perKeyHour: number, now: Date): Promise<HandleTurn[]>;
  /**
   * The crawler's answer for a followed handle: with a channel id, every key following the handle
   * now follows the channel (and the handle is cached), an unknown channel getting its work item
   * (or with `queueNew` waiting in each key's import queue); null = the platform has no such
   * channel, recorded as tried at `now`, and the subscriptions stay (shown as unresolved).
   * `askedBy`: the key in whose turn the platform was asked (counted into its hourly share by
   * subscribedHandlesToResolve); left out when no platform request was made.
   */
  resolveSubscribedHandle(handle: string, channelId: string | null, wanted: number, now: Date, opts?: ResolveHandleOptions): Promise<void>;
  /** The key's queued imports, oldest first (then by id), at most `limit`. */
  queuedImports(keyId: string, limit: number): Promise<QueuedImport[]>;
  /**
   * These queued imports of the key leave its queue: followed as a known channel is (a work item
   * must exist already: import-queue.ts registers a new one first, under the key).
   */
  dequeueImports(keyId: string, channelIds: readonly string[], now: Date): Promise<void>;
  /** Every key with imported work waiting (or only `keyId`, answered even when it has none), by keyId. */
  importQueues(keyId?: string | null): Promise<ImportQueue[]>;
}
