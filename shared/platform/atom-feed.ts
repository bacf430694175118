// The platform's Atom feeds, a channel's (docs/crawler.md §2) and a playlist's (§2b): one shape, one
// reader. The parser never expands entities; each text is XML-decoded once, here. An entry whose id
// is not a video id is left out and named in `dropped`, for the caller to log.

import { XMLParser } from 'fast-xml-parser';
import { isVideoId } from '../ids';
import { decodeXml } from '../transcript/entities';
import { PlatformError, type ListedVideo } from './types';

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
export const node = (v: unknown): FeedNode => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as FeedNode) : {});
/** An element's text, XML-decoded (fast-xml-parser leaves entities alone: processEntities is off). */
export const feedText = (v: unknown): string | null => {
  if (typeof v === 'string') return decodeXml(v);
  const t = node(v)['#text'];
  return typeof t === 'string' ? decodeXml(t) : null;
};

export interface AtomFeed {
  /** The `feed` element, for what one kind of feed reads beyond its entries (title, author). */
  feed: FeedNode;
  videos: ListedVideo[];
  /** Entries whose id is not a video id (docs/crawler.md §2). */
  dropped: string[];
}

/**
 * The feed's entries as listed videos (id, title, exact publish date), each with what `more` reads
 * from its entry beyond those. `what` names the feed in a failure.
 */
export function readAtomFeed(xml: string, what: string, more: (entry: FeedNode) => Partial<ListedVideo>): AtomFeed {
  let doc: FeedNode;
  try {
    doc = node(feedXmlParser.parse(xml, true));
  } catch (err) {
    throw new PlatformError('transient', `${what}: unparsable XML`, { cause: err });
  }
  if (!('feed' in doc)) throw new PlatformError('transient', `${what}: not an Atom feed`);
  const feed = node(doc.feed);
  const videos: ListedVideo[] = [];
  const dropped: string[] = [];
  for (const e of (Array.isArray(feed.entry) ? feed.entry : []).map(node)) {
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
      ...more(e),
    });
  }
  return { feed, videos, dropped };
}
