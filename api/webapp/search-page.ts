// The search page's body: the form (GET, so a search is a link to share) with its scope, then each
// hit's title, channel, date and its matching paragraphs with the hits in <mark>, each linking to
// the transcript page at that second; a `Next page` link. The marks are elements built from the
// highlight spans, the text between them children: escaped by construction like everything else.

import { h, type ComponentChildren } from 'preact';
import { highlightsIn } from '../../shared/search/match';
import type { SearchHit, SearchQuery } from '../../shared/store/types';
import type { ErrorBody } from '../error-shapes';
import type { Locale, Words } from './i18n';
import { clock, dateOf } from './reading-pages';

/** Hits on one page. */
export const PAGE_SIZE = 20;

/** Paragraphs shown per hit: enough to see why it matched, few enough to scan a page of hits. */
const PARAGRAPHS_PER_HIT = 3;

/** The last hit of the previous page: the next one starts after it. */
export interface Cursor {
  readonly publishedMs: number;
  readonly videoId: string;
}

export interface SearchFormModel {
  readonly q: string;
  readonly subscriptions: boolean;
  /** Channels the search was limited to (channel_id, channel, channel_url), resolved. */
  readonly channels: readonly { readonly id: string; readonly title: string }[];
}

export interface SearchPageModel {
  readonly query: SearchQuery;
  readonly hits: readonly SearchHit[];
  readonly channelNames: ReadonlyMap<string, string>;
  /** GET /search with the same text and scope, without the key. */
  readonly feedUrl: string;
  /** The next page's URL, or null on the last. */
  readonly next: string | null;
  readonly page: number;
}

export function searchForm(w: Words, f: SearchFormModel): ComponentChildren {
  return h('form', { method: 'get', action: '/app/search', role: 'search' },
    h('label', { for: 'q' }, w.searchLabel),
    h('input', { id: 'q', name: 'q', type: 'search', value: f.q, required: true }),
    h('label', { for: 'scope' }, w.searchIn),
    h('select', { id: 'scope', name: 'subscriptions' },
      h('option', { value: '', selected: !f.subscriptions }, w.everything),
      h('option', { value: '1', selected: f.subscriptions }, w.followedChannels)),
    f.channels.map((c) => h('div', { key: c.id },
      h('input', { id: `channel-${c.id}`, name: 'channel_id', type: 'checkbox', value: c.id, checked: true }),
      h('label', { for: `channel-${c.id}` }, w.onlyChannel(c.title)))),
    h('div', null, h('button', { type: 'submit' }, w.search)));
}

/** A refusal as GET /search words it (its `error`, and its `message` when it has one). */
export function refusal(body: ErrorBody): ComponentChildren {
  return h('div', { class: 'error', role: 'alert' }, h('p', null, body.error), body.message === undefined ? null : h('p', null, body.message));
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

/**
 * The first PARAGRAPHS_PER_HIT paragraphs holding a hit, in order: the scan stops there, since
 * finding the hits folds each paragraph's text, and a common word is in nearly every paragraph of
 * a long transcript.
 */
function firstMatching<P extends { text: string }>(query: SearchQuery, paragraphs: readonly P[]): P[] {
  const out: P[] = [];
  for (const p of paragraphs) {
    if (out.length === PARAGRAPHS_PER_HIT) break;
    if (highlightsIn(query, p.text).length > 0) out.push(p);
  }
  return out;
}

export function searchResults(w: Words, locale: Locale, m: SearchPageModel): ComponentChildren {
  const { query } = m;
  return [
    h('p', null, h('a', { href: m.feedUrl }, w.searchFeed)),
    m.hits.length === 0 ? h('p', { role: 'status' }, m.page > 1 ? w.noMoreHits : w.noHits) : h('ol', { start: (m.page - 1) * PAGE_SIZE + 1 }, m.hits.map(({ video, transcripts }) => {
      const paragraphs = firstMatching(query, transcripts.flatMap((t) => t.paragraphs));
      const page = `/app/videos/${encodeURIComponent(video.videoId)}`;
      return h('li', { key: video.videoId },
        h('h2', null, h('a', { href: page }, marked(query, video.title))),
        h('p', { class: 'muted' },
          h('a', { href: `/app/channels/${encodeURIComponent(video.channelId)}` }, m.channelNames.get(video.channelId) ?? video.channelId),
          ' · ',
          h('time', { dateTime: video.publishedAt.toISOString() }, dateOf(video.publishedAt, locale))),
        paragraphs.map((p) => h('p', { key: p.startMs },
          h('a', { href: `${page}#t=${Math.floor(p.startMs / 1000)}` }, clock(p.startMs / 1000)), ' ', marked(query, p.text))));
    })),
    m.next === null ? null : h('nav', { 'aria-label': w.pages }, h('a', { href: m.next, rel: 'next' }, w.nextPage)),
  ];
}
