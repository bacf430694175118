// The HTML pages: the handle page and /channel/<id> (ytInitialData with the channel's metadata,
// canonical link), and the watch page (datePublished, ytInitialPlayerResponse with the WEB client's
// `exp=xpe` caption tracks, INNERTUBE_API_KEY). Unknown handles and channels get Google's 404 page.

import type { FakeChannelSpec, FakeVideoSpec } from './types';
import type { FakeContext } from './context';
import { channelBrowse, channelUrl, WEB_VERSION } from './channel-json';
import { lengthOf, generateCues } from './cues';
import { errorPage } from './errors';
import { escapeXml, html, scriptJson, type FakeRequest, type FakeResponse } from './http';
import { playerAgeRestricted, playerBotCheck, playerOk, playerUnavailable, type PlayerClient } from './player-json';
import { trackingParams, viewCount } from './texts';

export const INNERTUBE_API_KEY = 'AIzaSyFakePlatform_0123456789abcdefghij';
const WEB: PlayerClient = { name: 'WEB', version: WEB_VERSION };

function ytcfg(): string {
  return scriptJson({
    INNERTUBE_API_KEY,
    INNERTUBE_API_VERSION: 'v1',
    INNERTUBE_CLIENT_NAME: 'WEB',
    INNERTUBE_CLIENT_VERSION: WEB_VERSION,
    INNERTUBE_CONTEXT: { client: { hl: 'en', gl: 'US', clientName: 'WEB', clientVersion: WEB_VERSION } },
    INNERTUBE_CONTEXT_CLIENT_NAME: 1,
    INNERTUBE_CONTEXT_CLIENT_VERSION: WEB_VERSION,
  });
}

function page(title: string, head: string, body: string): FakeResponse {
  return html(
    `<!DOCTYPE html><html style="font-size: 10px;font-family: Roboto, Arial, sans-serif;" lang="en" system-icons typography>` +
      `<head><meta http-equiv="origin-trial" content=""><title>${escapeXml(title)}</title>` +
      `<script nonce="fakeNonce">ytcfg.set(${ytcfg()});</script>${head}</head>` +
      `<body dir="ltr"><div id="content">${body}</div></body></html>`,
  );
}

function channelPage(channel: FakeChannelSpec): FakeResponse {
  const url = channelUrl(channel);
  const data = channelBrowse(channel, 'Home', { sectionListRenderer: { contents: [], trackingParams: trackingParams('home') } });
  return page(
    `${channel.title} - YouTube`,
    `<link rel="canonical" href="${url}"><meta property="og:title" content="${escapeXml(channel.title)}">` +
      `<meta property="og:url" content="${url}"><link rel="alternate" type="application/rss+xml" title="RSS" ` +
      `href="https://www.youtube.com/feeds/videos.xml?channel_id=${channel.channelId}">`,
    `<script nonce="fakeNonce">var ytInitialData = ${scriptJson(data)};</script>`,
  );
}

/** GET /@handle (and /@handle/videos …). */
export function handlePageRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const handle = decodeURIComponent(/^\/@([^/]+)/.exec(req.path)?.[1] ?? '');
  const channel = ctx.catalog.channelByHandle(handle);
  return channel ? channelPage(channel) : errorPage(404);
}

/** GET /channel/UC… (and /channel/UC…/videos …). */
export function channelPageRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const channel = ctx.catalog.channel(/^\/channel\/([^/]+)/.exec(req.path)?.[1] ?? '');
  return channel ? channelPage(channel) : errorPage(404);
}

/** `2018-08-02T06:00:08-07:00`: watch pages state dates in the platform's Pacific time. */
export function pacificIso(date: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = get('timeZoneName').replace('GMT', '') || '+00:00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}${offset}`;
}

