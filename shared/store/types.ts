// The store: the one place the API and the crawler meet. Two implementations (SQLite, MongoDB)
// satisfy this interface and pass the same contract suite (test/store/contract.ts).
// Every method takes `now` explicitly so that tests control time without sleeping.

import type { SearchQuery, SearchScope } from '../search/query';

export type { SearchQuery, SearchScope };

/** One search hit: the video and every stored transcript of it (the text it was matched on). */
export interface SearchHit {
  readonly video: VideoRecord;
  readonly transcripts: readonly TranscriptRecord[];
}

/** What happened to one video. `ready` carries a transcript; the others record why not. */
export type VideoState = 'ready' | 'no_transcript' | 'unavailable' | 'failed';

/** Which caption track a transcript came from. */
export type TranscriptKind = 'manual' | 'automatic';

/** Who sent platform requests: the crawler's work, or the API's handle lookups. */
export type PlatformRequestSource = 'crawler' | 'api';

export interface PlatformCoolDown {
  until: Date;
  reason: string;
}

/**
 * What a video is (docs/crawler.md §2, §3): a regular upload, a Short, a live stream (aired), or
 * a premiere / stream that has not aired yet. Feeds list regular videos unless asked for more, and
 * never list upcoming ones.
 */
export type VideoKind = 'regular' | 'short' | 'live' | 'upcoming';

/** The kinds a feed may be asked to list. */
export type FeedKind = Exclude<VideoKind, 'upcoming'>;

/** A stored transcript's track: the video's own (manual, automatic) or the platform's translation. */
export type TranscriptRecordKind = TranscriptKind | 'translated';

/**
 * One video's transcript in one language: the only stored copy of its text. Feeds render it when
 * they are served (api/feed/transcript-choice.ts), so the HTML can change without fetching again.
 * Chapters are not stored here: they are read from the video's stored description when rendering.
 */
export interface TranscriptRecord {
  videoId: string;
  /** The code the text is in (a translation's target language). */
  language: string;
  kind: TranscriptRecordKind;
  /** Paragraphs with the start of their first cue, already cut at the chapters. */
  paragraphs: { startMs: number; text: string }[];
  /**
   * True only on paragraphs recovered from a transcript stored as HTML before start times were
   * kept: every startMs is then 0 and means nothing, so they are shown without time links.
   */
  untimed?: boolean;
  fetchedAt: Date;
}

/**
 * `publishedAt` of a video whose publish date could not be learned: the Unix epoch. The crawler
 * gives it only to records that are never shown (`unavailable`, `failed`); the feed lists `ready`
 * and given-up `no_transcript` videos, and those are never stored without a real date. Storing
 * such a video at all is what lets it back off like any other failure instead of being looked up
 * again on every run.
 */
export const UNKNOWN_PUBLISHED_MS = 0;

export const isUnknownPublishedAt = (publishedAt: Date): boolean => publishedAt.getTime() === UNKNOWN_PUBLISHED_MS;

export interface VideoRecord {
  videoId: string;
  channelId: string;
  title: string;
  /**
   * Exact publish time as the platform states it (never invented), or UNKNOWN_PUBLISHED_MS on a
   * record that is never shown.
   */
  publishedAt: Date;
  /**
   * The transcript the crawler chose for the video (TRANSCRIPT_LANGUAGES): its language and track
   * kind, naming its row among the video's transcripts. Null unless state is `ready`.
   */
  language: string | null;
  kind: TranscriptKind | null;
  /** Null on records stored before kinds were recorded: listed as regular, as they always were. */
  videoKind: VideoKind | null;
  /** `videoDetails.lengthSeconds`; null when not known. */
  durationSeconds: number | null;
  /** `videoDetails.shortDescription` (the source of chapters and the entry summary); null when not known. */
  description: string | null;
  state: VideoState;
  /** How many fetch attempts have been made so far (1 after the first). */
  attempts: number;
  /** When the crawler may try again; null means never (final state or given up). */
  nextAttemptAt: Date | null;
  /** Short reason of the last failure, if any (no secrets, no stack). */
  lastError: string | null;
  /** When this record was last written; drives ETag / Last-Modified. */
  fetchedAt: Date;
}

/** What a work item is: a channel (its uploads) or a playlist (its own order). */
export type WorkKind = 'channel' | 'playlist';

