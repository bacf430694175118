// What the rest of the service asks of the video platform. The API uses only `resolveHandle`;
// the crawler uses the rest. Every failure is a PlatformError carrying one classified outcome
// (docs/crawler.md §4), decided in one place (shared/platform/classify.ts) before anyone acts on it.

import type { Transcript } from '../transcript/types';

/** How an answer of the platform was classified. `ok` never appears in an error. */
export type PlatformOutcome =
  | 'ok'
  | 'consent'
  | 'blocked'
  | 'unavailable'
  | 'no_captions'
  | 'not_found'
  | 'transient';

/**
 * What the crawler acts on beyond the outcome, decided by the classifier from the platform's own
 * fields and words so that nobody reads a reason text again: `session_rate_limited` ("try again
 * later": the session is refused for up to an hour, so a long cool-down instead of the blocked
 * wait), `poisoned` (an answer for another video: that client's fault, not the session's),
 * `not_aired` (a premiere or stream that has not started: an upcoming video, not one without
 * captions). About one player client rather than the video: `client_retired` (HTTP 400
 * FAILED_PRECONDITION: this client version is refused outright) and `client_fault` (the TV client's
 * "The page needs to be reloaded."), both left out for the process (client-exclusions.ts);
 * `made_for_kids` (unplayable on this client: the made-for-kids fallback clients are asked) and
 * `not_embeddable` (the embedded player may not play it). `age_restricted`: an age check in any
 * of its spellings, recorded and not asked again soon.
 */
export type PlatformSignal =
  | 'session_rate_limited' | 'poisoned' | 'not_aired'
  | 'client_retired' | 'client_fault' | 'made_for_kids' | 'not_embeddable' | 'age_restricted'
  /** Every configured client is left out of this process: nothing was asked about the video. */
  | 'no_player_client';

/**
 * Which refusal a `blocked` answer was, decided by the classifier with the outcome, for the
 * operator's count of blocks by kind (transcript_feed_platform_blocks_total). Nothing acts on it
 * but that counter; left out where the answer was refused in no way of its own (a 401 or 403).
 * Gravest first: when every player client refused, the count takes the gravest refusal they met.
 */
export const BLOCK_ORDER = ['bot_check', 'captcha', 'session_rate_limit', 'poisoned', 'http_429', 'js_challenge', 'empty_timed_text', 'stalled', 'all_clients_refused'] as const;
export type BlockKind = (typeof BLOCK_ORDER)[number];

