// Videos: what the crawler learned of each video, and the feed entries read from them.

import type { TranscriptKind, TranscriptRecord } from './transcripts';

/** What happened to one video. `ready` carries a transcript; the others record why not. */
export type VideoState = 'ready' | 'no_transcript' | 'unavailable' | 'failed';

/**
 * What a video is (docs/crawler.md §2, §3): a regular upload, a Short, a live stream (aired), or
 * a premiere / stream that has not aired yet. Feeds list regular videos unless asked for more, and
 * never list upcoming ones.
 */
export type VideoKind = 'regular' | 'short' | 'live' | 'upcoming';

/** The kinds a feed may be asked to list. */
export type FeedKind = Exclude<VideoKind, 'upcoming'>;

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
  /**
   * The languages the last player answer offered (tracks and translation targets), so a language
   * asked later is fetched again only where it was offered; null on records stored before.
   */
  offeredLanguages?: readonly string[] | null;
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

/** Stored videos: the crawler's writes and the feeds' reads. */
export interface VideoStore {
  /**
   * Insert or replace the videos (keyed by videoId), and their transcripts (keyed by video and
   * language), visible to readers all at once. Replaying is harmless. (SQLite: one transaction.
   * MongoDB: one transaction on a replica set; on a standalone server, writes ordered so that the
   * channel's feed version moves last, mongo/batch.ts.)
   */
  upsertVideos(videos: readonly VideoRecord[], transcripts?: readonly TranscriptRecord[]): Promise<void>;
  /**
   * Feed entries newest first (publishedAt desc, then videoId), at most `limit`: `ready` videos and
   * `no_transcript` ones that were given up (nextAttemptAt null), of the given video kinds
   * (default: regular only; a record without a kind counts as regular; upcoming is never listed).
   */
  listFeedEntries(channelId: string, limit: number, kinds?: readonly FeedKind[]): Promise<VideoRecord[]>;
  /** Newest `fetchedAt` among the channel's feed entries; null when it has none. */
  feedVersion(channelId: string): Promise<Date | null>;
  /** Newest `fetchedAt` among every channel's feed entries (one index read); null when there are none. */
  newestFeedWrite(): Promise<Date | null>;
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
}
