// A key's subscriptions as OPML 2.0, written for what the readers' importers need: newsboat's
// `-i` (outlines with xmlUrl, nested or not), Miniflux (body>outline with a non-empty xmlUrl, title
// from `title` then `text`) and NetNewsWire (xmlUrl, `title`/`text`). One flat list under <body>,
// every outline `type="rss"` with text = title. fast-xml-parser's builder does all escaping and
// drops what no text may show (shownText, as its value processors).

import { XMLBuilder } from 'fast-xml-parser';
import { shownValue } from '../../shared/transcript/shown-text';
import { rssDate } from '../feed/render';
import { SERVICE_NAME } from '../service-info';

export const OPML_CONTENT_TYPE = 'text/x-opml; charset=utf-8';

export interface OpmlOutline {
  title: string;
  xmlUrl: string;
  htmlUrl: string;
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: true,
  suppressEmptyNode: true,
  format: true,
  indentBy: '  ',
  tagValueProcessor: shownValue,
  attributeValueProcessor: shownValue,
});

export function renderOpml(outlines: readonly OpmlOutline[], created: Date): string {
  const doc = {
    opml: {
      '@_version': '2.0',
      head: { title: `${SERVICE_NAME} subscriptions`, dateCreated: rssDate(created) },
      body: {
        outline: outlines.map((o) => ({ '@_type': 'rss', '@_text': o.title, '@_title': o.title, '@_xmlUrl': o.xmlUrl, '@_htmlUrl': o.htmlUrl })),
      },
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc)}`;
}
