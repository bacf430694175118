// Handle → channel id (docs/crawler.md §1): InnerTube resolve_url first (one small JSON request), the
// handle page as the fallback when resolve_url misbehaves. An unknown handle is null, not an error.
// A block is thrown: the handle page would be blocked too, and the caller decides what to do.

import { parseHandle } from '../channel-ref';
import { CHANNEL_ID } from '../ids';
import { ENDPOINTS, readJson, readText } from './endpoint-rules';
import { PLATFORM_HOSTS, type PlatformHttp } from './http-client';
import { WEB_IDENTITY, innertubeRequest } from './innertube';
import { findStartTag } from './html-tags';
import { asString, dig, extractPageJson } from './page-data';
import { PlatformError } from './types';

/** The id in a `…/channel/UC…` URL (a handle URL can look like an id, so the path must say channel). */
const channelIdInUrl = (v: unknown): string | null => {
  const m = /\/channel\/(UC[A-Za-z0-9_-]{22})(?![A-Za-z0-9_-])/.exec(asString(v) ?? '');
  return m ? m[1]! : null;
};

export async function resolveHandle(http: PlatformHttp, rawHandle: string): Promise<string | null> {
  // The same rule the API validated the request with: nothing else is ever put into a platform URL.
  const ref = parseHandle(rawHandle);
  if (ref?.kind !== 'handle') return null;
  const { handle } = ref;
  const viaApi = await resolveViaInnertube(http, handle);
  if (viaApi !== undefined) return viaApi;
  return resolveViaHandlePage(http, handle);
}

/** NewPipe follows this many `urlEndpoint` redirects of resolve_url before giving up (docs/crawler.md §1). */
export const MAX_RESOLVE_REDIRECTS = 3;

/** What one resolve_url answer says: a channel id, a platform URL to resolve instead, or neither. */
export function readResolveAnswer(json: unknown): { channelId: string } | { follow: string } | null {
  const pageType = asString(dig(json, 'endpoint', 'commandMetadata', 'webCommandMetadata', 'webPageType'));
  const browseId = asString(dig(json, 'endpoint', 'browseEndpoint', 'browseId'));
  const browsable = pageType === null || pageType === 'WEB_PAGE_TYPE_CHANNEL' || pageType === 'WEB_PAGE_TYPE_BROWSE';
  if (browseId !== null && CHANNEL_ID.test(browseId) && browsable) return { channelId: browseId };
  const next = platformUrl(asString(dig(json, 'endpoint', 'urlEndpoint', 'url')));
  return next !== null && (pageType === null || pageType === 'WEB_PAGE_TYPE_UNKNOWN') ? { follow: next } : null;
}

/**
 * A redirect target is only ever passed back to resolve_url as its `url` (never fetched), and only
 * when it is a path on the platform's own host.
 */
function platformUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let u: URL;
  try {
    u = new URL(raw, 'https://www.youtube.com');
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  if (!PLATFORM_HOSTS.has(u.hostname)) return null;
  return `https://www.youtube.com${u.pathname}${u.search}`;
}

/** The id, null for an unknown handle, or undefined when resolve_url gave no usable answer. */
async function resolveViaInnertube(http: PlatformHttp, handle: string): Promise<string | null | undefined> {
  let url = `https://www.youtube.com/@${handle}`;
  const seen = new Set([url]);
  for (let hop = 0; hop <= MAX_RESOLVE_REDIRECTS; hop++) {
    const a = await innertubeRequest(http, { endpoint: 'navigation/resolve_url', identity: WEB_IDENTITY, body: { url }, what: 'resolve_url' });
    const r = readJson(a, ENDPOINTS.resolveUrl);
    if (r.kind === 'absent') return null;
    if (r.kind === 'fallback') return undefined;
    const said = readResolveAnswer(r.value);
    if (said === null) return undefined;
    if ('channelId' in said) return said.channelId;
    if (seen.has(said.follow)) return undefined;
    seen.add(said.follow);
    url = said.follow;
  }
  return undefined;
}

async function resolveViaHandlePage(http: PlatformHttp, handle: string): Promise<string | null> {
  const a = await http.send({ method: 'GET', target: `/@${encodeURIComponent(handle)}`, kind: 'page', what: 'handle page' });
  const page = readText(a, ENDPOINTS.handlePage);
  if (page.kind !== 'ok') return null;
  const id = channelIdFromPage(page.value);
  if (id === null) throw new PlatformError('transient', 'handle page: no channel id in the page');
  return id;
}

export const CANONICAL_REL = /\srel=["']canonical["']/i;
export const LINK_HREF = /\shref=["']([^"']+)["']/i;

/** The channel id a channel page states: ytInitialData first, then the canonical link. */
export function channelIdFromPage(html: string): string | null {
  const data = extractPageJson(html, 'ytInitialData');
  const external = asString(dig(data, 'metadata', 'channelMetadataRenderer', 'externalId'));
  if (external !== null && CHANNEL_ID.test(external)) return external;
  const canonical = channelIdInUrl(dig(data, 'microformat', 'microformatDataRenderer', 'urlCanonical'));
  if (canonical !== null) return canonical;
  const link = findStartTag(html, 'link', CANONICAL_REL);
  const fromLink = link === null ? null : channelIdInUrl(LINK_HREF.exec(link)?.[1]);
  if (fromLink !== null) return fromLink;
  return /"externalId"\s*:\s*"(UC[A-Za-z0-9_-]{22})"/.exec(html)?.[1] ?? null;
}
