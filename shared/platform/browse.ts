// InnerTube browse of a channel's Videos tab (docs/crawler.md §2): the full upload list, about 30 per
// page, with relative dates only. Both item shapes live in 2026 (videoRenderer, lockupViewModel) are
// read; chips in the grid header carry tokens too, but only the grid's trailing
// continuationItemRenderer is the next page.

import { isVideoId } from '../ids';
import { classifyBrowse } from './classify';
import { ENDPOINTS, readJson, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { WEB_IDENTITY, innertubeRequest } from './innertube';
import { asArray, asString, dig, textOf } from './page-data';
import { PlatformError } from './types';

/** The Videos tab (leaves Shorts and live streams out). */
export const VIDEOS_TAB_PARAMS = 'EgZ2aWRlb3PyBgQKAjoA';

export interface BrowsedVideo {
  videoId: string;
  title: string;
  /** "10 days ago" as the platform words it; never turned into a date. */
  relativeDate: string | null;
}

export interface BrowsePage {
  /** Channel title (first page only). */
  title: string | null;
  videos: BrowsedVideo[];
  /** Items whose id is not a video id (docs/crawler.md §2): left out, for the caller to log. */
  dropped: string[];
  continuation: string | null;
}

function gridItems(json: unknown): unknown[] {
  const tabs = asArray(dig(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'));
  const grids = tabs.map((t) => dig(t, 'tabRenderer', 'content', 'richGridRenderer')).filter((g) => g !== undefined);
  const selected = tabs.find((t) => dig(t, 'tabRenderer', 'selected') === true);
  const grid = dig(selected, 'tabRenderer', 'content', 'richGridRenderer') ?? grids[0];
  if (grid !== undefined) return asArray(dig(grid, 'contents'));
  // Continuation pages put the items in an action instead.
  for (const action of asArray(dig(json, 'onResponseReceivedActions'))) {
    const items = dig(action, 'appendContinuationItemsAction', 'continuationItems') ?? dig(action, 'reloadContinuationItemsCommand', 'continuationItems');
    if (Array.isArray(items)) return items;
  }
  return [];
}

export function fromVideoRenderer(r: unknown): BrowsedVideo | null {
  const videoId = asString(dig(r, 'videoId'));
  if (!videoId) return null;
  return { videoId, title: textOf(dig(r, 'title')) ?? '', relativeDate: textOf(dig(r, 'publishedTimeText')) };
}

export function fromLockup(l: unknown): BrowsedVideo | null {
  const videoId = asString(dig(l, 'contentId'));
  const type = asString(dig(l, 'contentType'));
  if (!videoId || (type !== null && type !== 'LOCKUP_CONTENT_TYPE_VIDEO')) return null;
  const meta = dig(l, 'metadata', 'lockupMetadataViewModel');
  const parts = asArray(dig(meta, 'metadata', 'contentMetadataViewModel', 'metadataRows'))
    .flatMap((row) => asArray(dig(row, 'metadataParts')))
    .map((p) => textOf(dig(p, 'text')) ?? '');
  return {
    videoId,
    title: textOf(dig(meta, 'title')) ?? '',
    relativeDate: parts.find((p) => /\bago\b/.test(p)) ?? null,
  };
}

/**
 * The next-page token of a grid item, in any of its 2026 shapes (docs/crawler.md §2): the classic
 * continuationItemRenderer, or the continuationItemViewModel whose innertubeCommand holds the
 * continuationCommand directly or wrapped in a commandExecutorCommand's list.
 */
export function continuationToken(item: unknown): string | null {
  const classic = asString(dig(item, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
  if (classic) return classic;
  const command = dig(item, 'continuationItemViewModel', 'continuationCommand', 'innertubeCommand');
  const direct = asString(dig(command, 'continuationCommand', 'token'));
  if (direct) return direct;
  for (const c of asArray(dig(command, 'commandExecutorCommand', 'commands'))) {
    const wrapped = asString(dig(c, 'continuationCommand', 'token'));
    if (wrapped) return wrapped;
  }
  return null;
}

export function parseBrowsePage(json: unknown): BrowsePage {
  const videos: BrowsedVideo[] = [];
  const dropped: string[] = [];
  let continuation: string | null = null;
  for (const item of gridItems(json)) {
    const content = dig(item, 'richItemRenderer', 'content');
    const v = content === undefined
      ? fromVideoRenderer(dig(item, 'gridVideoRenderer'))
      : fromVideoRenderer(dig(content, 'videoRenderer')) ?? fromLockup(dig(content, 'lockupViewModel'));
    if (v && isVideoId(v.videoId)) videos.push(v);
    else if (v) dropped.push(v.videoId.slice(0, 40));
    const token = continuationToken(item);
    if (token) continuation = token;
  }
  return { title: asString(dig(json, 'metadata', 'channelMetadataRenderer', 'title')), videos, dropped, continuation };
}

/** One browse request: the first page of the Videos tab, or the page behind `continuation`. */
export async function browseVideos(http: PlatformHttp, channelId: string, continuation: string | null): Promise<BrowsePage> {
  const what = continuation === null ? 'browse' : 'browse continuation';
  const body = continuation === null ? { browseId: channelId, params: VIDEOS_TAB_PARAMS } : { continuation };
  const a = await innertubeRequest(http, { endpoint: 'browse', identity: WEB_IDENTITY, body, what, referer: `/channel/${channelId}/videos` });
  const rule = { ...ENDPOINTS.browse, what };
  const json = valueOf(readJson(a, rule), rule);
  const v = classifyBrowse(json);
  if (v.outcome !== 'ok') throw new PlatformError(v.outcome, `${what}: ${v.reason}`, { block: v.outcome === 'consent' ? undefined : v.block });
  return parseBrowsePage(json);
}
