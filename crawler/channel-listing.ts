// A run's first step: learn what the channel has that needs work, for as few platform requests as
// the store allows. A channel's first listing starts with browse, which alone says whether the
// channel exists (one request for an id that names none); after that the feed is asked first (one
// request), and browse pages follow only when listing-plan.ts says the feed cannot vouch for the
// wanted window, reusing the same feed answer. Stored videos due for a retry come from the store, so a refresh that lists only the feed
// still retries the older ones in the window.

import type { Logger } from '../shared/logger';
import type { ChannelListing, ListedVideo, PlatformClient } from '../shared/platform/types';
import { isUnknownPublishedAt, type ChannelRecord, type Store, type VideoRecord } from '../shared/store/types';
import { regularCount, windowOf } from '../shared/platform/window';
import { feedWindow } from '../shared/platform/listing';
import type { RequestContext } from './blocked-path';
import { coverageAfter, deepListingReason } from './listing-plan';
import type { PlatformCall } from './video-fetch';

export interface ChannelListingDeps {
  readonly store: Store;
  readonly platform: PlatformClient;
  readonly call: PlatformCall;
  readonly logger: Logger;
  readonly now: () => Date;
}

export interface ChannelWork {
  title: string | null;
  /** How the channel was listed: the feed alone, or in full (browse pages). */
  mode: 'feed' | 'deep';
  /** The window: the listing's newest `wanted` regular videos and the Shorts among them, newest first, without repeats. */
  listed: ListedVideo[];
  /** What to fetch, in order: the listed videos that need work, then other stored ones due for a retry. */
  pending: ListedVideo[];
  /** The channel's coveredWanted once every pending video is stored. */
  coverage: number;
  /** How many listed videos were not stored at all before this run: new uploads (on a first run, every one). */
  fresh: number;
}

/** A stored record as something to fetch again; an unknown publish date is left for the fetch to learn. */
const asListed = (r: VideoRecord): ListedVideo => ({
  videoId: r.videoId,
  title: r.title,
  publishedAt: isUnknownPublishedAt(r.publishedAt) ? null : r.publishedAt,
  short: r.videoKind === 'short',
});

function withoutRepeats(videos: readonly ListedVideo[]): ListedVideo[] {
  const seen = new Set<string>();
  return videos.filter((v) => !seen.has(v.videoId) && Boolean(seen.add(v.videoId)));
}

/** Platform failures propagate (PlatformError, RunBlockedError, RunStoppedError); so do store failures. */
export async function listChannel(deps: ChannelListingDeps, channel: ChannelRecord): Promise<ChannelWork> {
  const { store, platform, call } = deps;
  const { channelId, wanted } = channel;
  const ctx: RequestContext = { channelId, path: `/channel/${channelId}/videos` };

  if (neverListed(channel)) {
    // Browse first: it alone says whether the channel exists, so a junk id costs one request; its
    // page is part of the full listing a first crawl needs anyway.
    deps.logger.info({ channelId, wanted, reason: 'first listing' }, 'listing the channel in full');
    const listing = await call(ctx, () => platform.listVideos(channelId, wanted, undefined, { browseFirst: true }));
    return workOf(deps, channel, listing, 'first listing', null, new Set());
  }
  const feed = await call(ctx, () => platform.listFeed(channelId));
  const storedIds = new Set(feed ? await store.storedVideoIds(feed.videos.map((v) => v.videoId)) : []);
  const reason = deepListingReason(wanted, feed, storedIds, channel.coveredWanted);
  let listing: ChannelListing;
  if (reason === null && feed !== null) {
    listing = feedWindow(feed, wanted);
    deps.logger.debug({ channelId, wanted, feedEntries: feed.videos.length, stored: storedIds.size }, 'channel feed is enough');
  } else {
    deps.logger.info({ channelId, wanted, reason }, 'listing the channel in full');
    listing = await call(ctx, () => platform.listVideos(channelId, wanted, feed));
  }
  return workOf(deps, channel, listing, reason, feed, storedIds);
}

/**
 * A channel no run has listed yet (or whose last listing found it does not exist): its next
 * listing starts with browse. A not-found channel is retired after a few such answers (next-due.ts).
 */
export const neverListed = (channel: ChannelRecord): boolean =>
  channel.kind === 'channel' && (channel.lastOutcome === null || channel.lastOutcome === 'not_found');

/** What the run works on, from the listing: `reason` null when the feed alone vouched for the window. */
async function workOf(
  deps: ChannelListingDeps,
  channel: ChannelRecord,
  listing: ChannelListing,
  reason: string | null,
  feed: ChannelListing | null,
  storedIds: ReadonlySet<string>,
): Promise<ChannelWork> {
  const { store } = deps;
  const { channelId, wanted } = channel;
  const listed = windowOf(withoutRepeats(listing.videos), wanted);
  const seen = new Set(listed.map((v) => v.videoId));
  const now = deps.now();
  const listedIds = listed.map((v) => v.videoId);
  const needingWork = new Set(await store.videosNeedingWork(listedIds, now));
  // The uploads never stored yet take the top of the window, so the stored part of it is smaller:
  // the stored listed ones, and below the listing the regular videos the window still needs. The
  // store counts every kind, so Shorts stored below the listing make this a little short.
  const storedListed = reason === null ? listedIds.filter((id) => storedIds.has(id)) : await store.storedVideoIds(listedIds);
  const storedWindow = storedListed.length + Math.max(0, wanted - regularCount(listed));
  const retries = (await store.videosDueForRetry(channelId, now, storedWindow)).filter((r) => !seen.has(r.videoId));
  return {
    title: listing.title,
    mode: reason === null ? 'feed' : 'deep',
    listed,
    pending: [...listed.filter((v) => needingWork.has(v.videoId)), ...retries.map(asListed)],
    coverage: coverageAfter({ ...listing, videos: listed }, reason !== null, feed, storedIds, channel.coveredWanted),
    fresh: listed.length - storedListed.length,
  };
}