export interface ChannelRecord {
  /** The work item's id: a channel id (`UC…`), or for a playlist its playlist id. */
  channelId: string;
  /** `channel` on every record written before playlists existed. */
  kind: WorkKind;
  /** Lower-cased handle without `@`, when the channel was first asked for by handle. */
  handle: string | null;
  title: string | null;
  /** Largest max_items asked for (1..100): how many of the newest videos the crawler keeps. */
  wanted: number;
  dueAt: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastCrawlAt: Date | null;
  /** Free text such as `ok`, `blocked`, `error`. */
  lastOutcome: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: Date;
  /**
   * How many of the channel's newest uploads the stored videos are known to hold without a gap, as
   * of the last run that finished its work (100, the most any listing gives, once a listing reached
   * the channel's end). Lets a refresh trust the channel feed alone; null = unknown, so the next
   * run that wants more than the feed holds lists the channel in full.
   */
  coveredWanted: number | null;
  /** Some API key follows the channel (kept in step with the subscriptions by the store). */
  followed: boolean;
  /**
   * Last time a reader asked for the channel's feed (or an import named it); null on records from
   * before it was kept. With `followed`, decides whether the channel is still refreshed (rules.ts).
   */
  askedAt: Date | null;
  /**
   * Since when a reader has been waiting for work no run has served yet (the channel is new, its
   * `wanted` grew, or a language was added); null when nothing is awaited.
   */
  awaitedAt: Date | null;
  /**
   * The key (keyId) whose request made the channel awaited; null when nothing is awaited or no key
   * asked (an operator, an import). Awaited work is served round-robin by this key.
   */
  awaitedBy: string | null;
}

export interface RegisterChannelInput {
  channelId: string;
  /** Set when the work item is created (default `channel`); never changes an existing one. */
  kind?: WorkKind;
  wanted: number;
  handle?: string | null;
  title?: string | null;
  /**
   * The key whose request this is (keyId): it becomes the channel's awaitedBy when the request
   * makes the channel awaited, and the channel's creator when it is new (newChannelsOfKey).
   */
  keyId?: string | null;
}

export interface ReleaseInput {
  nextDueAt: Date;
  outcome: string;
  error?: string | null;
  /** New value of consecutiveFailures (0 after a good run). */
  consecutiveFailures: number;
  title?: string | null;
  /** New coveredWanted; left out or null = unknown (a run that did not finish its work). */
  coveredWanted?: number | null;
  /**
   * The run stopped early to let another key's awaited work go first: the channel is due again at
   * once and, if it was awaited, stays awaited one round later (nextDueAt is then ignored).
   */
  yielded?: boolean;
}

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

/** What the crawler last saw of a playlist: listed, or the platform's private / does-not-exist answer. */
export type PlaylistState = 'listed' | 'private' | 'deleted';

/**
 * A playlist as the crawler last listed it. Its work item (leases, wanted, backoff) is a
 * ChannelRecord of kind `playlist` with the same id; its videos are ordinary video records, shared
 * with every channel and playlist that lists them.
 */
export interface PlaylistRecord {
  playlistId: string;
  title: string | null;
  /** The owner's channel name: the feed's author. */
  owner: string | null;
  ownerChannelId: string | null;
  state: PlaylistState;
  /** Video ids in the playlist's own order (its first entries, unavailable ones left out). */
  videoIds: string[];
  /** When the crawler stored this listing. */
  listedAt: Date;
  /** When title, owner, state or entries last changed (a listing that changes nothing keeps it). */
  changedAt: Date;
}

export interface RateLimitResult {
  /** False once the request is over the limit for this minute (it is still counted). */
  allowed: boolean;
  /** Requests left in this minute after this one, never below 0. */
  remaining: number;
  /** Requests counted in this minute including this one. */
  count: number;
  /** Start of the next minute window. */
  resetAt: Date;
}

// ── what operators see (/admin/…, /status) ──────────────────────────────────

/** One finished channel run, as the crawler reported it at release. */
export interface ChannelRunRecord {
  channelId: string;
  /** The crawler that ran it (its lease owner name). */
  owner: string;
  startedAt: Date;
  endedAt: Date;
  /** `ok`, `blocked`, `error`, `not_found`, `stopped`. */
  outcome: string;
  error: string | null;
  /** Videos the run wrote (any state). */
  stored: number;
}

/** What a crawler is doing, as its heartbeat says. */
export type CrawlerState = 'idle' | 'listing' | 'fetching' | 'waiting_for_budget' | 'cooling_down' | 'blocked' | 'stopped';

