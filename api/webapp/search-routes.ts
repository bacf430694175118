// The search page: the feed's query language over everything stored, newest first; a refused query
// gets the feed's refusal in words, never a 500. (Scopes and paging: next step.)

import { h } from 'preact';
import type { RequestHandler } from 'express';
import { errorBody } from '../errors';
import { parseSearchText } from '../query/search-query';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { searchForm, searchResults } from './search-page';

export function searchRoute(kit: AppKit): RequestHandler {
  const { store } = kit.deps;
  return kit.reading(async (req, res, signed) => {
    const q = typeof req.query.q === 'string' ? req.query.q : '';
    const ctx = kit.context(req, signed);
    const title = ctx.words.search;
    if (q.trim() === '') return kit.send(res, 200, renderPage(ctx, title, searchForm(ctx.words, '')));
    const parsed = parseSearchText(q);
    if (!parsed.ok) return kit.send(res, 400, renderPage(ctx, title, [searchForm(ctx.words, q), h('p', { class: 'error', role: 'alert' }, errorBody(parsed.error, parsed.context).error)]));
    const hits = await store.searchVideos(parsed.value, { channelIds: null, kinds: ['regular', 'live'] }, 20, { budgetMs: 5000 });
    const feedUrl = `/search?${new URLSearchParams({ q }).toString()}`;
    kit.send(res, 200, renderPage(ctx, title, [searchForm(ctx.words, q), searchResults(ctx.words, ctx.locale, parsed.value, hits, feedUrl)]));
  });
}
