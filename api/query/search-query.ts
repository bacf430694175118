// GET /search's query: the reader's search text parsed by this small parser into the structure the
// store takes (shared/search/query.ts), and the other parameters validated as for channel feeds.
// The search text is only ever split into words and phrases here; nothing of it reaches an engine
// as syntax. The language (README "Search feeds"):
//   words          all must appear, in any order; case and diacritics do not matter
//   "a phrase"     these words one after the other
//   -word -"a b"   videos with it are left out
//   a OR b         either (OR in capitals, between two terms; chains: a OR b OR c)
// Anything else is a word: `NEAR(`, `title:`, `$where`, `*` and lower-case `or`/`and`/`not` are
// searched as the letters and digits they hold (punctuation alone holds none and is ignored).
// An unpaired `"` is ignored. At most MAX_QUERY_CHARS characters and MAX_QUERY_TERMS terms.

import { normalizeHandle, parseChannelUrl, parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID } from '../../shared/ids';
import { wordsOf } from '../../shared/search/fold';
import type { SearchQuery, Term } from '../../shared/search/query';
import type { FeedKind } from '../../shared/store/types';
import type { ErrorContext, ErrorName } from '../errors';
import { checkInclude, checkLang, checkSummary, MAX_ITEMS_LIMIT, type Checked, type FeedFormat, type RawQuery, type SummaryMode } from './feed-query';

export const MAX_QUERY_CHARS = 200;
export const MAX_QUERY_TERMS = 10;
export const MAX_SEARCH_CHANNELS = 20;
export const DEFAULT_SEARCH_ITEMS = 20;

export interface SearchRequest {
  /** The reader's text as given (trimmed): the feed title names it. */
  readonly text: string;
  readonly query: SearchQuery;
  readonly format: FeedFormat;
  readonly maxItems: number;
  /** Channels named by channel_id / channel / channel_url, in the order given, each once. */
  readonly channels: readonly ChannelRef[];
  /** subscriptions=1: only the channels the key follows. */
  readonly subscriptions: boolean;
  readonly kinds: readonly FeedKind[];
  readonly languages: readonly string[] | null;
  /** `summary` as feeds take it (feed-query.ts). */
  readonly summary: SummaryMode;
}

const SINGLE = ['q', 'format', 'max_items', 'include', 'lang', 'subscriptions', 'summary'] as const;
const CHANNEL_PARAMS = ['channel_id', 'channel', 'channel_url'] as const;

const bad = (error: ErrorName, context?: ErrorContext): Checked<never> => (context ? { ok: false, error, context } : { ok: false, error });

const own = (query: RawQuery, name: string): unknown => (Object.prototype.hasOwnProperty.call(query, name) ? query[name] : undefined);

export function validateSearchQuery(query: RawQuery): Checked<SearchRequest> {
  const v: Partial<Record<(typeof SINGLE)[number], string>> = {};
  for (const name of SINGLE) {
    const raw = own(query, name);
    if (raw === undefined) continue;
    if (typeof raw !== 'string') return bad('repeatedParameter', { param: name });
    if (raw !== '') v[name] = raw;
  }

  const text = (v.q ?? '').trim();
  if (text === '') return bad('searchQueryMissing');
  const parsed = parseSearchText(text);
  if (!parsed.ok) return parsed;

  let format: FeedFormat = 'atom';
  if (v.format !== undefined) {
    const f = v.format.toLowerCase();
    if (f !== 'atom' && f !== 'rss' && f !== 'json') return bad('invalidFormat');
    format = f;
  }

  let maxItems = DEFAULT_SEARCH_ITEMS;
  if (v.max_items !== undefined) {
    if (!/^\d{1,4}$/.test(v.max_items)) return bad('invalidSearchMaxItems');
    maxItems = Number(v.max_items);
    if (maxItems < 1 || maxItems > MAX_ITEMS_LIMIT) return bad('invalidSearchMaxItems');
  }

  const channels = checkChannels(query);
  if (!channels.ok) return channels;

  let subscriptions = false;
  if (v.subscriptions !== undefined) {
    if (v.subscriptions !== '1' && v.subscriptions !== '0') return bad('invalidSubscriptionsScope');
    subscriptions = v.subscriptions === '1';
  }

  const kinds = checkInclude(v.include);
  if (kinds === null) return bad('invalidInclude');
  const languages = checkLang(v.lang);
  if (languages === false) return bad('invalidLang');
  const summary = checkSummary(v.summary);
  if (summary === null) return bad('invalidSummary');

  return { ok: true, value: { text, query: parsed.value, format, maxItems, channels: channels.value, subscriptions, kinds, languages, summary } };
}