export interface ProxyState {
  /** The proxy's address without credentials. */
  proxy: string;
  /** `in use`, `standby` or `resting until …` as the crawler sees it. */
  state: string;
}

/** A crawler's heartbeat, written about every 10 s (one record per owner, replaced each time). */
export interface CrawlerHeartbeat {
  owner: string;
  startedAt: Date;
  /** The service version the crawler runs. */
  version: string;
  state: CrawlerState;
  /** When a wait (budget, cool-down, block) ends; null otherwise. */
  until: Date | null;
  channelId: string | null;
  /** `3/10` while fetching; null otherwise. */
  batch: string | null;
  requestsLastHour: number;
  /** CRAWL_REQUESTS_PER_HOUR; 0 = no limit. */
  budgetPerHour: number;
  proxies: ProxyState[];
  /** Browser fallback runs since the crawler started. */
  browserRuns: number;
  /** When this heartbeat was written (the crawler's clock). */
  at: Date;
}

/** Stored videos of one channel by state. */
export type VideoStateCounts = Record<VideoState, number>;

export interface ChannelStats {
  channelId: string;
  videos: VideoStateCounts;
  /**
   * The wanted window: the channel's newest `wanted` stored regular (or unknown-kind) videos, and how
   * many of them a feed shows (ready, or given up without a transcript).
   */
  window: number;
  windowShown: number;
  /** How many API keys follow the channel. */
  followers: number;
}

/** Counts per hour (UTC hour start), for the status page's chart. */
export interface HourlyCounts {
  hour: Date;
  videosStored: number;
  platformRequests: number;
}

export interface QueueSummary {
  channels: number;
  /** Leased, lease not expired. */
  running: number;
  /** Due and not running. */
  dueNow: number;
  /** The earliest due time in the future; null when none. */
  nextDueAt: Date | null;
}

export interface StoreSize {
  channels: number;
  videos: number;
  transcripts: number;
  /** The database's size on disk (SQLite: pages × page size; MongoDB: data + indexes); null when not known. */
  bytes: number | null;
}
/**
 * Where a channel's push subscription at the platform's WebSub hub stands: asked for and waiting for
 * the hub's verification, verified (push is on while the lease runs), denied by the hub, or failed
 * (the hub refused or never verified; tried again later), or being ended (nobody follows the channel
 * any more: the crawler asked the hub to stop, and the record goes once the hub verifies that). The
 * channel is polled unless verified with a lease that has not lapsed.
 */
export type WebSubStatus = 'requested' | 'verified' | 'denied' | 'failed' | 'unsubscribing';

export interface WebSubRecord {
  channelId: string;
  /** The hub topic asked for (`…/xml/feeds/videos.xml?channel_id=UC…`). */
  topic: string;
  /** The callback's unguessable last path segment (`/websub/<token>`). */
  token: string;
  /** hub.secret: the notifications' HMAC key. */
  secret: string;
  status: WebSubStatus;
  /** When the last subscribe request was sent. */
  requestedAt: Date | null;
  verifiedAt: Date | null;
  /** The lease the hub granted at its last verification. */
  leaseSeconds: number | null;
  leaseExpiresAt: Date | null;
  /** When the crawler's subscriber looks at it next: the verification deadline, the renewal, or the retry. */
  nextActionAt: Date;
  /** Failed subscribe attempts in a row. */
  failures: number;
  lastError: string | null;
  updatedAt: Date;
}

/** A video the hub notified: due for a fetch without a listing. */
export interface PushedVideo {
  videoId: string;
  channelId: string;
  /** From the notification (titles lag; the fetch takes the platform's). */
  title: string;
  publishedAt: Date | null;
  dueAt: Date;
  /** Fetch attempts so far (a notification can come before the video is ready). */
  attempts: number;
}

export type PushedVideoInput = Pick<PushedVideo, 'videoId' | 'channelId' | 'title' | 'publishedAt'>;

/** A store operation failed because the backing database is closed or unreachable. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

// ── the platform check the API asks the crawler for (GET /admin/platform-check) ──

/** The one platform-check request and its last answer. A request is pending while requestedAt is later than finishedAt. */
export interface PlatformCheckState {
  requestedAt: Date | null;
  /** The crawler working on the pending request, and since when; null when none took it. */
  claimedBy: string | null;
  claimedAt: Date | null;
  finishedAt: Date | null;
  /** The last finished check's report, as JSON text (shared/platform/platform-check.ts PlatformCheckReport). */
  report: string | null;
}

