// Atom 1.0 exactly as the spec's table, plus what validators and readers require beyond it
// (feed author/name, entry updated, link rel="self"). fast-xml-parser's builder does all escaping.

import { xmlBuilder, XML_DECLARATION } from './xml-builder';
import { atomDate } from './dates';
import { xmlSafe } from './xml-text';
import type { FeedModel } from './model';

export const ATOM_CONTENT_TYPE = 'application/atom+xml';

export function renderAtom(feed: FeedModel): string {
  const doc = {
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      '@_xml:lang': 'en',
      id: feed.channelId,
      title: xmlSafe(feed.title),
      updated: atomDate(feed.updated),
      link: [{ '@_href': feed.link }, { '@_rel': 'self', '@_type': ATOM_CONTENT_TYPE, '@_href': xmlSafe(feed.selfUrl) }],
      author: { name: xmlSafe(feed.author) },
      entry: feed.entries.map((e) => ({
        id: e.videoId,
        title: xmlSafe(e.title),
        content: { '@_type': 'html', '#text': xmlSafe(e.html) },
        link: { '@_href': e.link },
        published: atomDate(e.published),
        updated: atomDate(e.updated),
      })),
    },
  };
  return XML_DECLARATION + xmlBuilder.build(doc);
}