export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly signal: PlatformSignal | null;
  /** Which refusal, for a `blocked` outcome the classifier named; null otherwise. */
  readonly block: BlockKind | null;
  constructor(
    readonly outcome: Exclude<PlatformOutcome, 'ok'>,
    /** Human-readable reason, safe to log and store (no cookies, no keys). */
    readonly reason: string,
    options?: { cause?: unknown; signal?: PlatformSignal | undefined; block?: BlockKind | undefined },
  ) {
    super(`${outcome}: ${reason}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.signal = options?.signal ?? null;
    this.block = options?.block ?? null;
  }
}

/** One player client's answer for a video, as the multi-client judgement saw it. */
export interface ClientAnswer {
  readonly client: string;
  readonly reason: string;
  readonly signal?: PlatformSignal | undefined;
  readonly block?: BlockKind | undefined;
}

/** The refusal an all-clients block is counted as: the gravest its clients met (the order of BlockKind), else its own. */
function gravestBlock(answers: readonly ClientAnswer[]): BlockKind {
  let found: BlockKind = 'all_clients_refused';
  for (const a of answers) if (a.block !== undefined && BLOCK_ORDER.indexOf(a.block) < BLOCK_ORDER.indexOf(found)) found = a.block;
  return found;
}

/**
 * Every player client asked for this video gave a block signal (bot check, captcha, "try again
 * later", poisoned answers, HTTP 429): the IP or session is refused, so the crawler takes its
 * blocked path, and a video still refused after it can be fetched by the browser instead
 * (docs/crawler.md §3, §4). An ordinary `blocked` PlatformError for everyone else.
 */
export class AllClientsRefusedError extends PlatformError {
  constructor(
    readonly videoId: string,
    readonly answers: readonly ClientAnswer[],
  ) {
    // One client's "try again later" is the session's: the whole process cools down.
    super('blocked', `every player client refused (${answers.map((a) => `${a.client}: ${a.reason}`).join('; ')})`, {
      signal: answers.some((a) => a.signal === 'session_rate_limited') ? 'session_rate_limited' : undefined,
      block: gravestBlock(answers),
    });
  }
}

/**
 * The video has captions, but every client that listed them offered only caption URLs that need a
 * proof-of-origin token (exp=xpe/xpv) the service cannot make. Recorded like `no_captions` (retried
 * with backoff) by anyone who does not know better; the crawler first asks the browser, whose web
 * player holds its own token (docs/crawler.md §3, §4).
 */
export class TokenRequiredError extends PlatformError {
  constructor(
    readonly videoId: string,
    reason: string,
  ) {
    super('no_captions', reason);
  }
}

export interface ListedVideo {
  videoId: string;
  title: string;
  /** The video's own channel, when a listing names it (playlists list videos of many channels). */
  channelId?: string;
  /** The channel feed links it as `/shorts/<id>` (docs/crawler.md §2); browse lists no Shorts. */
  short?: boolean;
  /** Exact publish time when the listing states one (channel feed); null when only relative. */
  publishedAt: Date | null;
}

export interface ChannelListing {
  channelId: string;
  /** Channel title when the listing carries it. */
  title: string | null;
  /** Newest first: at most the requested count of regular videos, and the Shorts among them (window.ts). */
  videos: ListedVideo[];
  /**
   * True when the channel has nothing beyond these: a feed shorter than its 15, or browse pages
   * that ran out before the requested count.
   */
  complete: boolean;
}

/** A playlist's first entries in its own order (docs/crawler.md §2b). */
export interface PlaylistListing {
  playlistId: string;
  title: string | null;
  /** The owner's channel name and id, when the listing names them. */
  owner: string | null;
  ownerChannelId: string | null;
  /** In the playlist's order, unavailable entries left out; each with its own channel when known. */
  videos: ListedVideo[];
  /** Private or deleted videos the listing skipped. */
  unavailable: number;
  /** True when the playlist has nothing beyond these. */
  complete: boolean;
  /** The playlist feed alone, or the playlist page and its continuations. */
  mode: 'feed' | 'deep';
}

/**
 * The platform says the playlist is private, or that it does not exist (deleted): a not-found
 * answer that the API turns into its own 404 once the crawler has stored it.
 */
export class PlaylistUnavailableError extends PlatformError {
  constructor(
    readonly state: 'private' | 'deleted',
    reason: string,
  ) {
    super('not_found', reason);
  }
}

/** One way of getting past a block (challenge proxy, real browser). Tried in order by the crawler. */
export interface Unblocker {
  readonly name: string;
  /** Whether this way can be used at all (proxy configured and reachable, Chromium present). */
  available(): Promise<boolean>;
  /**
   * Open `path` (relative to the platform base URL) the way this unblocker does, clear whatever
   * challenge is there, and hand the resulting cookies and user agent to the plain client.
   * True when the block looks cleared.
   */
  unblock(path: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface PlatformClient {
  /** Channel id for a handle (without `@`), or null when the platform does not know it. */
  resolveHandle(handle: string): Promise<string | null>;
  /**
   * The channel's own feed: its 15 newest uploads with exact dates, in one request. Null when the
   * feed failed the way its outages do (the caller lists through browse instead); a refusal
   * (blocked, consent) is thrown like any other request's.
   */
  listFeed(channelId: string): Promise<ChannelListing | null>;
  /**
   * The channel's newest `limit` (<= 100) regular videos and the Shorts among them, newest first:
   * the feed, then browse pages for more than it holds. `feed` is a listFeed answer the caller already has (null: the feed
   * failed), so that a caller who looked at the feed first does not make the platform send it
   * twice; left out, the feed is fetched here. `browseFirst`: browse's first page is asked before
   * the feed, so that a channel id that names no channel costs one request (not_found).
   */
  listVideos(channelId: string, limit: number, feed?: ChannelListing | null, options?: { readonly browseFirst?: boolean }): Promise<ChannelListing>;
  /**
   * The playlist's first `limit` (<= 100) available entries in its own order: the playlist feed,
   * then the playlist page and its continuations for more. PlaylistUnavailableError when the
   * platform says the playlist is private or does not exist.
   */
  listPlaylist(playlistId: string, limit: number): Promise<PlaylistListing>;
  /** Exact publish time from the field-masked WEB player call, for videos listed without one. */
  fetchPublishedAt(videoId: string): Promise<Date | null>;
  /** The video's transcript; throws PlatformError (unavailable, no_captions, blocked, transient). */
  fetchTranscript(videoId: string, otherLanguages?: readonly string[]): Promise<Transcript>;
}
