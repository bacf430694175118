// The channel's own Atom feed (docs/crawler.md §2): the 15 newest uploads with exact publish dates, in
// one request. Its failures (404/500 outages for valid channels) mean "use browse", never "empty".

import { feedText, node, readAtomFeed } from './atom-feed';
import { ENDPOINTS, readText } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { PlatformError, type ListedVideo } from './types';

export const FEED_SIZE = 15;

export interface ChannelFeed {
  title: string | null;
  videos: ListedVideo[];
  /** Entries whose id is not a video id (docs/crawler.md §2): left out, for the caller to log. */
  dropped: string[];
}

/** The feed links a Short as https://www.youtube.com/shorts/<id> (docs/crawler.md §2). */
function isShortLink(links: unknown): boolean {
  return (Array.isArray(links) ? links : []).some((l) => {
    const href = node(l)['@_href'];
    return typeof href === 'string' && /^https?:\/\/[^/]+\/shorts\//.test(href);
  });
}

export function parseChannelFeed(xml: string): ChannelFeed {
  const { feed, videos, dropped } = readAtomFeed(xml, 'channel feed', (e) => (isShortLink(e.link) ? { short: true } : {}));
  return { title: feedText(feed.title), videos, dropped };
}

/** The feed, or the reason to list through browse instead (ENDPOINTS.channelFeed); refusals are thrown. */
export async function fetchChannelFeed(http: PlatformHttp, channelId: string): Promise<ChannelFeed | { failed: string }> {
  const a = await http.send({
    method: 'GET',
    target: `/feeds/videos.xml?channel_id=${encodeURIComponent(channelId)}`,
    kind: 'page',
    referer: `/channel/${channelId}`,
    what: 'channel feed',
  });
  const xml = readText(a, ENDPOINTS.channelFeed);
  if (xml.kind !== 'ok') return { failed: xml.kind === 'fallback' ? xml.reason : 'channel feed: no answer' };
  try {
    return parseChannelFeed(xml.value);
  } catch (err) {
    return { failed: err instanceof PlatformError ? err.reason : String(err) };
  }
}
