// Playlists as the platform serves them (docs/crawler.md §2b), in the shapes of the reference
// clients' recorded answers (NewPipeExtractor's YoutubePlaylistExtractor and its mocks, yt-dlp's
// tab extractor, YouTube.js's Playlist); the playlist's Atom feed is in feed-xml.ts:
//
// * POST /youtubei/v1/browse with browseId `VL<id>`: the playlist page — `header.playlistHeaderRenderer`
//   (title, ownerText with the owner's browseId), the sidebar's owner (`videoOwnerRenderer`), the
//   entries under `…sectionListRenderer…itemSectionRenderer…playlistVideoListRenderer.contents[]`,
//   100 a page (the platform's page; tests may make it smaller to get more pages from fewer
//   videos), then a continuationItemRenderer. The first page's continuation is wrapped in a
//   `commandExecutorCommand` (NewPipe: "only used … in initial playlist responses"); continuation
//   answers carry the classic `continuationCommand` (or the scenario's view-model shapes) in
//   `appendContinuationItemsAction`. Entries come as `playlistVideoRenderer` (index, shortBylineText
//   with the uploader's browseId, lengthSeconds, isPlayable) and, for a third of them, as the
//   `lockupViewModel` the channel grid also serves. A private or deleted video inside stays in
//   the list as `[Private video]` / `[Deleted video]` with `isPlayable: false` and no uploader.
// * A private playlist answers 200 with `alerts[].alertRenderer` type ERROR "This playlist is
//   private."; a deleted or unknown one "The playlist does not exist."; a malformed id 400.

import type { FakeContext } from './context';
import type { ContinuationShape } from './scenarios';
import type { FakeChannelSpec, FakePlaylistSpec, PlaylistEntry } from './types';
import { hashString } from '../support/random';
import { clock, opaque, relativeTime, shortViews, spokenDuration, trackingParams, videoThumbnails, viewCount } from './texts';
import { lengthOf, generateCues } from './cues';

export const PLAYLIST_FEED_SIZE = 15;
/** Entries on one playlist page, as the platform serves them. */
export const PLAYLIST_PAGE_SIZE = 100;
const TOKEN_PREFIX = '4qmFsgKl';

// ── continuation tokens: self-describing, like the channel grid's ─────────

interface PlaylistCursor {
  playlistId: string;
  offset: number;
}

export function encodePlaylistToken(c: PlaylistCursor): string {
  const body = JSON.stringify(c);
  return TOKEN_PREFIX + Buffer.from(JSON.stringify({ ...c, pad: opaque(body, 600 + (hashString(body) % 600)) })).toString('base64url');
}

