// Whether a refresh can trust the channel feed alone, and what the store covers afterwards. Pure
// functions, so the rules can be read and tested without a platform.
//
// The window is the newest `wanted` regular uploads and the Shorts among them (window.ts), so every
// count here is of regular videos: a coverage counting Shorts would let a later, larger `wanted`
// trust a store that holds fewer regular videos than it needs (docs/crawler.md §2).
//
// The feed holds the 15 newest uploads. When fewer than `wanted` of them are regular, it vouches
// for the whole window only if (a) it overlaps what is stored — then every upload newer than the first stored
// entry is in it, and nothing new can hide below — and (b) the stored videos are known to hold the
// channel's newest `wanted` without a gap (the channel's `coveredWanted`). A count of stored videos
// cannot tell (b): a burst of more than 15 uploads while `wanted` was small leaves a gap that a
// later, larger `wanted` would fall into, and a channel with fewer videos than `wanted` never
// reaches the count. Otherwise the run lists in full (browse pages): first crawl, `wanted` grew, an
// earlier run left work unfinished, the feed failed, or more than the feed holds is new.

import { MAX_LIST } from '../shared/platform/listing';
import type { ChannelListing } from '../shared/platform/types';
import { regularCount } from '../shared/platform/window';

/** coveredWanted of a channel whose every video is stored: enough for any `wanted`. */
export const FULL_COVERAGE = MAX_LIST;

/** Why the run needs a full listing, or null when the feed alone is enough. */
export function deepListingReason(
  wanted: number,
  feed: ChannelListing | null,
  storedIds: ReadonlySet<string>,
  coveredWanted: number | null,
): string | null {
  if (feed === null) return 'channel feed failed';
  if (feed.complete || wanted <= regularCount(feed.videos)) return null;
  if (!feed.videos.some((v) => storedIds.has(v.videoId))) return 'no feed entry is stored yet (first crawl, or more new uploads than the feed holds)';
  if (coveredWanted === null) return 'stored videos not known to cover the wanted count';
  if (coveredWanted < wanted) return `wanted grew from ${coveredWanted} to ${wanted}`;
  return null;
}

/**
 * coveredWanted (a count of regular videos) once every listed video that needs work is stored.
 * @param listing what the run worked from: the feed cut to the window, or the full listing
 * @param deep whether `listing` came from a full listing
 * @param feed the feed the run looked at (null when it failed)
 * @param storedIds feed entries that were stored before the run
 * @param previous the channel's coveredWanted before the run
 */
export function coverageAfter(
  listing: ChannelListing,
  deep: boolean,
  feed: ChannelListing | null,
  storedIds: ReadonlySet<string>,
  previous: number | null,
): number {
  const listed = regularCount(listing.videos);
  if (deep || feed === null) return listing.complete ? FULL_COVERAGE : listed;
  // Feed entries below the worked window that were never stored are gaps: coverage ends above them.
  const inListing = new Set(listing.videos.map((v) => v.videoId));
  const gapBelow = feed.videos.some((v) => !inListing.has(v.videoId) && !storedIds.has(v.videoId));
  if (gapBelow) return listed;
  if (feed.complete) return FULL_COVERAGE;
  // New uploads stored on top of a stored entry extend what was covered; with no stored entry in
  // the feed, only what was just stored is known to be contiguous.
  const overlaps = feed.videos.some((v) => storedIds.has(v.videoId));
  return overlaps ? Math.max(previous ?? 0, listed) : listed;
}
