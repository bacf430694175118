// The Videos tab: a richGridRenderer of 30 items per page in BOTH live item shapes (videoRenderer
// and lockupViewModel, mixed on every page), then a continuationItemRenderer whose long opaque
// token fetches the next page; chips in the header carry tokens of their own (other sort orders).
//
// Tokens are "4qmFsgL" + base64url(JSON cursor + padding): opaque to clients, 1.5–3k characters
// like the real ones, and self-describing so the fake needs no session state. A cursor names the
// last video id served, so an upload arriving mid-listing does not shift the following pages.

import type { ContinuationShape } from './scenarios';
import type { FakeChannelSpec, FakeVideoSpec } from './types';
import { lengthOf, generateCues } from './cues';
import { hashString } from '../support/random';
import {
  clock,
  longViews,
  opaque,
  relativeTime,
  shortViews,
  spokenDuration,
  trackingParams,
  videoThumbnails,
  viewCount,
} from './texts';

export const PAGE_SIZE = 30;
export const GRID_TARGET_ID = '6b039d52-0000-2e60-8436-089e082812a4';
const TOKEN_PREFIX = '4qmFsgL';

export type Sort = 'latest' | 'popular' | 'oldest';

export interface Cursor {
  /** `page`: the next page of a listing; `chip`: the first page in another order. */
  kind: 'page' | 'chip';
  channelId: string;
  sort: Sort;
  /** Id of the last video already served (page cursors). */
  after?: string;
  /** How many were served, used when `after` has disappeared. */
  offset?: number;
}

export function encodeToken(cursor: Cursor): string {
  const body = JSON.stringify(cursor);
  // Page tokens are long (1.5–3k), chip tokens short, as in the capture.
  const target = cursor.kind === 'page' ? 1500 + (hashString(body) % 1500) : 150;
  const pad = opaque(body, Math.max(0, Math.ceil(((target - TOKEN_PREFIX.length) * 3) / 4) - body.length - 10));
  return TOKEN_PREFIX + Buffer.from(JSON.stringify({ ...cursor, pad })).toString('base64url');
}

export function decodeToken(token: string): Cursor | null {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const c = value as Partial<Cursor>;
    if ((c.kind !== 'page' && c.kind !== 'chip') || typeof c.channelId !== 'string') return null;
    if (c.sort !== 'latest' && c.sort !== 'popular' && c.sort !== 'oldest') return null;
    return { kind: c.kind, channelId: c.channelId, sort: c.sort, after: c.after, offset: c.offset };
  } catch {
    return null;
  }
}

/** The Videos tab's list in a given order: Shorts and aired streams left out (they have their own tabs), as the real tab does. */
export function listing(channel: FakeChannelSpec, sort: Sort): FakeVideoSpec[] {
  const videos = channel.videos.filter((v) => !v.short && v.live !== 'stream');
  if (sort === 'oldest') return [...videos].reverse();
  if (sort === 'popular') return [...videos].sort((a, b) => viewCount(b.videoId) - viewCount(a.videoId));
  return videos;
}

function lengthSeconds(video: FakeVideoSpec): number {
  return lengthOf(video.cues ?? generateCues(video.videoId, video.language));
}

function watchCommand(videoId: string): unknown {
  return {
    clickTrackingParams: trackingParams(`watch:${videoId}`),
    commandMetadata: { webCommandMetadata: { url: `/watch?v=${videoId}`, webPageType: 'WEB_PAGE_TYPE_WATCH', rootVe: 3832 } },
    watchEndpoint: { videoId },
  };
}

function videoRenderer(video: FakeVideoSpec): unknown {
  const seconds = lengthSeconds(video);
  const views = viewCount(video.videoId);
  return {
    videoRenderer: {
      videoId: video.videoId,
      thumbnail: { thumbnails: videoThumbnails(video.videoId) },
      title: {
        runs: [{ text: video.title }],
        accessibility: { accessibilityData: { label: `${video.title} ${spokenDuration(seconds)}` } },
      },
      descriptionSnippet: { runs: [{ text: `${video.title}. More in the description.` }] },
      publishedTimeText: { simpleText: relativeTime(video.publishedAt) },
      lengthText: {
        accessibility: { accessibilityData: { label: spokenDuration(seconds) } },
        simpleText: clock(seconds),
      },
      viewCountText: { simpleText: longViews(views) },
      navigationEndpoint: watchCommand(video.videoId),
      trackingParams: trackingParams(`vr:${video.videoId}`),
      showActionMenu: false,
      shortViewCountText: {
        accessibility: { accessibilityData: { label: longViews(views) } },
        simpleText: shortViews(views),
      },
    },
  };
}

