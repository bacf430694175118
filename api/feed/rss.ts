// RSS 2.0 exactly as the spec's table (content:encoded as CDATA), plus what validators and readers
// require beyond it (description, language, guid isPermaLink="false", atom:link rel="self").

import { xmlBuilder, XML_DECLARATION } from './xml-builder';
import { rssDate } from './dates';
import { cdataPieces, xmlSafe } from './xml-text';
import type { FeedModel } from './model';

export const RSS_CONTENT_TYPE = 'application/rss+xml';

export function renderRss(feed: FeedModel): string {
  const doc = {
    rss: {
      '@_version': '2.0',
      '@_xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      '@_xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: xmlSafe(feed.title),
        link: feed.link,
        description: xmlSafe(`Transcripts of the newest videos of ${feed.author}`),
        language: 'en',
        lastBuildDate: rssDate(feed.updated),
        'atom:link': { '@_href': xmlSafe(feed.selfUrl), '@_rel': 'self', '@_type': RSS_CONTENT_TYPE },
        item: feed.entries.map((e) => ({
          title: xmlSafe(e.title),
          'content:encoded': { __cdata: cdataPieces(xmlSafe(e.html)) },
          link: e.link,
          pubDate: rssDate(e.published),
          guid: { '@_isPermaLink': 'false', '#text': e.videoId },
        })),
      },
    },
  };
  return XML_DECLARATION + xmlBuilder.build(doc);
}
