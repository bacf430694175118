// GET /search: a saved search as a feed. Validate (api/query/search-query.ts) → resolve the named
// channels → the token of the store's version of the scope (search/search-version.ts) → what the
// same search answered under that token (search/search-results.ts), or one store search, in its
// turn (search/search-gate.ts) and within its time budget → strong validators over everything the
// body is made of → the shared tail (http/feed-answer.ts: 304, or the feed rendered once per ETag
// and kept in the app's one cache). No match is an empty feed, never a 404: a reader keeps the
// subscription and new matches arrive as they are stored.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SearchBudgetExceeded, SearchDeadline } from '../../shared/search/budget';
import type { PlatformClient } from '../../shared/platform/types';
import type { SearchHit, SearchScope, VideoRecord, SearchFeedStore, SummaryKey } from '../../shared/store/types';
import type { ApiCache } from '../cache';
import type { AnswerFeed } from '../http/feed-answer';
import { ApiError } from '../errors';
import { buildSearchModel } from '../feed/search-model';
import { defaultSummaryKey, readSummaries } from '../feed/summaries';
import type { Validators } from '../feed/state';
import { keyIdOf, queryOf } from '../http/request-state';
import type { RawQuery } from '../query/feed-query';
import { validateSearchQuery, type SearchRequest } from '../query/search-query';
import { ChannelResolver, type HandleLookupLimits } from '../resolve-channel';
import { SearchGate } from '../search/search-gate';
import { SearchResults } from '../search/search-results';
import { scopeToken } from '../search/search-version';
import { SingleFlight } from '../single-flight';
import { INCLUDE_NAMES, RENDERERS } from '../feed/renderers';
import { linkKeyOf } from '../feed/self-links';
import { originOf } from '../http/origin';

/** API_MAX_SEARCHES, API_MAX_SEARCHES_PER_KEY and API_SEARCH_BUDGET_MS's defaults. */
export const DEFAULT_MAX_SEARCHES = 2;
export const DEFAULT_MAX_SEARCHES_PER_KEY = 1;
export const DEFAULT_SEARCH_BUDGET_MS = 5_000;
/** Retry-After of a search that ran out of its budget: what it answered is remembered that long. */
const RETRY_EXCEEDED_SECONDS = 60;

export interface SearchLimits {
  /** Searches running at once in the process (API_MAX_SEARCHES). */
  maxSearches?: number;
  /** Searches running at once for one key (API_MAX_SEARCHES_PER_KEY). */
  maxSearchesPerKey?: number;
  /** The most one search may take from its arrival, its wait for a turn included (API_SEARCH_BUDGET_MS). */
  budgetMs?: number;
}

export interface SearchDeps {
  store: SearchFeedStore;
  /** What the API's handle lookups may spend (resolve-channel.ts). */
  handleLookups?: HandleLookupLimits;
  platform: Pick<PlatformClient, 'resolveHandle'>;
  clock: () => Date;
  /** The app's one cache: what searches answered is kept there beside the bodies. */
  cache: ApiCache;
  /** The shared tail: 304, cached body, content coding (api/http/feed-answer.ts). */
  answer: AnswerFeed;
  trustProxy: (address: string, hop: number) => boolean;
  publicBaseUrl: string | null;
  limits?: SearchLimits;
  /** Which stored summaries `summary=` shows; left out: the defaults. */
  summaryKey?: SummaryKey;
}

/** The self link's query: the validated parameters in one order and spelling (never api_key). */
function selfQuery(s: SearchRequest, raw: RawQuery, channelIds: readonly string[]): string {
  const params = new URLSearchParams({ q: s.text });
  for (const id of channelIds) params.append('channel_id', id);
  if (s.subscriptions) params.set('subscriptions', '1');
  if (typeof raw.format === 'string' && raw.format !== '') params.set('format', RENDERERS[s.format].name);
  if (typeof raw.max_items === 'string' && raw.max_items !== '') params.set('max_items', String(s.maxItems));
  const included = Object.entries(INCLUDE_NAMES).filter(([kind]) => (s.kinds as readonly string[]).includes(kind)).map(([, name]) => name);
  if (included.length > 0) params.set('include', included.join(','));
  if (s.languages !== null) params.set('lang', s.languages.join(','));
  if (s.summary !== 'off') params.set('summary', s.summary === 'on' ? '1' : 'only');
  return params.toString();
}