/** Every channel_id, channel and channel_url value (each may repeat), at most MAX_SEARCH_CHANNELS. */
function checkChannels(query: RawQuery): Checked<ChannelRef[]> {
  const refs: ChannelRef[] = [];
  const seen = new Set<string>();
  for (const name of CHANNEL_PARAMS) {
    const raw = own(query, name);
    const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (typeof value !== 'string') return bad('badRequest');
      if (value === '') continue;
      const ref = name === 'channel_id' ? (CHANNEL_ID.test(value) ? ({ kind: 'id', channelId: value } as const) : null) : name === 'channel' ? parseHandle(value) : parseChannelUrl(value);
      if (ref === null) return bad(name === 'channel_id' ? 'invalidChannelId' : name === 'channel' ? 'invalidHandle' : 'invalidChannelUrl');
      const key = ref.kind === 'id' ? ref.channelId : `@${normalizeHandle(ref.handle)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      refs.push(ref);
      if (refs.length > MAX_SEARCH_CHANNELS) return bad('tooManySearchChannels');
    }
  }
  return { ok: true, value: refs };
}

// ── the search text ────────────────────────────────────────────────────────

interface Piece {
  /** The text of a word or phrase as written (without quotes or the leading '-'). */
  readonly text: string;
  readonly negated: boolean;
  /** Written in quotes: never the OR operator. */
  readonly quoted: boolean;
}

/** Split the text into words and quoted phrases; a leading '-' negates. An unpaired '"' is ignored. */
function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  const n = text.length;
  const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/u.test(c);
  while (i < n) {
    while (i < n && isSpace(text[i])) i++;
    if (i >= n) break;
    let negated = false;
    if (text[i] === '-' && i + 1 < n && !isSpace(text[i + 1])) {
      negated = true;
      i++;
    }
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close >= 0) {
        pieces.push({ text: text.slice(i + 1, close), negated, quoted: true });
        i = close + 1;
        continue;
      }
      i++; // unpaired: the quote is dropped, what follows is read as words
      if (negated && (i >= n || isSpace(text[i]))) continue;
    }
    const start = i;
    while (i < n && !isSpace(text[i]) && text[i] !== '"') i++;
    if (i > start) pieces.push({ text: text.slice(start, i), negated, quoted: false });
  }
  return pieces;
}

/** The reader's search text → the store's query, or the catalogue error that refuses it. */
export function parseSearchText(text: string): Checked<SearchQuery> {
  if ([...text].length > MAX_QUERY_CHARS) return bad('searchQueryTooLong');
  const pieces = piecesOf(text);
  const isOr = (p: Piece | undefined): boolean => p !== undefined && !p.quoted && !p.negated && p.text === 'OR';
  const terms = pieces.filter((p, i) => !(isOr(p) && i > 0 && i < pieces.length - 1 && !pieces[i - 1]!.negated && !pieces[i + 1]!.negated));
  if (terms.length > MAX_QUERY_TERMS) return bad('searchTooManyTerms');

  const all: Term[][] = [];
  const none: Term[] = [];
  let open: Term[] | null = null; // the clause of the previous positive term, which an OR extends
  let joinNext = false;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const prev = pieces[i - 1];
    const next = pieces[i + 1];
    // OR is the operator only between two terms that are not exclusions; elsewhere it is the word.
    if (isOr(p) && prev !== undefined && next !== undefined && !prev.negated && !next.negated) {
      joinNext = true;
      continue;
    }
    const words = wordsOf(p.text);
    if (p.negated) {
      if (words.length > 0) none.push(words);
      open = null;
    } else if (words.length === 0) {
      // Punctuation only: nothing to search for; `a OR * OR b` still joins a and b.
      if (!joinNext) open = null;
    } else if (joinNext && open !== null) {
      open.push(words);
    } else {
      open = [words];
      all.push(open);
    }
    joinNext = false;
  }
  if (all.length === 0) return bad('searchNoWords');
  return { ok: true, value: { all, none } };
}
