// The exact publish time of one video from its watch page (platform.md §2), for videos that browse
// listed with a relative date only. Costs one request; only used where the feed did not know.

import { ENDPOINTS, readText } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { asString, dig, extractPageJson } from './page-data';

export const watchPath = (videoId: string): string => `/watch?v=${encodeURIComponent(videoId)}`;

/** The date the page states, or null when it states none. */
export function publishedAtFromWatchPage(html: string): Date | null {
  const meta = /<meta[^>]+itemprop=["']datePublished["'][^>]*content=["']([^"']+)["']|<meta[^>]+content=["']([^"']+)["'][^>]*itemprop=["']datePublished["']/i.exec(html);
  const fromMeta = meta ? (meta[1] ?? meta[2]) : undefined;
  const fromPlayer = fromMeta ? null : asString(dig(extractPageJson(html, 'ytInitialPlayerResponse'), 'microformat', 'playerMicroformatRenderer', 'publishDate'));
  const raw = fromMeta ?? fromPlayer;
  if (!raw) return null;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : new Date(t);
}

export async function fetchPublishedAt(http: PlatformHttp, videoId: string): Promise<Date | null> {
  const a = await http.send({ method: 'GET', target: watchPath(videoId), kind: 'page', what: 'watch page' });
  const page = readText(a, ENDPOINTS.watchPage);
  return page.kind === 'ok' ? publishedAtFromWatchPage(page.value) : null;
}
