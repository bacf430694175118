// The InnerTube JSON endpoints: navigation/resolve_url (handle → channel id), browse (Videos tab
// and its continuations), player (caption tracks). All are POSTs with a `context.client`.

import type { FakeContext } from './context';
import type { CounterName } from './types';
import { channelBrowse, channelMissing, tabForParams } from './channel-json';
import { continuationAnswer, decodeToken, videosGrid } from './browse-json';
import { decodePlaylistToken, playlistBrowse, playlistContinuation } from './playlist-json';
import { CHANNEL_ID_RE, VIDEO_ID_RE } from './data';
import { invalidArgumentJson, notFoundJson, preconditionJson } from './errors';
import { dig, json, jsonBody, type FakeRequest, type FakeResponse } from './http';
import { applyFieldMask, impostor } from './identity';
import { isAppClient } from './app-agents';
import { playerMicroformat } from './routes-pages';
import { isRetired, playerAgeCheck, playerMadeForKids, playerNotEmbeddable, playerReload } from './player-refusals';
import {
  playerBotCheck,
  playerCaptchaViewModel,
  playerOk,
  playerUnplayable,
  playerRateLimited,
  playerUnavailable,
  playerUpcoming,
  type PlayerClient,
} from './player-json';
import { responseContext, trackingParams } from './texts';

/** The body's `context.client`, or null when the request lacks one (the platform rejects those). */
/** Clients that cannot play made-for-kids videos (yt-dlp: VISIONOS, and ANDROID_VR before it). */
const KIDS_REFUSED = new Set(['VISIONOS', 'ANDROID_VR']);

function clientOf(body: Record<string, unknown> | null): PlayerClient | null {
  const name = dig(body, 'context', 'client', 'clientName');
  const version = dig(body, 'context', 'client', 'clientVersion');
  return typeof name === 'string' && typeof version === 'string' ? { name, version } : null;
}

export function resolveRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const body = jsonBody(req);
  const client = clientOf(body);
  if (!client) return preconditionJson();
  const url = dig(body, 'url');
  if (typeof url !== 'string') return invalidArgumentJson();
  const handle = /\/@([^/?#]+)/.exec(url)?.[1];
  const id = /\/channel\/(UC[A-Za-z0-9_-]{22})/.exec(url)?.[1];
  const channel = handle ? ctx.catalog.channelByHandle(decodeURIComponent(handle)) : id ? ctx.catalog.channel(id) : undefined;
  if (!channel) return notFoundJson();
  return json({
    responseContext: responseContext(client.name, client.version, { ResolveUrl_rid: '0xa68bcd538fda042e' }),
    endpoint: {
      clickTrackingParams: trackingParams(`resolve:${channel.channelId}`),
      commandMetadata: {
        webCommandMetadata: {
          url: '/youtubei/v1/navigation/resolve_url',
          webPageType: 'WEB_PAGE_TYPE_CHANNEL',
          rootVe: 3611,
          apiUrl: '/youtubei/v1/browse',
        },
        resolveUrlCommandMetadata: { isVanityUrl: handle !== undefined },
      },
      browseEndpoint: { browseId: channel.channelId, params: 'EgC4AQCSAwDyBgQKAjIA' },
    },
  });
}

/** browse counts as a continuation when it carries a token instead of a browseId. */
export function browseCounter(req: FakeRequest): CounterName {
  return typeof dig(jsonBody(req), 'continuation') === 'string' ? 'browseContinuation' : 'browse';
}

export function browseRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const body = jsonBody(req);
  const client = clientOf(body);
  if (!client) return preconditionJson();
  const continuation = dig(body, 'continuation');
  if (typeof continuation === 'string') {
    const inPlaylist = decodePlaylistToken(continuation);
    if (inPlaylist) {
      const answer = playlistContinuation(ctx, inPlaylist, responseContext(client.name, client.version, { browse_id: `VL${inPlaylist.playlistId}` }));
      return answer === null ? invalidArgumentJson() : json(answer);
    }
    const cursor = decodeToken(continuation);
    const channel = cursor && ctx.catalog.channel(cursor.channelId);
    if (!cursor || !channel) return invalidArgumentJson();
    return json(continuationAnswer(channel, cursor, responseContext(client.name, client.version, { browse_id: channel.channelId }), ctx.scenarios.continuation));
  }
  const browseId = dig(body, 'browseId');
  if (typeof browseId === 'string' && /^VL[A-Za-z0-9_-]{12,80}$/.test(browseId)) {
    return json(playlistBrowse(ctx, browseId.slice(2), responseContext(client.name, client.version, { browse_id: browseId })));
  }
  if (typeof browseId !== 'string' || !CHANNEL_ID_RE.test(browseId)) return invalidArgumentJson();
  const channel = ctx.catalog.channel(browseId);
  if (!channel) return json(channelMissing(browseId));
  const params = dig(body, 'params');
  const tab = tabForParams(typeof params === 'string' ? params : undefined) ?? 'Home';
  const content =
    tab === 'Videos' ? videosGrid(channel, ctx.scenarios.continuation) : { sectionListRenderer: { contents: [], trackingParams: trackingParams(`${tab}:${browseId}`) } };
  return json(channelBrowse(channel, tab, content));
}

