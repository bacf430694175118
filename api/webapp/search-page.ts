// The search page's body: the form (GET, so a search is a link to share), then each hit's title,
// date and its matching paragraphs with the hits in <mark>, each linking to the transcript page at
// that second. The marks are elements built from the highlight spans, the text between them
// children: escaped by construction like everything else.

import { h, type ComponentChildren } from 'preact';
import { highlightsIn } from '../../shared/search/match';
import type { SearchHit, SearchQuery } from '../../shared/store/types';
import type { Locale, Words } from './i18n';
import { clock } from './reading-pages';

/** Paragraphs shown per hit: enough to see why it matched, few enough to scan a page of hits. */
const PARAGRAPHS_PER_HIT = 3;

export function searchForm(w: Words, q: string): ComponentChildren {
  return h('form', { method: 'get', action: '/app/search', role: 'search' },
    h('label', { for: 'q' }, w.searchLabel),
    h('input', { id: 'q', name: 'q', type: 'search', value: q, required: true }),
    h('div', null, h('button', { type: 'submit' }, w.search)));
}

function marked(query: SearchQuery, text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const span of highlightsIn(query, text)) {
    if (span.start > at) out.push(text.slice(at, span.start));
    out.push(h('mark', null, text.slice(span.start, span.end)));
    at = span.end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function searchResults(w: Words, locale: Locale, query: SearchQuery, hits: readonly SearchHit[], feedUrl: string): ComponentChildren {
  return [
    h('p', null, h('a', { href: feedUrl }, w.searchFeed)),
    hits.length === 0 ? h('p', { role: 'status' }, w.noHits) : h('ol', null, hits.map(({ video, transcripts }) => {
      const paragraphs = transcripts.flatMap((t) => t.paragraphs).filter((p) => highlightsIn(query, p.text).length > 0).slice(0, PARAGRAPHS_PER_HIT);
      const page = `/app/videos/${encodeURIComponent(video.videoId)}`;
      return h('li', { key: video.videoId },
        h('h2', null, h('a', { href: page }, marked(query, video.title))),
        h('p', { class: 'muted' }, h('time', { dateTime: video.publishedAt.toISOString() }, video.publishedAt.toLocaleDateString(locale === 'tr' ? 'tr-TR' : 'en-GB', { timeZone: 'UTC' }))),
        paragraphs.map((p) => h('p', { key: p.startMs },
          h('a', { href: `${page}#t=${Math.floor(p.startMs / 1000)}` }, clock(p.startMs / 1000)), ' ', marked(query, p.text))));
    })),
  ];
}