export interface Store {
  /** `sqlite` or `mongodb`, for logs. */
  readonly kind: 'sqlite' | 'mongodb';

  // ── channels (the work collection) ────────────────────────────────────────
  /**
   * Create the channel's work item, or raise `wanted` to max(current, input.wanted).
   * A new channel, or one whose `wanted` grew, becomes due at `now`; otherwise its schedule stays.
   * Either way the channel was asked for at `now` (askedAt), which keeps it refreshed (rules.ts).
   */
  registerChannel(input: RegisterChannelInput, now: Date): Promise<ChannelRecord>;
  getChannel(channelId: string): Promise<ChannelRecord | null>;
  /**
   * The channel's title as the crawler's listing gives it, written before the run stores its first
   * batch, so that a feed names its channel as soon as its first entry is there (not only when the
   * run ends). Changes only the title of a known channel; an unknown id is left alone.
   */
  nameChannel(channelId: string, title: string): Promise<void>;
  /**
   * Atomically claim the channel with the earliest due time that is due (dueAt <= now) and whose
   * lease is free or expired, among the channels still refreshed (rules.ts isRefreshed: followed by
   * a key, or asked for within KEEP_REFRESHING_MS). Returns null when there is no such channel.
   */
  claimDueChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null>;
  /**
   * Like claimDueChannel, among the due channels a reader is waiting for that no run has served
   * yet (registered new, its `wanted` grew, or a language was added), round-robin by the key that
   * asked (awaitedBy): each key's next awaited channel is one round after its previous one, and a
   * key with none waiting joins the round being served, so one key's many requests never keep
   * another key's one waiting behind them. Within a round the one waiting longest first. The
   * crawler claims these before the rhythm's backlog and outside the listing share.
   */
  claimAskedChannel(owner: string, leaseMs: number, now: Date): Promise<ChannelRecord | null>;
  /**
   * How far behind the listing schedule is: channels due, not leased and still refreshed, and the
   * earliest due time among them.
   */
  listingBacklog(now: Date): Promise<{ due: number; oldestDueAt: Date | null }>;
  /** Extend a lease this owner still holds. False when the lease was lost. */
  renewLease(channelId: string, owner: string, leaseMs: number, now: Date): Promise<boolean>;
  /**
   * Record the run's outcome, set the next due time and free the lease. False if not the owner.
   * If `wanted` grew while the lease was held, the channel is due at `now` instead of nextDueAt.
   */
  releaseChannel(channelId: string, owner: string, result: ReleaseInput, now: Date): Promise<boolean>;
  /**
   * A restarted crawler taking back what its previous run (same owner name) left leased when it
   * was killed: frees those leases and makes the channels due no later than `now`, keeping their
   * history and failure counts. Returns how many channels it freed.
   */
  reclaimLeases(owner: string, now: Date): Promise<number>;
  /**
   * Whether awaited work should go before the rest of this channel's run: another channel, due and
   * free at `now`, awaited by another key (work no key asked for counts as one key) in a round no
   * later than this channel's; for a channel nobody awaits, any awaited work. A run asks between
   * batches and yields (ReleaseInput.yielded); the round keeps two keys' long first crawls from
   * handing the turn back and forth after every batch.
   */
  awaitedWorkWaiting(channelId: string, now: Date): Promise<boolean>;
  /**
   * Channels (and playlists) the key created since `since` (the first registerChannel of an id with
   * that keyId): how many, and when the oldest of them was created (null when none).
   */
  newChannelsOfKey(keyId: string, since: Date): Promise<{ count: number; oldest: Date | null }>;
  /**
   * Make every known channel that is not backing off (consecutiveFailures 0) due no later than
   * `now` (tests and benchmarks use it to make a refresh happen). A channel in a failure backoff
   * (blocked, error, not found) keeps its later due time, so this never cancels a backoff; a channel no longer refreshed
   * (rules.ts isRefreshed) is left alone. Returns how many were moved earlier;
   * channels already due are left as they are and not counted.
   */
  markAllDue(now: Date): Promise<number>;