/** The player endpoint, with the `$fields` mask the request names applied (or botched: brokenFieldMask). */
export function playerRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const mask = req.query.get('$fields');
  const res = playerAnswer(ctx, req);
  record(ctx, req, res);
  if (!mask || res.kind !== 'json' || res.status !== 200) return res;
  if (ctx.scenarios.take('brokenFieldMask')) return json({});
  return json(applyFieldMask(JSON.parse(res.body), mask));
}

/** Remembers the call for tests (bounded: a runaway client must not grow the fake forever). */
function record(ctx: FakeContext, req: FakeRequest, res: FakeResponse): void {
  if (ctx.playerCalls.length >= 100_000) return;
  const body = jsonBody(req);
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  const visitorData = str(dig(body, 'context', 'client', 'visitorData'));
  let playability: string | null = null;
  try {
    playability = str(dig(JSON.parse(res.body) as Record<string, unknown>, 'playabilityStatus', 'status'));
  } catch {
    // not JSON: no status to record
  }
  ctx.playerCalls.push({
    client: str(dig(body, 'context', 'client', 'clientName')) ?? '', version: str(dig(body, 'context', 'client', 'clientVersion')) ?? '',
    videoId: str(dig(body, 'videoId')) ?? '', visitorData, visitorHeader: str(req.headers['x-goog-visitor-id']),
    visitorIssuedTo: visitorData === null ? null : (ctx.visitors.get(visitorData) ?? null),
    encryptedHostFlags: str(dig(body, 'playbackContext', 'contentPlaybackContext', 'encryptedHostFlags')), status: res.status, playability,
  });
}

/**
 * A retired version is refused before anything else is looked at. The WEB client's stale version
 * only when the request names it twice, in X-YouTube-Client-Name and -Version (docs/crawler.md §4).
 */
function retired(ctx: FakeContext, req: FakeRequest, client: PlayerClient): boolean {
  if (!isRetired(client, ctx.scenarios.retired)) return false;
  return client.name !== 'WEB' || (req.headers['x-youtube-client-name'] !== undefined && req.headers['x-youtube-client-version'] !== undefined);
}

function playerAnswer(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const body = jsonBody(req);
  const named = clientOf(body);
  if (!named) return preconditionJson();
  const videoId = dig(body, 'videoId');
  if (typeof videoId !== 'string') return invalidArgumentJson();
  const s = ctx.scenarios;
  if (retired(ctx, req, named)) return preconditionJson();
  if (s.strict && impostor(ctx, req, named.name) !== null) return json(playerBotCheck(named, videoId));
  // The embedded player as the embedded web player asks: with the flags its embed page gave for this video.
  if (s.strict && named.name === 'WEB_EMBEDDED_PLAYER' && ctx.hostFlags.get(String(dig(body, 'playbackContext', 'contentPlaybackContext', 'encryptedHostFlags'))) !== videoId) {
    return json(playerBotCheck(named, videoId));
  }
  const trouble = s.troubleFor(named.name);
  const client: PlayerClient = trouble === 'xpv' ? { ...named, tokenExp: 'xpv' } : named;
  if (trouble === 'botCheck') return json(playerBotCheck(client, videoId));
  if (trouble === 'captchaViewModel' || s.take('captchaViewModel')) return json(playerCaptchaViewModel(client, videoId));
  if (trouble === 'unplayable') return json(playerUnplayable(client, videoId));
  if (trouble === 'reload') return json(playerReload(client, videoId));
  if (ctx.scenarios.refusingPlayers || ctx.scenarios.take('botCheck')) return json(playerBotCheck(client, videoId));
  if (ctx.scenarios.tryAgainLater || ctx.scenarios.take('rateLimitedPlayer')) return json(playerRateLimited(client, videoId));
  const hosted = VIDEO_ID_RE.test(videoId) ? ctx.catalog.video(videoId) : undefined;
  if (!hosted || hosted.video.captions === 'unavailable') return json(playerUnavailable(client, videoId));
  const { video, channel } = hosted;
  if (video.madeForKids && KIDS_REFUSED.has(client.name)) return json(playerMadeForKids(client, videoId, s.kidsStatus));
  if (video.embeddable === false && client.name === 'WEB_EMBEDDED_PLAYER') return json(playerNotEmbeddable(client, videoId));
  if (video.captions === 'age_restricted') return json(playerAgeCheck(video, channel, client));
  if (video.live === 'upcoming') return json(playerUpcoming(video, channel, client));
  if (trouble === 'poisoned' || ctx.scenarios.take('poison')) {
    // A poisoned answer is a whole answer for some other video.
    const other = channel.videos.find((v) => v.videoId !== videoId && v.captions !== 'unavailable' && v.captions !== 'age_restricted');
    const shown = other ?? video;
    const tracks = ctx.catalog.tracks(shown);
    return json(playerOk(ctx.origin, shown, channel, tracks, client, other ? undefined : 'dQw4w9WgXcQ'));
  }
  // The TV client without a guest session (no visitorData) answered with no caption tracks at all
  // in a September 2026 report.
  const guest = typeof dig(body, 'context', 'client', 'visitorData') === 'string';
  const tracks = client.name === 'TVHTML5' && !guest ? [] : ctx.catalog.tracks(video);
  const ok = playerOk(ctx.origin, video, channel, tracks, client) as object;
  // Only the web clients' answers carry the microformat with the publish date; the apps' do not.
  return json(isAppClient(client.name) ? ok : { ...ok, microformat: playerMicroformat(video, channel) });
}
