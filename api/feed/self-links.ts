// The links a feed carries: its own URL for link rel="self", rebuilt from the validated query, and
// each entry's transcript file with the reader's api_key where the reader put it in the URL.

import type { IncomingMessage } from 'node:http';
import type { FeedKind } from '../../shared/store/types';
import { normalizeHandle } from '../../shared/channel-ref';
import type { FeedOptions, FeedQuery, RawQuery } from '../query/feed-query';
import { originOf, type OriginDeps } from '../http/origin';
import { INCLUDE_NAMES, RENDERERS } from './renderers';

/**
 * This request's own URL for link rel="self", rebuilt from the validated query: only the spec's
 * parameters, in one order and spelling. api_key and unknown parameters never reach it, so they
 * can neither leak into the body nor make a new ETag that misses the render cache (spec: unknown
 * parameters are ignored). The address is PUBLIC_BASE_URL when set; else scheme and host follow
 * X-Forwarded-Proto/Host only when TRUST_PROXY trusts the peer, exactly as Express's req.protocol
 * and req.host do.
 */
export function selfUrlOf(req: IncomingMessage, q: FeedQuery, raw: RawQuery, deps: OriginDeps): string {
  return `${originOf(req, deps)}/?${selfQuery(q, raw)}`;
}
/**
 * The api_key a feed's links to transcript files carry: the one the reader put in the feed's URL,
 * so a podcast app fetches the file as it is. None when the key came in the X-API-Key header
 * (which wins over the parameter): that client sends its header with the file request too.
 */
export function linkKeyOf(req: IncomingMessage, raw: RawQuery): string {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return '';
  return typeof raw.api_key === 'string' ? raw.api_key : '';
}

/** A video's WebVTT file as the feed links it: the feed's `lang` and the reader's api_key kept. */
export function transcriptFileUrl(origin: string, languages: readonly string[] | null, linkKey: string): (videoId: string) => string {
  const params = new URLSearchParams();
  if (languages !== null) params.set('lang', languages.join(','));
  if (linkKey !== '') params.set('api_key', linkKey);
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return (videoId) => `${origin}/transcripts/${encodeURIComponent(videoId)}.vtt${query}`;
}
/** The self link's query: the validated spec parameters in one order and spelling. */
function selfQuery(q: FeedQuery, raw: RawQuery): string {
  return [q.channel.kind === 'id' ? `channel_id=${q.channel.channelId}` : `channel=${normalizeHandle(q.channel.handle)}`, ...feedQueryTail(q, raw)].join('&');
}

/** The self link's parameters after the channel or playlist, each only when the request gave it. */
export function feedQueryTail(q: FeedOptions, raw: RawQuery): string[] {
  const params: string[] = [];
  if (typeof raw.format === 'string' && raw.format !== '') params.push(`format=${RENDERERS[q.format].name}`);
  if (typeof raw.max_items === 'string' && raw.max_items !== '') params.push(`max_items=${q.maxItems}`);
  const included = Object.entries(INCLUDE_NAMES).filter(([kind]) => q.kinds.includes(kind as FeedKind)).map(([, name]) => name);
  if (included.length > 0) params.push(`include=${included.join(',')}`);
  // Each language list is its own feed: its own self link, so its own ETag and render-cache entry.
  if (q.languages !== null) params.push(`lang=${q.languages.join(',')}`);
  if (q.summary !== 'off') params.push(`summary=${q.summary === 'on' ? '1' : 'only'}`);
  return params;
}
