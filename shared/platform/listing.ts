// A channel's newest videos (docs/crawler.md §2). The feed alone answers up to 15 in one request with
// exact dates; browse pages are added only for more than the feed holds, or instead of a failing
// feed. Dates come from the feed where it knows them and stay null otherwise: never invented.
// listFeed is the feed on its own, so that the crawler can see whether a refresh needs more than
// the feed before paying for browse pages, and hand the same answer to listVideos if it does.

import type { Logger } from '../logger';
import { browseVideos, type BrowsedVideo, type BrowsePage } from './browse';
import { FEED_SIZE, fetchChannelFeed, type ChannelFeed } from './channel-feed';
import type { PlatformHttp } from './http-client';
import { PlatformError, type ChannelListing, type ListedVideo } from './types';
import { regularCount, windowOf } from './window';

export const MAX_LIST = 100;
/** A safety bound on browse pages (100 videos need 4 pages of ~30). */
const MAX_BROWSE_PAGES = 8;

/** Outcomes after which trying another way is pointless: the platform is refusing us. */
const isRefusal = (err: unknown): boolean =>
  err instanceof PlatformError && (err.outcome === 'blocked' || err.outcome === 'consent');

/** The feed as a listing, or null when it failed the way its outages do ("use browse", never "empty"). */
export async function listFeed(http: PlatformHttp, channelId: string, log: Logger): Promise<ChannelListing | null> {
  const feed = await fetchChannelFeed(http, channelId);
  if ('failed' in feed) {
    log.info({ channelId, reason: feed.failed }, 'channel feed failed; listing through browse');
    return null;
  }
  if (feed.dropped.length > 0) log.warning({ channelId, dropped: feed.dropped }, 'channel feed: entries without a valid video id left out');
  // A feed shorter than 15 is the whole channel.
  return { channelId, title: feed.title, videos: feed.videos, complete: feed.videos.length + feed.dropped.length < FEED_SIZE };
}

/** How listVideos starts. */
export interface ListVideosOptions {
  /**
   * Ask browse's first page before the feed: browse says at once whether the channel exists (a
   * feed 404 cannot, its outages look the same), so an id that names no channel costs one request.
   * The page is then part of the listing, not asked twice.
   */
  readonly browseFirst?: boolean;
}

/** `known`: a listFeed answer the caller already has (null = the feed failed); undefined = fetch it. */
export async function listVideos(
  http: PlatformHttp,
  channelId: string,
  limit: number,
  log: Logger,
  known?: ChannelListing | null,
  options: ListVideosOptions = {},
): Promise<ChannelListing> {
  const want = Math.max(1, Math.min(MAX_LIST, Math.floor(limit)));
  let firstPage: BrowsePage | null = null;
  if (options.browseFirst === true) {
    try {
      firstPage = await browseVideos(http, channelId, null);
    } catch (err) {
      // "Does not exist" and refusals end the listing here; any other failure leaves it to the feed.
      if (!(err instanceof PlatformError) || err.outcome === 'not_found' || isRefusal(err)) throw err;
      log.info({ channelId, reason: err.reason }, 'browse failed; listing through the feed');
    }
  }
  const feed = known === undefined ? await listFeed(http, channelId, log) : known;
  // A complete feed is the whole channel; browse could only repeat it. The window counts regular
  // videos: the Shorts among them come along (window.ts).
  if (feed && (want <= regularCount(feed.videos) || feed.complete)) return { ...feedWindow(feed, want), channelId };

  const browsed: BrowsedVideo[] = [];
  const seenTokens = new Set<string>();
  let title = feed?.title ?? null;
  let token: string | null = null;
  let ranOut = false;
  for (let page = 0; page < MAX_BROWSE_PAGES; page++) {
    let result;
    try {
      result = page === 0 && firstPage !== null ? firstPage : await browseVideos(http, channelId, token);
    } catch (err) {
      // With a working feed, a failing browse still leaves its 15 exact entries worth returning.
      if (!feed || isRefusal(err) || !(err instanceof PlatformError)) throw err;
      log.info({ channelId, reason: err.reason }, 'browse failed; listing only what the feed holds');
      break;
    }
    title ??= result.title;
    if (result.dropped.length > 0) log.warning({ channelId, dropped: result.dropped }, 'browse: items without a valid video id left out');
    browsed.push(...result.videos);
    token = result.continuation;
    if (token === null) {
      ranOut = true;
      break;
    }
    if (regularCount(mergeListing(feed, browsed)) >= want || seenTokens.has(token)) break;
    seenTokens.add(token);
  }
  const merged = mergeListing(feed, browsed);
  const videos = windowOf(merged, want);
  return { channelId, title, videos, complete: ranOut && videos.length === merged.length };
}

/**
 * Newest first: browse items newer than the feed's snapshot (the feed is cached for 15 minutes),
 * then the feed's entries with their exact dates, then the older browse items. The feed holds every
 * upload newer than its oldest entry, so a browse item missing from it is older — unless it comes
 * before the first item both lists share.
 */
/** The feed cut to the newest `wanted` regular videos (and the Shorts among them); complete only if nothing was cut. */
export function feedWindow(feed: ChannelListing, wanted: number): ChannelListing {
  const videos = windowOf(feed.videos, wanted);
  return { ...feed, videos, complete: feed.complete && videos.length === feed.videos.length };
}

export function mergeListing(feed: Pick<ChannelFeed, 'videos'> | null, browsed: readonly BrowsedVideo[]): ListedVideo[] {
  const undated = (b: BrowsedVideo): ListedVideo => ({ videoId: b.videoId, title: b.title, publishedAt: null });
  const out: ListedVideo[] = [];
  const seen = new Set<string>();
  const add = (v: ListedVideo): void => {
    if (seen.has(v.videoId)) return;
    seen.add(v.videoId);
    out.push(v);
  };
  if (!feed) {
    browsed.forEach((b) => add(undated(b)));
    return out;
  }
  const inFeed = new Set(feed.videos.map((v) => v.videoId));
  const firstShared = browsed.findIndex((b) => inFeed.has(b.videoId));
  const split = Math.max(0, firstShared);
  browsed.slice(0, split).forEach((b) => add(undated(b)));
  feed.videos.forEach(add);
  browsed.slice(split).forEach((b) => add(undated(b)));
  return out;
}