/** The video's entry in its channel's feed: the kinds and languages it is shown with, the reader's key. */
function channelFeedUrl(origin: string, s: SearchRequest, linkKey: string): (v: VideoRecord) => string {
  return (v) => {
    const params = new URLSearchParams({ channel_id: v.channelId });
    const include = v.videoKind !== null ? INCLUDE_NAMES[v.videoKind as keyof typeof INCLUDE_NAMES] : undefined;
    if (include !== undefined) params.set('include', include);
    if (s.languages !== null) params.set('lang', s.languages.join(','));
    if (linkKey !== '') params.set('api_key', linkKey);
    return `${origin}/?${params.toString()}`;
  };
}

/** Newest stored change among the hits: their videos and every transcript they were matched on. */
function newestChange(hits: readonly SearchHit[]): Date {
  let ms = 0;
  for (const h of hits) {
    ms = Math.max(ms, h.video.fetchedAt.getTime());
    for (const t of h.transcripts) ms = Math.max(ms, t.fetchedAt.getTime());
  }
  return new Date(ms);
}

/** Strong: the digest covers every input of the body, so equal tags mean byte-equal bodies. */
function validatorsOf(parts: readonly string[], updated: Date): Validators {
  const digest = createHash('sha256').update(parts.join('\n')).digest('base64url');
  return { etag: `"${digest.slice(0, 27)}"`, lastModified: updated.toUTCString() };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Which stored videos a search looks through: the named channels (or every one), narrowed by
 * `subscriptions=1` to the key's followed channels. The web app's search page scopes with it too.
 */
export async function searchScopeOf(store: Pick<SearchFeedStore, 'listSubscriptions'>, s: Pick<SearchRequest, 'subscriptions' | 'kinds'>, named: readonly string[], keyId: string | undefined): Promise<SearchScope> {
  let channelIds: readonly string[] | null = named.length > 0 ? named : null;
  if (s.subscriptions) {
    // The key's followed channels (handles the crawler has not resolved yet have no videos).
    const followed = keyId === undefined ? [] : (await store.listSubscriptions(keyId)).flatMap((sub) => (sub.channelId === null ? [] : [sub.channelId]));
    channelIds = channelIds === null ? followed : channelIds.filter((id) => followed.includes(id));
  }
  return { channelIds, kinds: s.kinds };
}

/** What one search found: the validators of its feed, and the feed itself when the tail needs it. */
interface Found {
  readonly validators: Validators;
  readonly body: () => Buffer;
}

export function search(deps: SearchDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const resolver = new ChannelResolver(deps.store, deps.platform, deps.handleLookups);
  const limits = deps.limits ?? {};
  const gate = new SearchGate({ concurrency: limits.maxSearches ?? DEFAULT_MAX_SEARCHES, perKey: limits.maxSearchesPerKey ?? DEFAULT_MAX_SEARCHES_PER_KEY });
  const budgetMs = limits.budgetMs ?? DEFAULT_SEARCH_BUDGET_MS;
  const results = new SearchResults(deps.cache);
  // Identical searches under way share one: a poll burst of one saved search runs it once.
  const running = new SingleFlight<string, Found>();
  const summaryKey = deps.summaryKey ?? defaultSummaryKey();

  return async (req, res) => {
    // The budget counts from the request's arrival: waiting for a turn spends it too.
    const deadline = new SearchDeadline(budgetMs);
    const raw = queryOf(req);
    const checked = validateSearchQuery(raw);
    if (!checked.ok) throw new ApiError(checked.error, checked.context);
    const s = checked.value;
    const now = deps.clock();
    const keyId = keyIdOf(res);

    const named: string[] = [];
    for (const ref of s.channels) {
      const { channelId } = await resolver.resolve(ref, now, keyId);
      if (!named.includes(channelId)) named.push(channelId);
    }

    const origin = originOf(req, deps);
    const selfUrl = `${origin}/search?${selfQuery(s, raw, named)}`;
    const linkKey = linkKeyOf(req, raw);
    const linkKeyDigest = linkKey === '' ? '' : sha256(linkKey);
    // One representation per self link, links' key and (for a subscriptions scope) the key itself.
    const resultKey = sha256(`${selfUrl}\n${linkKeyDigest}\n${s.subscriptions ? (keyId ?? '') : ''}`);
    // Taken before the search: a batch stored while it runs changes the next request's token.
    const token = await scopeToken(deps.store, { named, subscriptions: s.subscriptions, keyId });

    /** The search itself, in its turn and within its budget. */
    const searchNow = async (): Promise<Found> => {
      const scope = await searchScopeOf(deps.store, s, named, keyId);
      let hits: SearchHit[];
      try {
        hits = await gate.run(keyId ?? '', deadline, () => deps.store.searchVideos(s.query, scope, s.maxItems, { budgetMs: deadline.remaining() }));
      } catch (err) {
        if (err instanceof SearchBudgetExceeded) results.set(resultKey, token, now, { exceededMs: budgetMs });
        throw err;
      }

      const channelNames = new Map<string, string>();
      for (const id of new Set(hits.map((h) => h.video.channelId))) {
        const title = (await deps.store.getChannel(id))?.title?.trim();
        if (title) channelNames.set(id, title);
      }
      const updated = newestChange(hits);
      // Stored summaries only (no model call); their digest is in the ETag.
      const ids = hits.map((h) => h.video.videoId);
      const summaries = await readSummaries(deps.store, ids, summaryKey);
      const validators = validatorsOf(
        [
          summaries.fingerprint,
          s.format,
          selfUrl,
          linkKeyDigest,
          String(updated.getTime()),
          ...hits.map((h) => `${h.video.videoId}:${h.video.fetchedAt.getTime()}:${h.transcripts.map((t) => `${t.language}@${t.fetchedAt.getTime()}`).join(',')}`),
          ...[...channelNames].map(([id, name]) => `${id}=${name}`),
        ],
        updated,
      );
      results.set(resultKey, token, now, { validators, shown: { ids, summaries: summaries.fingerprint } });
      const body = (): Buffer => {
        const model = buildSearchModel({ text: s.text, query: s.query, hits, channelNames, languages: s.languages, updated, selfUrl, wholeTranscriptUrl: channelFeedUrl(origin, s, linkKey), summaryMode: s.summary, summaries });
        return Buffer.from(RENDERERS[s.format].render(model), 'utf8');
      };
      return { validators, body };
    };

    const answer = (validators: Validators, found: Found | null): Promise<void> =>
      deps.answer(req, res, {
        route: '/search',
        validators,
        contentType: RENDERERS[s.format].contentType,
        // Only a body the cache no longer holds is rendered; a remembered search then runs again.
        render: async () => {
          const f = found ?? (await running.run(`${resultKey}\n${token}`, searchNow));
          return { body: f.body(), validators: f.validators };
        },
      });

    try {
      const remembered = results.get(resultKey, token, now);
      if (remembered !== undefined && 'exceededMs' in remembered) throw new SearchBudgetExceeded(remembered.exceededMs);
      // A remembered answer is reused while its hits' stored summaries are the same (one store read):
      // a summary stored since would be hidden by it, so the search then runs again.
      if (remembered !== undefined && (await readSummaries(deps.store, remembered.shown.ids, summaryKey)).fingerprint === remembered.shown.summaries) {
        return await answer(remembered.validators, null);
      }
      const found = await running.run(`${resultKey}\n${token}`, searchNow);
      await answer(found.validators, found);
    } catch (err) {
      if (err instanceof SearchBudgetExceeded) throw new ApiError('searchTimeBudget', { limit: err.budgetMs, retryAfter: RETRY_EXCEEDED_SECONDS });
      throw err;
    }
  };
}
