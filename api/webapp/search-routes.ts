// The search page: GET /search's query language and scopes (everything, named channels,
// `subscriptions=1`), validated by the same function (api/query/search-query.ts) and scoped by the
// same one (api/routes/search.ts searchScopeOf), so a query the feed refuses is refused here with
// the feed's words and status, never a 500. Newest first, a page at a time: the store searches
// "the newest N", so a page asks for as many as it needs to reach past the previous page's last
// hit and keeps those after it (a cursor: newer videos stored meanwhile neither repeat nor shift
// what follows).

import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import { SearchBudgetExceeded, SearchDeadline } from '../../shared/search/budget';
import type { PlatformClient } from '../../shared/platform/types';
import type { SearchHit } from '../../shared/store/types';
import { ApiError, errorBody, toApiError, type ErrorContext, type ErrorName } from '../errors';
import { validateSearchQuery } from '../query/search-query';
import { ChannelResolver, type HandleLookupLimits } from '../resolve-channel';
import { SEARCH_RESULT_TTL_MS } from '../search/search-results';
import { scopeToken } from '../search/search-version';
import { DEFAULT_SEARCH_BUDGET_MS, searchScopeOf } from '../routes/search';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { PAGE_SIZE, refusal, searchForm, searchResults, type Cursor, type SearchPageModel } from './search-page';

/** The deepest a search pages: past it the page says there is more but asks for a narrower query. */
export const MAX_DEPTH = 1000;

/** Search pages whose hits are remembered (a page of 20 hits with their paragraphs, tens of KB). */
const REMEMBERED_PAGES = 200;

/** GET /search's parameters the page takes; the app's own `lang` is its language switch, not search's. */
const SEARCH_PARAMS = ['q', 'subscriptions', 'channel_id', 'channel', 'channel_url'] as const;

export interface SearchPageDeps {
  platform: Pick<PlatformClient, 'resolveHandle'>;
  handleLookups?: HandleLookupLimits;
  budgetMs?: number;
}

/** `before=<published ms>.<video id>`: the last hit of the previous page. */
function cursorOf(raw: unknown): Cursor | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{11})$/.exec(raw);
  return m === null ? null : { publishedMs: Number(m[1]), videoId: m[2]! };
}

/** Whether a hit comes after the cursor in newest-first, then video id, order (the store's). */
const after = (h: SearchHit, c: Cursor): boolean => {
  const ms = h.video.publishedAt.getTime();
  return ms < c.publishedMs || (ms === c.publishedMs && h.video.videoId > c.videoId);
};

/** One page of hits after `cursor`, and whether more follow. */
async function pageAfter(search: (limit: number) => Promise<SearchHit[]>, cursor: Cursor | null, page: number): Promise<{ hits: SearchHit[]; more: boolean }> {
  let limit = Math.min(MAX_DEPTH, page * PAGE_SIZE + 1);
  for (;;) {
    const all = await search(limit);
    const rest = cursor === null ? all : all.filter((h) => after(h, cursor));
    // Enough to fill the page and see a next one, or the store has no more, or the depth is reached.
    if (rest.length > PAGE_SIZE || all.length < limit || limit >= MAX_DEPTH) return { hits: rest.slice(0, PAGE_SIZE), more: rest.length > PAGE_SIZE };
    limit = Math.min(MAX_DEPTH, limit * 2);
  }
}

const queryParams = (req: Request): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const name of SEARCH_PARAMS) if (req.query[name] !== undefined) out[name] = req.query[name];
  return out;
};