  // ── videos ────────────────────────────────────────────────────────────────
  /**
   * Insert or replace the videos (keyed by videoId), and their transcripts (keyed by video and
   * language), visible to readers all at once. Replaying is harmless. (SQLite: one transaction.
   * MongoDB: one transaction on a replica set; on a standalone server, writes ordered so that the
   * channel's feed version moves last, mongo/batch.ts.)
   */
  upsertVideos(videos: readonly VideoRecord[], transcripts?: readonly TranscriptRecord[]): Promise<void>;
  /** Every stored language of these videos, by video id then language. */
  getTranscripts(videoIds: readonly string[]): Promise<TranscriptRecord[]>;
  /**
   * Record that a reader (`keyId`; null or left out: no key) asked for these languages on the
   * channel at `now`; repeating is harmless. A language the channel did not keep (never asked, or
   * not within LANGUAGE_KEEP_MS) makes the channel awaited by that key, so its stored videos are
   * backfilled soon, in the key's turn; a channel backing off after failures keeps its schedule.
   */
  askLanguages(channelId: string, languages: readonly string[], now: Date, keyId?: string | null): Promise<void>;
  /**
   * The languages the channel keeps at `now`, at most `limit` (language-choice.ts: asked within 30
   * days, each key's own most recent first, round by round over keys).
   */
  wantedLanguages(channelId: string, limit: number, now: Date): Promise<string[]>;
  /**
   * Of those `limit` languages, the ones the crawler has not yet fetched for the videos stored
   * before they were asked for (see markLanguagesCovered), in the same order.
   */
  languagesToBackfill(channelId: string, limit: number, now: Date): Promise<string[]>;
  /**
   * The crawler went through the channel's stored videos for these languages (the ones it keeps);
   * every other language of the channel is marked not covered, since the videos stored meanwhile
   * were fetched without it: should it be kept again, they are backfilled.
   */
  markLanguagesCovered(channelId: string, languages: readonly string[], now: Date): Promise<void>;
  /**
   * Feed entries newest first (publishedAt desc, then videoId), at most `limit`: `ready` videos and
   * `no_transcript` ones that were given up (nextAttemptAt null), of the given video kinds
   * (default: regular only; a record without a kind counts as regular; upcoming is never listed).
   */
  listFeedEntries(channelId: string, limit: number, kinds?: readonly FeedKind[]): Promise<VideoRecord[]>;
  /** Newest `fetchedAt` among the channel's feed entries; null when it has none. */
  feedVersion(channelId: string): Promise<Date | null>;
  /**
   * Of the given video ids, those that still need work: never stored, or stored in a non-final
   * state whose nextAttemptAt <= now. Order of the input is kept.
   */
  videosNeedingWork(videoIds: readonly string[], now: Date): Promise<string[]>;
  /**
   * The publish times of the channel's `limit` newest stored videos (any state; unknown dates left
   * out), newest first: the channel's upload rhythm.
   */
  recentPublishTimes(channelId: string, limit: number): Promise<Date[]>;
  /** Stored records for these ids (any state), for the crawler's attempt counting. */
  getVideos(videoIds: readonly string[]): Promise<VideoRecord[]>;
  /**
   * Of the given video ids, those stored in any state, in input order. Reads no transcripts: the
   * crawler asks it of every feed entry on every refresh.
   */
  storedVideoIds(videoIds: readonly string[]): Promise<string[]>;
  /**
   * The channel's stored videos due for another attempt (not `ready`, nextAttemptAt <= now) among
   * its `limit` newest stored ones (publishedAt desc), plus every due one whose publish date is
   * unknown (UNKNOWN_PUBLISHED_MS: its place in the channel is not known, and few ever exist).
   * Newest first, then videoId. A refresh that lists only the channel feed retries these.
   */
  videosDueForRetry(channelId: string, now: Date, limit: number): Promise<VideoRecord[]>;

  // ── search ────────────────────────────────────────────────────────────────
  /**
   * Feed entries (ready, or given up without captions) in the scope whose title or stored
   * transcripts (any language) match the query (shared/search/match.ts), newest first
   * (publishedAt desc, then videoId), at most `limit`, each with every stored transcript of it.
   * The engine's own syntax is built from the query's folded words only.
   */
  searchVideos(query: SearchQuery, scope: SearchScope, limit: number): Promise<SearchHit[]>;

  // ── playlists ─────────────────────────────────────────────────────────────
  /**
   * Store the crawler's listing of a playlist (replacing the previous one); `changedAt` becomes
   * `now` when anything differs from what was stored, else it stays. Returns what is stored.
   */
  putPlaylist(playlist: Omit<PlaylistRecord, 'changedAt' | 'listedAt'>, now: Date): Promise<PlaylistRecord>;
  getPlaylist(playlistId: string): Promise<PlaylistRecord | null>;