function lockupViewModel(video: FakeVideoSpec): unknown {
  const seconds = lengthSeconds(video);
  return {
    lockupViewModel: {
      contentImage: {
        thumbnailViewModel: {
          image: { sources: videoThumbnails(video.videoId) },
          overlays: [
            {
              thumbnailBottomOverlayViewModel: {
                badges: [
                  {
                    thumbnailBadgeViewModel: {
                      text: clock(seconds),
                      badgeStyle: 'THUMBNAIL_OVERLAY_BADGE_STYLE_DEFAULT',
                      rendererContext: { accessibilityContext: { label: spokenDuration(seconds) } },
                    },
                  },
                ],
              },
            },
          ],
        },
      },
      metadata: {
        lockupMetadataViewModel: {
          title: { content: video.title },
          metadata: {
            contentMetadataViewModel: {
              metadataRows: [
                {
                  metadataParts: [
                    { text: { content: shortViews(viewCount(video.videoId)) } },
                    { text: { content: relativeTime(video.publishedAt) } },
                  ],
                },
              ],
              delimiter: ' • ',
            },
          },
        },
      },
      contentId: video.videoId,
      contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
      rendererContext: {
        loggingContext: { loggingDirectives: { trackingParams: trackingParams(`lk:${video.videoId}`), visibility: { types: '12' } } },
        accessibilityContext: { label: `${video.title} ${spokenDuration(seconds)}` },
        commandContext: { onTap: { innertubeCommand: watchCommand(video.videoId) } },
      },
    },
  };
}

/** Both shapes on every page; which one a video gets is stable (a third are old-style). */
function item(video: FakeVideoSpec): unknown {
  const content = hashString(video.videoId) % 3 === 0 ? videoRenderer(video) : lockupViewModel(video);
  return { richItemRenderer: { content, trackingParams: trackingParams(`ri:${video.videoId}`) } };
}

/**
 * The next-page item. Since mid-2026 the platform also serves it as a continuationItemViewModel, the
 * command sometimes wrapped in a commandExecutorCommand (yt-dlp #16948, YouTube.js #1193).
 */
function continuationItem(token: string, shape: ContinuationShape): unknown {
  const command = { continuationCommand: { token, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } };
  if (shape === 'viewModel') return { continuationItemViewModel: { continuationCommand: { innertubeCommand: command } } };
  if (shape === 'wrapped') {
    const log = { logGwsClickCommand: { clickTrackingParams: trackingParams(`cont:${token.slice(-16)}`) } };
    return { continuationItemViewModel: { continuationCommand: { innertubeCommand: { commandExecutorCommand: { commands: [log, command] } } } } };
  }
  return {
    continuationItemRenderer: {
      trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
      continuationEndpoint: {
        clickTrackingParams: trackingParams(`cont:${token.slice(-16)}`),
        commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/browse' } },
        continuationCommand: { token, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' },
      },
    },
  };
}

/** One page of items starting after the cursor, with the next page's continuation when there is one. */
export function pageItems(channel: FakeChannelSpec, sort: Sort, after?: string, offset = 0, shape: ContinuationShape = 'renderer'): unknown[] {
  const list = listing(channel, sort);
  let start = offset;
  if (after !== undefined) {
    const at = list.findIndex((v) => v.videoId === after);
    if (at >= 0) start = at + 1;
  }
  const page = list.slice(start, start + PAGE_SIZE);
  const items = page.map(item);
  const last = page[page.length - 1];
  if (last && start + PAGE_SIZE < list.length) {
    items.push(continuationItem(encodeToken({ kind: 'page', channelId: channel.channelId, sort, after: last.videoId, offset: start + PAGE_SIZE }), shape));
  }
  return items;
}

function chips(channel: FakeChannelSpec, selected: Sort): unknown {
  const chip = (text: string, sort: Sort) => ({
    chipViewModel: {
      text,
      selected: sort === selected,
      displayType: 'CHIP_VIEW_MODEL_DISPLAY_TYPE_UNSPECIFIED',
      tapCommand: {
        innertubeCommand: {
          clickTrackingParams: trackingParams(`chip:${sort}`),
          commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/browse' } },
          continuationCommand: {
            token: encodeToken({ kind: 'chip', channelId: channel.channelId, sort }),
            request: 'CONTINUATION_REQUEST_TYPE_BROWSE',
            command: { clickTrackingParams: trackingParams(`chip:${sort}`), showReloadUiCommand: { targetId: GRID_TARGET_ID } },
          },
        },
      },
      accessibilityLabel: text,
    },
  });
  return { chipBarViewModel: { chips: [chip('Latest', 'latest'), chip('Popular', 'popular'), chip('Oldest', 'oldest')] } };
}

/** The Videos tab's content on the first page. */
export function videosGrid(channel: FakeChannelSpec, shape: ContinuationShape = 'renderer'): unknown {
  return {
    richGridRenderer: {
      contents: pageItems(channel, 'latest', undefined, 0, shape),
      trackingParams: trackingParams(`grid:${channel.channelId}`),
      header: chips(channel, 'latest'),
      targetId: GRID_TARGET_ID,
      style: 'RICH_GRID_STYLE_SLIM',
    },
  };
}

/** The answer to a continuation (next page) or to a chip (the first page in another order). */
export function continuationAnswer(channel: FakeChannelSpec, cursor: Cursor, context: unknown, shape: ContinuationShape = 'renderer'): unknown {
  const items = pageItems(channel, cursor.sort, cursor.after, cursor.offset ?? 0, shape);
  const action =
    cursor.kind === 'chip'
      ? { reloadContinuationItemsCommand: { targetId: GRID_TARGET_ID, continuationItems: items, slot: 'RELOAD_CONTINUATION_SLOT_BODY' } }
      : { appendContinuationItemsAction: { continuationItems: items, targetId: GRID_TARGET_ID } };
  return {
    responseContext: context,
    trackingParams: trackingParams(`contanswer:${channel.channelId}`),
    onResponseReceivedActions: [{ clickTrackingParams: trackingParams('cont'), ...action }],
  };
}
