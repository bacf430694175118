// What operators see (/admin/…, /status): runs, heartbeats, hourly counts, the queue and sizes.

import type { ChannelRecord } from './channels';
import type { VideoState } from './videos';

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
  /** Player clients this crawler has left out after answers about themselves (a retired version…). */
  playerClientsLeftOut: PlayerClientLeftOut[];
  /** When this heartbeat was written (the crawler's clock). */
  at: Date;
}

/** A player client a crawler left out of its process (shared/platform/client-exclusions.ts). */
export interface PlayerClientLeftOut {
  client: string;
  version: string;
  /** `retired` (HTTP 400 FAILED_PRECONDITION) or `client_fault` (the client's own fault). */
  why: string;
  reason: string;
  since: Date;
  /** When it is asked once again; null: left out for the rest of that crawler process. */
  retryAt: Date | null;
  /** What the operator can change. */
  advice: string;
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

/** The admin endpoints', /status's and the crawler heartbeat's reads and writes. */
export interface OperatorStore {
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
}