export function decodePlaylistToken(token: string): PlaylistCursor | null {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  try {
    const v = JSON.parse(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8')) as Partial<PlaylistCursor>;
    return typeof v.playlistId === 'string' && typeof v.offset === 'number' ? { playlistId: v.playlistId, offset: v.offset } : null;
  } catch {
    return null;
  }
}

// ── browse ─────────────────────────────────────────────────────────────────

const runs = (text: string): unknown => ({ runs: [{ text }] });

function channelLink(channel: FakeChannelSpec): unknown {
  return {
    text: channel.title,
    navigationEndpoint: {
      clickTrackingParams: trackingParams(`owner:${channel.channelId}`),
      commandMetadata: { webCommandMetadata: { url: `/@${channel.handle}`, webPageType: 'WEB_PAGE_TYPE_CHANNEL', rootVe: 3611, apiUrl: '/youtubei/v1/browse' } },
      browseEndpoint: { browseId: channel.channelId, canonicalBaseUrl: `/@${channel.handle}` },
    },
  };
}

function watchInPlaylist(videoId: string, playlistId: string, index: number): unknown {
  return {
    clickTrackingParams: trackingParams(`pw:${videoId}`),
    commandMetadata: { webCommandMetadata: { url: `/watch?v=${videoId}&list=${playlistId}&index=${index + 1}`, webPageType: 'WEB_PAGE_TYPE_WATCH', rootVe: 3832 } },
    watchEndpoint: { videoId, playlistId, index },
  };
}

function playlistVideoRenderer(e: PlaylistEntry, playlistId: string, index: number): unknown {
  if (e.kind === 'gone') {
    return {
      playlistVideoRenderer: {
        videoId: e.videoId,
        thumbnail: { thumbnails: [{ url: 'https://i.ytimg.com/img/no_thumbnail.jpg', width: 120, height: 90 }] },
        title: runs(e.why === 'private' ? '[Private video]' : '[Deleted video]'),
        index: { simpleText: String(index + 1) },
        navigationEndpoint: watchInPlaylist(e.videoId, playlistId, index),
        isPlayable: false,
        trackingParams: trackingParams(`pv:${e.videoId}`),
      },
    };
  }
  const { video, channel } = e;
  const seconds = lengthOf(video.cues ?? generateCues(video.videoId, video.language));
  return {
    playlistVideoRenderer: {
      videoId: video.videoId,
      thumbnail: { thumbnails: videoThumbnails(video.videoId) },
      title: { runs: [{ text: video.title }], accessibility: { accessibilityData: { label: `${video.title} ${spokenDuration(seconds)}` } } },
      index: { simpleText: String(index + 1) },
      shortBylineText: { runs: [channelLink(channel)] },
      lengthText: { accessibility: { accessibilityData: { label: spokenDuration(seconds) } }, simpleText: clock(seconds) },
      navigationEndpoint: watchInPlaylist(video.videoId, playlistId, index),
      lengthSeconds: String(seconds),
      trackingParams: trackingParams(`pv:${video.videoId}`),
      isPlayable: true,
      videoInfo: { runs: [{ text: shortViews(viewCount(video.videoId)) }, { text: ' • ' }, { text: relativeTime(video.publishedAt) }] },
    },
  };
}

function lockupViewModel(e: Extract<PlaylistEntry, { kind: 'video' }>, playlistId: string, index: number): unknown {
  const { video, channel } = e;
  return {
    lockupViewModel: {
      contentImage: { thumbnailViewModel: { image: { sources: videoThumbnails(video.videoId) } } },
      metadata: {
        lockupMetadataViewModel: {
          title: { content: video.title },
          metadata: {
            contentMetadataViewModel: {
              metadataRows: [
                { metadataParts: [{ text: { content: channel.title, commandRuns: [{ startIndex: 0, length: channel.title.length, onTap: { innertubeCommand: (channelLink(channel) as { navigationEndpoint: unknown }).navigationEndpoint } }] } }] },
                { metadataParts: [{ text: { content: shortViews(viewCount(video.videoId)) } }, { text: { content: relativeTime(video.publishedAt) } }] },
              ],
              delimiter: ' • ',
            },
          },
        },
      },
      contentId: video.videoId,
      contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
      rendererContext: { commandContext: { onTap: { innertubeCommand: watchInPlaylist(video.videoId, playlistId, index) } } },
    },
  };
}

/** A third of the entries (by id) come as the lockup view model; unavailable ones always as the classic renderer. */
function item(e: PlaylistEntry, playlistId: string, index: number): unknown {
  if (e.kind === 'video' && hashString(e.video.videoId) % 3 === 1) return lockupViewModel(e, playlistId, index);
  return playlistVideoRenderer(e, playlistId, index);
}

function continuationItem(token: string, first: boolean, shape: ContinuationShape): unknown {
  const command = { continuationCommand: { token, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } };
  if (shape === 'viewModel') return { continuationItemViewModel: { continuationCommand: { innertubeCommand: command } } };
  if (shape === 'wrapped') return { continuationItemViewModel: { continuationCommand: { innertubeCommand: { commandExecutorCommand: { commands: [{ playlistVotingRefreshPopupCommand: {} }, command] } } } } };
  const endpoint = first
    ? { commandExecutorCommand: { commands: [{ playlistVotingRefreshPopupCommand: { command: { clickTrackingParams: trackingParams('vote') } } }, command] } }
    : { clickTrackingParams: trackingParams(`cont:${token.slice(-16)}`), commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/browse' } }, ...command };
  return { continuationItemRenderer: { trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN', continuationEndpoint: endpoint } };
}

function pageOf(playlist: FakePlaylistSpec, entries: readonly PlaylistEntry[], offset: number, pageSize: number, shape: ContinuationShape): unknown[] {
  const page = entries.slice(offset, offset + pageSize).map((e, i) => item(e, playlist.playlistId, offset + i));
  if (offset + pageSize < entries.length) page.push(continuationItem(encodePlaylistToken({ playlistId: playlist.playlistId, offset: offset + pageSize }), offset === 0, shape));
  return page;
}

function header(playlist: FakePlaylistSpec, owner: FakeChannelSpec, count: number): unknown {
  return {
    playlistHeaderRenderer: {
      playlistId: playlist.playlistId,
      title: { simpleText: playlist.title },
      numVideosText: runs(`${count} videos`),
      ownerText: { runs: [channelLink(owner)] },
      viewCountText: { simpleText: `${shortViews(viewCount(playlist.playlistId))}` },
      privacy: 'PUBLIC',
      trackingParams: trackingParams(`ph:${playlist.playlistId}`),
    },
  };
}

function sidebar(playlist: FakePlaylistSpec, owner: FakeChannelSpec, count: number): unknown {
  return {
    playlistSidebarRenderer: {
      items: [
        { playlistSidebarPrimaryInfoRenderer: { title: runs(playlist.title), stats: [runs(`${count} videos`)] } },
        {
          playlistSidebarSecondaryInfoRenderer: {
            videoOwner: { videoOwnerRenderer: { title: { runs: [channelLink(owner)] }, navigationEndpoint: (channelLink(owner) as { navigationEndpoint: unknown }).navigationEndpoint } },
          },
        },
      ],
    },
  };
}

export function playlistBrowse(ctx: FakeContext, playlistId: string, context: unknown): unknown {
  const found = ctx.catalog.playlist(playlistId);
  if (!found || found.playlist.state !== undefined) {
    const text = found?.playlist.state === 'private' ? 'This playlist is private.' : 'The playlist does not exist.';
    return { responseContext: context, alerts: [{ alertRenderer: { type: 'ERROR', text: runs(text) } }], trackingParams: trackingParams(`pl-missing:${playlistId}`) };
  }
  const { playlist, owner, entries } = found;
  const list = {
    playlistVideoListRenderer: {
      contents: pageOf(playlist, entries, 0, ctx.scenarios.pageSizeOfPlaylists ?? PLAYLIST_PAGE_SIZE, ctx.scenarios.continuation),
      playlistId,
      isEditable: false,
      canReorder: false,
      trackingParams: trackingParams(`pvl:${playlistId}`),
      targetId: `pl-${playlistId}`,
    },
  };
  return {
    responseContext: context,
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              selected: true,
              content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [list] } }], trackingParams: trackingParams(`sl:${playlistId}`) } },
            },
          },
        ],
      },
    },
    header: header(playlist, owner, entries.length),
    sidebar: sidebar(playlist, owner, entries.length),
    metadata: { playlistMetadataRenderer: { title: playlist.title, androidAppindexingLink: `android-app://com.google.android.youtube/http/www.youtube.com/playlist?list=${playlistId}` } },
    microformat: { microformatDataRenderer: { urlCanonical: `https://www.youtube.com/playlist?list=${playlistId}`, title: playlist.title, noindex: false, unlisted: false } },
    trackingParams: trackingParams(`pl:${playlistId}`),
  };
}

export function playlistContinuation(ctx: FakeContext, cursor: { playlistId: string; offset: number }, context: unknown): unknown | null {
  const found = ctx.catalog.playlist(cursor.playlistId);
  if (!found || found.playlist.state !== undefined) return null;
  const items = pageOf(found.playlist, found.entries, cursor.offset, ctx.scenarios.pageSizeOfPlaylists ?? PLAYLIST_PAGE_SIZE, ctx.scenarios.continuation);
  return {
    responseContext: context,
    onResponseReceivedActions: [{ clickTrackingParams: trackingParams('pl-cont'), appendContinuationItemsAction: { continuationItems: items, targetId: `pl-${cursor.playlistId}` } }],
    trackingParams: trackingParams(`pl-cont:${cursor.playlistId}`),
  };
}