export function searchRoute(kit: AppKit, deps: SearchPageDeps): RequestHandler {
  const { store } = kit.deps;
  const resolver = new ChannelResolver(store, deps.platform, deps.handleLookups);
  const budgetMs = deps.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
  // Its own small LRU, not the app's byte-counted cache: hits are objects (their matching
  // paragraphs), which that cache counts as small entries.
  const pages = new LRUCache<string, { token: string; at: number; hits: SearchHit[]; more: boolean }>({ max: REMEMBERED_PAGES });

  return kit.reading(async (req, res, signed) => {
    const ctx = kit.context(req, signed);
    const w = ctx.words;
    const raw = queryParams(req);
    const q = typeof raw.q === 'string' ? raw.q : '';
    const subscriptions = raw.subscriptions === '1';
    const refuse = (name: ErrorName, context: ErrorContext = {}, status = new ApiError(name, context).status): void =>
      kit.send(res, status, renderPage(ctx, w.search, [searchForm(w, { q, subscriptions, channels: [] }), refusal(errorBody(name, context))]));

    // No text yet (the bare page, or a scope chosen before typing): the form, not a refusal.
    if (q.trim() === '') return kit.send(res, 200, renderPage(ctx, w.search, searchForm(w, { q, subscriptions, channels: [] })));
    const checked = validateSearchQuery(raw);
    if (!checked.ok) return refuse(checked.error, checked.context);
    const s = checked.value;
    const now = kit.deps.clock();
    const deadline = new SearchDeadline(budgetMs);
    try {
      const named: string[] = [];
      for (const ref of s.channels) {
        const { channelId } = await resolver.resolve(ref, now, signed.key.keyId);
        if (!named.includes(channelId)) named.push(channelId);
      }
      const scope = await searchScopeOf(store, s, named, signed.key.keyId);
      const page = typeof req.query.page === 'string' && /^[1-9]\d{0,3}$/.test(req.query.page) ? Number(req.query.page) : 1;
      const cursor = page > 1 ? cursorOf(req.query.before) : null;
      // The hits of this page are remembered under the scope's version token (taken before the
      // search, as the search feed takes it): equal tokens mean nothing the search could match was
      // stored or followed since, so a warm page searches nothing; SEARCH_RESULT_TTL_MS bounds what
      // the token cannot see, as it does the feed's.
      const token = await scopeToken(store, { named, subscriptions: s.subscriptions, keyId: signed.key.keyId });
      const pageKey = [s.text, named.join(','), s.subscriptions ? signed.key.keyId : '', cursor === null ? '' : `${cursor.publishedMs}.${cursor.videoId}`, String(page)].join('\n');
      let found = pages.get(pageKey);
      if (found === undefined || found.token !== token || now.getTime() - found.at >= SEARCH_RESULT_TTL_MS || now.getTime() < found.at) {
        found = { token, at: now.getTime(), ...(await pageAfter((limit) => store.searchVideos(s.query, scope, limit, { budgetMs: deadline.remaining() }), cursor, cursor === null ? 1 : page)) };
        pages.set(pageKey, found);
      }
      const { hits, more } = found;
      const channelNames = new Map<string, string>();
      for (const id of new Set([...named, ...hits.map((h) => h.video.channelId)])) {
        const title = (await store.getChannel(id))?.title?.trim();
        if (title) channelNames.set(id, title);
      }
      // The same search as a feed: GET /search's own parameter names, never the key.
      const feed = new URLSearchParams({ q: s.text });
      for (const id of named) feed.append('channel_id', id);
      if (s.subscriptions) feed.set('subscriptions', '1');
      const last = hits[hits.length - 1];
      let next: string | null = null;
      if (more && last !== undefined) {
        const params = new URLSearchParams(feed);
        params.set('page', String((cursor === null ? 1 : page) + 1));
        params.set('before', `${last.video.publishedAt.getTime()}.${last.video.videoId}`);
        if (req.query.lang === 'en' || req.query.lang === 'tr') params.set('lang', req.query.lang);
        next = `/app/search?${params.toString()}`;
      }
      const model: SearchPageModel = { query: s.query, hits, channelNames, feedUrl: `${kit.deps.originOf(req)}/search?${feed.toString()}`, next, page: cursor === null ? 1 : page };
      const channels = named.map((id) => ({ id, title: channelNames.get(id) ?? id }));
      kit.send(res, 200, renderPage(ctx, w.search, [searchForm(w, { q, subscriptions: s.subscriptions, channels }), searchResults(w, ctx.locale, model)]));
    } catch (err) {
      if (err instanceof SearchBudgetExceeded) return refuse('searchTimeBudget', { limit: err.budgetMs });
      // Whatever refused it (an unknown handle, the handle-lookup limit, the store failing) is said in
      // words on the page, with the status GET /search would have answered.
      const apiError = toApiError(err);
      if (apiError.status >= 500) kit.log.error({ event: 'webapp_search_failed', err }, 'the search page could not search');
      refuse(apiError.code, apiError.context, apiError.status);
    }
  });
}
