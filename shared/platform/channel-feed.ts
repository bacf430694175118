// The channel's own Atom feed (docs/crawler.md §2): the 15 newest uploads with exact publish dates, in
// one request. Its failures (404/500 outages for valid channels) mean "use browse", never "empty".

import { XMLParser } from 'fast-xml-parser';
import { isVideoId } from '../ids';
import { decodeXml } from '../transcript/entities';
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

/** The platform's Atom feeds (channel and playlist feeds share the shape): entities never expanded. */
export const feedXmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  trimValues: true,
  isArray: (name) => name === 'entry' || name === 'link',
});

export type FeedNode = Record<string, unknown>;
type Node = FeedNode;
export const node = (v: unknown): Node => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : {});
/** An element's text, XML-decoded (fast-xml-parser leaves entities alone: processEntities is off). */
export const feedText = (v: unknown): string | null => {
  if (typeof v === 'string') return decodeXml(v);
  const t = node(v)['#text'];
  return typeof t === 'string' ? decodeXml(t) : null;
};

/** The feed links a Short as https://www.youtube.com/shorts/<id> (docs/crawler.md §2). */
function isShortLink(links: unknown): boolean {
  return (Array.isArray(links) ? links : []).some((l) => {
    const href = node(l)['@_href'];
    return typeof href === 'string' && /^https?:\/\/[^/]+\/shorts\//.test(href);
  });
}

export function parseChannelFeed(xml: string): ChannelFeed {
  let doc: Node;
  try {
    doc = node(feedXmlParser.parse(xml, true));
  } catch (err) {
    throw new PlatformError('transient', 'channel feed: unparsable XML', { cause: err });
  }
  if (!('feed' in doc)) throw new PlatformError('transient', 'channel feed: not an Atom feed');
  const feed = node(doc.feed);
  const entries = Array.isArray(feed.entry) ? feed.entry : [];
  const videos: ListedVideo[] = [];
  const dropped: string[] = [];
  for (const e of entries.map(node)) {
    const videoId = feedText(e['yt:videoId']);
    if (!videoId || !isVideoId(videoId)) {
      dropped.push(String(videoId ?? '(none)').slice(0, 40));
      continue;
    }
    const published = feedText(e.published);
    const t = published ? Date.parse(published) : NaN;
    videos.push({
      videoId,
      title: feedText(e.title) ?? feedText(node(e['media:group'])['media:title']) ?? '',
      publishedAt: Number.isNaN(t) ? null : new Date(t),
      ...(isShortLink(e.link) ? { short: true } : {}),
    });
  }
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
