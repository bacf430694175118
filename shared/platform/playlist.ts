// A playlist's entries in its own order (docs/crawler.md §2b): the playlist feed answers its first
// 15 entries with exact dates in one request; for more, or when the feed fails, the playlist page
// (browse `VL<id>`) and its continuations. Entries are read in every item shape the channel grid
// has (docs/crawler.md §2) plus the playlist's own `playlistVideoRenderer`; private and deleted
// videos inside (`isPlayable: false`, no uploader) are skipped and counted. A private or deleted
// playlist is a PlaylistUnavailableError once browse has said so.

import { CHANNEL_ID, isVideoId } from '../ids';
import type { Logger } from '../logger';
import { continuationToken, fromLockup, fromVideoRenderer } from './browse';
import { feedText, node, readAtomFeed } from './atom-feed';
import { ENDPOINTS, readJson, readText, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { WEB_IDENTITY, innertubeRequest } from './innertube';
import { asArray, asString, dig, textOf } from './page-data';
import { PlatformError, PlaylistUnavailableError, type ListedVideo, type PlaylistListing } from './types';
import { MAX_LIST } from './listing';

export const PLAYLIST_FEED_SIZE = 15;
/** A safety bound on playlist pages (100 entries need one page of the platform's 100). */
const MAX_PLAYLIST_PAGES = 12;

// ── the feed ───────────────────────────────────────────────────────────────

export interface PlaylistFeed {
  title: string | null;
  owner: string | null;
  ownerChannelId: string | null;
  videos: ListedVideo[];
  dropped: string[];
}

const channelIdIn = (v: string | null): string | null => {
  const id = v === null ? null : (/\/channel\/(UC[A-Za-z0-9_-]{22})$/.exec(v)?.[1] ?? v);
  return id !== null && CHANNEL_ID.test(id) ? id : null;
};

export function parsePlaylistFeed(xml: string): PlaylistFeed {
  const { feed, videos, dropped } = readAtomFeed(xml, 'playlist feed', (e) => {
    const channelId = channelIdIn(feedText(e['yt:channelId']));
    return channelId ? { channelId } : {};
  });
  const author = node(feed.author);
  return { title: feedText(feed.title), owner: feedText(author.name), ownerChannelId: channelIdIn(feedText(author.uri)), videos, dropped };
}

/** The feed, or the reason to read the playlist page instead (the channel feed's rule: outages are not answers). */
export async function fetchPlaylistFeed(http: PlatformHttp, playlistId: string): Promise<PlaylistFeed | { failed: string }> {
  const a = await http.send({
    method: 'GET',
    target: `/feeds/videos.xml?playlist_id=${encodeURIComponent(playlistId)}`,
    kind: 'page',
    referer: `/playlist?list=${playlistId}`,
    what: 'playlist feed',
  });
  const xml = readText(a, ENDPOINTS.channelFeed);
  if (xml.kind !== 'ok') return { failed: xml.kind === 'fallback' ? xml.reason.replace(/^channel feed/, 'playlist feed') : 'playlist feed: no answer' };
  try {
    return parsePlaylistFeed(xml.value);
  } catch (err) {
    return { failed: err instanceof PlatformError ? err.reason : String(err) };
  }
}

// ── the playlist page (browse VL<id>) ─────────────────────────────────────

export interface PlaylistPage {
  title: string | null;
  owner: string | null;
  ownerChannelId: string | null;
  videos: ListedVideo[];
  /** Entries the platform shows as unavailable (private or deleted videos): skipped. */
  unavailable: number;
  dropped: string[];
  continuation: string | null;
}

function pageItems(json: unknown): unknown[] {
  for (const tab of asArray(dig(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'))) {
    const content = dig(tab, 'tabRenderer', 'content');
    for (const section of asArray(dig(content, 'sectionListRenderer', 'contents'))) {
      for (const inner of asArray(dig(section, 'itemSectionRenderer', 'contents'))) {
        const list = dig(inner, 'playlistVideoListRenderer', 'contents');
        if (Array.isArray(list)) return list;
      }
    }
    const grid = dig(content, 'richGridRenderer', 'contents');
    if (Array.isArray(grid)) return grid;
  }
  for (const action of asArray(dig(json, 'onResponseReceivedActions'))) {
    const items = dig(action, 'appendContinuationItemsAction', 'continuationItems') ?? dig(action, 'reloadContinuationItemsCommand', 'continuationItems');
    if (Array.isArray(items)) return items;
  }
  return [];
}

const uploaderOf = (byline: unknown): string | null => {
  for (const run of asArray(dig(byline, 'runs'))) {
    const id = asString(dig(run, 'navigationEndpoint', 'browseEndpoint', 'browseId'));
    if (id !== null && CHANNEL_ID.test(id)) return id;
  }
  return null;
};

/** A lockup's uploader: the channel link in its metadata rows. */
function lockupUploader(l: unknown): string | null {
  const rows = asArray(dig(l, 'metadata', 'lockupMetadataViewModel', 'metadata', 'contentMetadataViewModel', 'metadataRows'));
  for (const part of rows.flatMap((r) => asArray(dig(r, 'metadataParts')))) {
    for (const run of asArray(dig(part, 'text', 'commandRuns'))) {
      const id = asString(dig(run, 'onTap', 'innertubeCommand', 'browseEndpoint', 'browseId'));
      if (id !== null && CHANNEL_ID.test(id)) return id;
    }
  }
  return null;
}

type Entry = { video: ListedVideo } | { unavailable: true } | { dropped: string } | null;

function entryOf(item: unknown): Entry {
  const pv = dig(item, 'playlistVideoRenderer');
  if (pv !== undefined) {
    const videoId = asString(dig(pv, 'videoId'));
    if (!videoId) return null;
    if (!isVideoId(videoId)) return { dropped: videoId.slice(0, 40) };
    // A private or deleted video keeps its place in the list, unplayable and without an uploader.
    if (dig(pv, 'isPlayable') === false) return { unavailable: true };
    const channelId = uploaderOf(dig(pv, 'shortBylineText'));
    return { video: { videoId, title: textOf(dig(pv, 'title')) ?? '', publishedAt: null, ...(channelId ? { channelId } : {}) } };
  }
  const content = dig(item, 'richItemRenderer', 'content') ?? item;
  const reel = dig(content, 'reelItemRenderer');
  if (reel !== undefined) {
    const videoId = asString(dig(reel, 'videoId'));
    if (!videoId) return null;
    return isVideoId(videoId) ? { video: { videoId, title: textOf(dig(reel, 'headline')) ?? '', publishedAt: null, short: true } } : { dropped: videoId.slice(0, 40) };
  }
  const lockup = dig(content, 'lockupViewModel');
  const v = fromVideoRenderer(dig(content, 'videoRenderer')) ?? fromLockup(lockup);
  if (!v) return null;
  if (!isVideoId(v.videoId)) return { dropped: v.videoId.slice(0, 40) };
  const channelId = lockup !== undefined ? lockupUploader(lockup) : uploaderOf(dig(content, 'videoRenderer', 'shortBylineText') ?? dig(content, 'videoRenderer', 'ownerText'));
  return { video: { videoId: v.videoId, title: v.title, publishedAt: null, ...(channelId ? { channelId } : {}) } };
}

/** The token of the next page: every channel shape, and the playlist's first-page `commandExecutorCommand` under the renderer's endpoint. */
function nextToken(item: unknown): string | null {
  const token = continuationToken(item);
  if (token) return token;
  for (const c of asArray(dig(item, 'continuationItemRenderer', 'continuationEndpoint', 'commandExecutorCommand', 'commands'))) {
    const wrapped = asString(dig(c, 'continuationCommand', 'token'));
    if (wrapped) return wrapped;
  }
  return null;
}

function headerOf(json: unknown): Pick<PlaylistPage, 'title' | 'owner' | 'ownerChannelId'> {
  const h = dig(json, 'header', 'playlistHeaderRenderer');
  const sidebarItems = asArray(dig(json, 'sidebar', 'playlistSidebarRenderer', 'items'));
  const primary = sidebarItems.map((i) => dig(i, 'playlistSidebarPrimaryInfoRenderer')).find((x) => x !== undefined);
  const ownerRenderer = sidebarItems.map((i) => dig(i, 'playlistSidebarSecondaryInfoRenderer', 'videoOwner', 'videoOwnerRenderer')).find((x) => x !== undefined);
  const title = textOf(dig(h, 'title')) ?? textOf(dig(primary, 'title')) ?? asString(dig(json, 'metadata', 'playlistMetadataRenderer', 'title'))
    ?? asString(dig(json, 'microformat', 'microformatDataRenderer', 'title'));
  const owner = textOf(dig(h, 'ownerText')) ?? textOf(dig(ownerRenderer, 'title'));
  const ownerChannelId = uploaderOf(dig(h, 'ownerText')) ?? uploaderOf(dig(ownerRenderer, 'title'));
  return { title, owner, ownerChannelId };
}

export function parsePlaylistPage(json: unknown): PlaylistPage {
  const page: PlaylistPage = { ...headerOf(json), videos: [], unavailable: 0, dropped: [], continuation: null };
  for (const item of pageItems(json)) {
    const e = entryOf(item);
    if (e !== null && 'video' in e) page.videos.push(e.video);
    else if (e !== null && 'unavailable' in e) page.unavailable += 1;
    else if (e !== null) page.dropped.push(e.dropped);
    page.continuation = nextToken(item) ?? page.continuation;
  }
  return page;
}

/** An ERROR alert on the playlist page: private, or (any other text) gone. */
function unavailableFrom(json: unknown): PlaylistUnavailableError | null {
  for (const a of asArray(dig(json, 'alerts'))) {
    const r = dig(a, 'alertRenderer') ?? dig(a, 'alertWithButtonRenderer');
    if (dig(r, 'type') !== 'ERROR') continue;
    const text = textOf(dig(r, 'text')) ?? 'playlist not available';
    return new PlaylistUnavailableError(/\bprivate\b/i.test(text) ? 'private' : 'deleted', `playlist page: ${text}`);
  }
  return null;
}

/** One browse request: the playlist page, or the page behind `continuation`. */
export async function browsePlaylist(http: PlatformHttp, playlistId: string, continuation: string | null): Promise<PlaylistPage> {
  const what = continuation === null ? 'playlist browse' : 'playlist continuation';
  const body = continuation === null ? { browseId: `VL${playlistId}` } : { continuation };
  const a = await innertubeRequest(http, { endpoint: 'browse', identity: WEB_IDENTITY, body, what, referer: `/playlist?list=${playlistId}` });
  const rule = { ...ENDPOINTS.browse, what };
  const json = valueOf(readJson(a, rule), rule);
  const gone = unavailableFrom(json);
  if (gone) throw gone;
  return parsePlaylistPage(json);
}

// ── the listing ────────────────────────────────────────────────────────────

const isRefusal = (err: unknown): boolean => err instanceof PlatformError && (err.outcome === 'blocked' || err.outcome === 'consent');

/**
 * The playlist's first `limit` (<= 100) available entries in its own order. The feed alone when it
 * holds them (or the whole playlist); else the playlist page and its continuations, with the
 * feed's exact dates kept for the entries it has.
 */
export async function listPlaylist(http: PlatformHttp, playlistId: string, limit: number, log: Logger): Promise<PlaylistListing> {
  const want = Math.max(1, Math.min(MAX_LIST, Math.floor(limit)));
  const feed = await fetchPlaylistFeed(http, playlistId);
  if ('failed' in feed) log.info({ playlistId, reason: feed.failed }, 'playlist feed failed; reading the playlist page');
  else if (feed.dropped.length > 0) log.warning({ playlistId, dropped: feed.dropped }, 'playlist feed: entries without a valid video id left out');
  const fed = 'failed' in feed ? null : feed;
  if (fed !== null && (fed.videos.length >= want || fed.videos.length + fed.dropped.length < PLAYLIST_FEED_SIZE)) {
    const videos = fed.videos.slice(0, want);
    return { playlistId, title: fed.title, owner: fed.owner, ownerChannelId: fed.ownerChannelId, videos, unavailable: 0, complete: videos.length === fed.videos.length && fed.videos.length + fed.dropped.length < PLAYLIST_FEED_SIZE, mode: 'feed' };
  }

  const listed: ListedVideo[] = [];
  const seen = new Set<string>();
  const seenTokens = new Set<string>();
  let head: Pick<PlaylistPage, 'title' | 'owner' | 'ownerChannelId'> = { title: fed?.title ?? null, owner: fed?.owner ?? null, ownerChannelId: fed?.ownerChannelId ?? null };
  let unavailable = 0;
  let token: string | null = null;
  let ranOut = false;
  for (let page = 0; page < MAX_PLAYLIST_PAGES; page++) {
    let result: PlaylistPage;
    try {
      result = await browsePlaylist(http, playlistId, token);
    } catch (err) {
      // With a working feed, a failing page still leaves its 15 entries worth returning.
      if (!fed || isRefusal(err) || err instanceof PlaylistUnavailableError || !(err instanceof PlatformError)) throw err;
      log.info({ playlistId, reason: err.reason }, 'playlist page failed; listing only what the feed holds');
      return { playlistId, ...head, videos: fed.videos.slice(0, want), unavailable, complete: false, mode: 'feed' };
    }
    if (page === 0) head = { title: result.title ?? head.title, owner: result.owner ?? head.owner, ownerChannelId: result.ownerChannelId ?? head.ownerChannelId };
    if (result.dropped.length > 0) log.warning({ playlistId, dropped: result.dropped }, 'playlist page: entries without a valid video id left out');
    unavailable += result.unavailable;
    for (const v of result.videos) {
      if (seen.has(v.videoId)) continue;
      seen.add(v.videoId);
      listed.push(v);
    }
    token = result.continuation;
    if (token === null) {
      ranOut = true;
      break;
    }
    if (listed.length >= want || seenTokens.has(token)) break;
    seenTokens.add(token);
  }
  // The page gives no dates: the feed's exact ones are kept where it has the entry.
  const dated = new Map((fed?.videos ?? []).map((v) => [v.videoId, v]));
  const videos = listed.slice(0, want).map((v) => {
    const f = dated.get(v.videoId);
    return f ? { ...v, publishedAt: f.publishedAt, ...(v.channelId || !f.channelId ? {} : { channelId: f.channelId }) } : v;
  });
  if (unavailable > 0) log.info({ playlistId, unavailable }, 'playlist: unavailable entries skipped');
  return { playlistId, ...head, videos, unavailable, complete: ranOut && videos.length === listed.length, mode: 'deep' };
}