  // ── handles ───────────────────────────────────────────────────────────────
  /** Cached channel id for a lower-cased handle (without `@`). */
  getHandle(handle: string): Promise<string | null>;
  putHandle(handle: string, channelId: string, now: Date): Promise<void>;
  /** Remember that the platform has no channel with this handle (asked at `now`). */
  putUnknownHandle(handle: string, now: Date): Promise<void>;
  /**
   * Whether the platform said within UNKNOWN_HANDLE_TTL_MS before `now` that the handle does not
   * exist: the API answers 404 without asking the platform again.
   */
  isUnknownHandle(handle: string, now: Date): Promise<boolean>;

  // ── subscriptions (a key's followed channels; keyId is the key's SHA-256 hex digest) ──
  /**
   * Make the key follow these channels (and playlists), all in one batched write: channel ids get a work item
   * (created with `wanted` and due at `now` when new; marked followed and asked-for when known);
   * a handle already in the handle cache is followed as its channel id, any other handle waits for
   * the crawler (subscribedHandlesToResolve). Answers, per input, whether it was newly followed
   * (false: the key already followed it, or it repeats an earlier input).
   */
  follow(keyId: string, subs: readonly SubscriptionInput[], source: SubscriptionSource, wanted: number, now: Date): Promise<boolean[]>;
  /**
   * Stop following `ref` (a channel or playlist id, or `@handle` for one not resolved yet). False when
   * not followed. When no key follows the channel any more, its push subscription record becomes due
   * at once, so the crawler asks the hub to stop pushing it.
   */
  unfollow(keyId: string, ref: string, now: Date): Promise<boolean>;
  /** The key's subscriptions, oldest first. */
  listSubscriptions(keyId: string): Promise<SubscriptionRecord[]>;
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
   * Handles some key follows that no channel id is known for, not tried since `retryBefore`
   * (never tried first), at most `limit`: the crawler resolves these.
   */
  subscribedHandlesToResolve(retryBefore: Date, limit: number): Promise<string[]>;
  /**
   * The crawler's answer for a followed handle: with a channel id, every key following the handle
   * now follows the channel (and the handle is cached); null = the platform has no such channel,
   * recorded as tried at `now`, and the subscriptions stay (shown as unresolved).
   */
  resolveSubscribedHandle(handle: string, channelId: string | null, wanted: number, now: Date): Promise<void>;

  // ── per-key rate limits ───────────────────────────────────────────────────
  /**
   * Count `hits` requests (default 1, a positive integer; otherwise RangeError) for `keyId` in the
   * minute window containing `now` and say how many remain. One atomic add, across processes
   * sharing the store too, so the hits get consecutive counts: the answer is that of the last of
   * them (`count` is the window's count after the add), and the others' follow from it
   * (rate-window.ts `hitOfBatch`). `keyId` is an opaque digest, never the raw key.
   */
  hitRateLimit(keyId: string, limit: number, now: Date, hits?: number): Promise<RateLimitResult>;

  // ── platform pacing shared by every process (the crawler's budget, the API's handle lookups) ──
  /** Count `count` platform requests sent by `source` in the minute containing `now`. */
  addPlatformRequests(source: PlatformRequestSource, count: number, now: Date): Promise<void>;
  /** Platform requests counted in the hour up to `now`: of `source`, or of every source. */
  platformRequestsInHour(now: Date, source?: PlatformRequestSource): Promise<number>;
  /**
   * The platform rate-limited us ("try again later"): no process sends a platform request until
   * `until`. A later `until` wins; an earlier one changes nothing.
   */
  setPlatformCoolDown(until: Date, reason: string, now: Date): Promise<void>;
  /** The cool-down in force at `now`, or null. */
  platformCoolDown(now: Date): Promise<PlatformCoolDown | null>;