function microformat(video: FakeVideoSpec, channel: FakeChannelSpec, seconds: number): unknown {
  const published = pacificIso(video.publishedAt);
  return {
    playerMicroformatRenderer: {
      thumbnail: { thumbnails: [{ url: `https://i.ytimg.com/vi/${video.videoId}/maxresdefault.jpg`, width: 1280, height: 720 }] },
      title: { simpleText: video.title },
      description: { simpleText: video.title },
      lengthSeconds: String(seconds),
      ownerProfileUrl: `http://www.youtube.com/@${channel.handle}`,
      externalChannelId: channel.channelId,
      isFamilySafe: video.captions !== 'age_restricted',
      availableCountries: ['US', 'DE', 'GB'],
      isUnlisted: false,
      hasYpcMetadata: false,
      viewCount: String(viewCount(video.videoId)),
      category: 'Education',
      publishDate: published,
      ownerChannelName: channel.title,
      uploadDate: published,
      isShortsEligible: video.short === true,
    },
  };
}

/** The microformat of a WEB player answer (the field-masked date call reads its publishDate). */
export function playerMicroformat(video: FakeVideoSpec, channel: FakeChannelSpec): unknown {
  return microformat(video, channel, lengthOf(video.cues ?? generateCues(video.videoId, video.language)));
}

/** The WEB client's player answer as the watch page embeds it. */
function webPlayerResponse(ctx: FakeContext, video: FakeVideoSpec, channel: FakeChannelSpec, seconds: number): unknown {
  // The bot check lives in the player answer, also the one the page embeds: the HTML shows no captcha.
  if (ctx.scenarios.refusingPlayers) return playerBotCheck(WEB, video.videoId);
  if (video.captions === 'age_restricted') {
    return { ...(playerAgeRestricted(video, channel, WEB) as object), microformat: microformat(video, channel, seconds) };
  }
  // WEB tracks carry `exp=xpe`: listed, but refused without a token.
  const answer = playerOk(ctx.origin, video, channel, ctx.catalog.tracks(video), WEB) as object;
  return { ...answer, microformat: microformat(video, channel, seconds) };
}

/** GET /watch?v=…: always 200; an unknown or removed video says so in its player response. */
export function watchRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const videoId = req.query.get('v') ?? '';
  const hosted = ctx.catalog.video(videoId);
  if (!hosted || hosted.video.captions === 'unavailable') {
    return page(
      ' - YouTube',
      '',
      `<script nonce="fakeNonce">var ytInitialPlayerResponse = ${scriptJson(playerUnavailable(WEB, videoId))};</script>`,
    );
  }
  const { video, channel } = hosted;
  const seconds = lengthOf(video.cues ?? generateCues(video.videoId, video.language));
  const published = pacificIso(video.publishedAt);
  const watchUrl = `https://www.youtube.com/watch?v=${video.videoId}`;
  return page(
    `${video.title} - YouTube`,
    `<meta name="title" content="${escapeXml(video.title)}"><link rel="canonical" href="${watchUrl}">` +
      `<meta property="og:title" content="${escapeXml(video.title)}"><meta property="og:url" content="${watchUrl}">`,
    `<div id="watch7-content" class="watch-main-col" itemscope itemid="" itemtype="http://schema.org/VideoObject">` +
      `<link itemprop="url" href="${watchUrl}"><meta itemprop="name" content="${escapeXml(video.title)}">` +
      `<meta itemprop="duration" content="PT${Math.floor(seconds / 60)}M${seconds % 60}S">` +
      `<meta itemprop="uploadDate" content="${published}"><meta itemprop="datePublished" content="${published}">` +
      `<meta itemprop="genre" content="Education"></div>` +
      `<script nonce="fakeNonce">var ytInitialPlayerResponse = ${scriptJson(webPlayerResponse(ctx, video, channel, seconds))};` +
      `var meta = document.createElement('meta');</script>` +
      `<script nonce="fakeNonce">var ytInitialData = ${scriptJson({ responseContext: {}, contents: {} })};</script>`,
  );
}