  // ── operators (admin endpoints, /status, the crawler's heartbeat) ────────
  /** Channels in channel id order after `after` (exclusive; null = from the start), at most `limit`. */
  listChannels(after: string | null, limit: number): Promise<ChannelRecord[]>;
  /** Up to `limit` channels, those with the most failures in a row first, then by channel id. */
  listChannelsByFailures(limit: number): Promise<ChannelRecord[]>;
  /** Video counts and wanted-window coverage of these channels, in input order. */
  channelStats(channels: readonly { channelId: string; wanted: number }[]): Promise<ChannelStats[]>;
  /** Make a known channel due at `now` (its failures and history stay). False for an unknown channel. */
  makeChannelDue(channelId: string, now: Date): Promise<boolean>;
  /** Forget the channel's work item and its asked languages (its videos stay). False when unknown. */
  removeChannel(channelId: string): Promise<boolean>;
  /** Delete up to `limit` of the channel's stored videos with their transcripts, in one write; how many went. */
  purgeChannelVideos(channelId: string, limit: number): Promise<number>;
  /** Keep a finished run; only the newest RUNS_KEPT_PER_CHANNEL of each channel are kept. */
  recordRun(run: ChannelRunRecord): Promise<void>;
  /** Newest runs first (endedAt desc): of one channel, or of all when `channelId` is null. */
  listRuns(channelId: string | null, limit: number): Promise<ChannelRunRecord[]>;
  /** Replace the owner's heartbeat; heartbeats silent for HEARTBEAT_KEPT_MS are dropped. */
  putHeartbeat(heartbeat: CrawlerHeartbeat): Promise<void>;
  /** Every kept heartbeat, by owner. */
  listHeartbeats(): Promise<CrawlerHeartbeat[]>;
  /** Add to the counts of the UTC hour holding `now`; hours older than HOURLY_KEPT_MS are dropped. */
  addHourlyCounts(counts: { videosStored: number; platformRequests: number }, now: Date): Promise<void>;
  /** The hours from `since` on, oldest first; hours with nothing counted are absent. */
  hourlyCounts(since: Date): Promise<HourlyCounts[]>;
  /** Running, due-now and next-due channels at `now`. */
  queueSummary(now: Date): Promise<QueueSummary>;
  storeSize(): Promise<StoreSize>;
  // ── push (WebSub) ──────────────────────────────────────────────────────────
  /** Create or replace the channel's push subscription record. */
  putWebSub(record: WebSubRecord): Promise<void>;
  /**
   * The push state of these channels (null: of every channel, by channel id), at most `limit`: the
   * one read an operator's view needs.
   */
  webSubStates(channelIds: readonly string[] | null, limit: number): Promise<WebSubRecord[]>;
  webSubByToken(token: string): Promise<WebSubRecord | null>;
  /** Forget the channel's push subscription record, only while it still has this token. False when it had not. */
  deleteWebSub(channelId: string, token: string): Promise<boolean>;
  /** Subscriptions whose nextActionAt <= now (verification deadline, renewal, retry), earliest first. */
  webSubDue(now: Date, limit: number): Promise<WebSubRecord[]>;
  /**
   * Videos the hub notified become due now (kept once per video; a repeat makes it due again). A
   * notification is a ping: the crawler decides whether it is worth a fetch.
   */
  pushVideos(videos: readonly PushedVideoInput[], now: Date): Promise<void>;
  /** Atomically claim the earliest due pushed video whose lease is free or expired. */
  claimPushedVideo(owner: string, leaseMs: number, now: Date): Promise<PushedVideo | null>;
  /** Done with a claimed pushed video: forget it (null), or try again at `nextAt` (one more attempt counted). */
  finishPushedVideo(videoId: string, owner: string, nextAt: Date | null): Promise<void>;
  /** The platform deleted these videos: they leave every feed (state unavailable, no retry). Returns how many were stored. */
  removeFromFeeds(videoIds: readonly string[], now: Date): Promise<number>;
  /** Make the channel due no later than `now` (push fell back to polling): a listing happens soon. */
  pollChannelNow(channelId: string, now: Date): Promise<void>;

  /** Cheap liveness probe; throws StoreUnavailableError when the database cannot be reached. */
  ping(): Promise<void>;
  /** Ask the crawlers for a platform check; a request already pending stays as it is. Returns the state after. */
  requestPlatformCheck(now: Date): Promise<PlatformCheckState>;
  /** A crawler takes the pending request (unclaimed, or claimed longer than `staleMs` ago by a crawler that died); false when there is none. */
  claimPlatformCheck(owner: string, now: Date, staleMs: number): Promise<boolean>;
  /** The crawler that claimed the request stores its report. */
  finishPlatformCheck(owner: string, report: string, now: Date): Promise<void>;
  getPlatformCheck(): Promise<PlatformCheckState | null>;
  close(): Promise<void>;
}
