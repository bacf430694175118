// Validation of the feed endpoint's query, exactly as the spec's parameter table says. Pure: a
// parsed query object in, a FeedQuery or the name of the catalogue error out. Decisions the spec
// leaves open (README "Decisions"): an empty value counts as absent; when several channel
// parameters are given, channel_id wins over channel, which wins over channel_url; `format` is
// case-insensitive; a parameter given twice is a 400, never a guess.

import { DEFAULT_FEED_KINDS } from '../../shared/store/rules';
import type { FeedKind } from '../../shared/store/types';
import type { ErrorContext, ErrorName } from '../errors';
import { parseChannelUrl, parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID } from '../../shared/ids';
import { isLanguageCode } from '../../shared/transcript/languages';

export type FeedFormat = 'atom' | 'rss' | 'json';

export interface FeedQuery extends FeedOptions {
  readonly channel: ChannelRef;
}

/** What shapes a feed besides its channel: the same for a channel's feed and the combined feed. */
export interface FeedOptions {
  readonly format: FeedFormat;
  readonly maxItems: number;
  /** Which kinds of video the feed lists: regular, plus what `include` adds, in one order. */
  readonly kinds: readonly FeedKind[];
  /** `lang`: the reader's languages in order (lower-cased, each once); null = TRANSCRIPT_LANGUAGES decides. */
  readonly languages: readonly string[] | null;
  /** `summary` (issue 31): off when not given, `1` = the stored summary opens the content, `only` = the summary alone. */
  readonly summary: SummaryMode;
}

export type SummaryMode = 'off' | 'on' | 'only';

export const MAX_LANGUAGES = 5;

export type Checked<T> = { ok: true; value: T } | { ok: false; error: ErrorName; context?: ErrorContext };

export const DEFAULT_MAX_ITEMS = 10;
export const MAX_ITEMS_LIMIT = 100;

/** A query as Express's simple parser gives it: strings, or arrays for repeated names. */
export type RawQuery = Readonly<Record<string, unknown>>;

const OPTION_PARAMS = ['format', 'max_items', 'include', 'lang', 'summary'] as const;
type OptionParam = (typeof OPTION_PARAMS)[number];
const PARAMS = ['channel_id', 'channel', 'channel_url', ...OPTION_PARAMS] as const;

/** `include` values → the kind each adds (Shorts and streams are out unless asked for: most readers follow a channel for its videos). */
const INCLUDES: Readonly<Record<string, FeedKind>> = { shorts: 'short', live: 'live' };
const KIND_ORDER: readonly FeedKind[] = ['regular', 'short', 'live'];

const bad = (error: ErrorName, context?: ErrorContext): Checked<never> => (context ? { ok: false, error, context } : { ok: false, error });

/** The parameters asked for, each once (a repeated one is the error); empty values count as absent. */
function valuesOf<P extends string>(query: RawQuery, params: readonly P[]): Checked<Partial<Record<P, string>>> {
  const v: Partial<Record<P, string>> = {};
  for (const name of params) {
    const raw = Object.prototype.hasOwnProperty.call(query, name) ? query[name] : undefined;
    if (raw === undefined) continue;
    if (typeof raw !== 'string') return bad('repeatedParameter', { param: name });
    if (raw !== '') v[name] = raw;
  }
  return { ok: true, value: v };
}

export function validateFeedQuery(query: RawQuery): Checked<FeedQuery> {
  const values = valuesOf(query, PARAMS);
  if (!values.ok) return values;
  const v = values.value;
  const channel = checkChannel(v);
  if (!channel.ok) return channel;
  const options = checkOptions(v, DEFAULT_MAX_ITEMS);
  if (!options.ok) return options;
  return { ok: true, value: { channel: channel.value, ...options.value } };
}

/** format, max_items, include and lang as a channel's feed takes them (a playlist's feed: playlist-query.ts). */
export function validateFeedOptions(query: RawQuery): Checked<FeedOptions> {
  const values = valuesOf(query, OPTION_PARAMS);
  if (!values.ok) return values;
  return checkOptions(values.value, DEFAULT_MAX_ITEMS);
}

/** The combined feed's default max_items (GET /subscriptions/feed). */
export const DEFAULT_COMBINED_MAX_ITEMS = 50;
const COMBINED_PARAMS = OPTION_PARAMS;

/** GET /subscriptions/feed: the channel feed's options, with max_items 1–100 defaulting to 50. */
export function validateCombinedFeedQuery(query: RawQuery): Checked<FeedOptions> {
  const values = valuesOf(query, COMBINED_PARAMS);
  if (!values.ok) return values;
  return checkOptions(values.value, DEFAULT_COMBINED_MAX_ITEMS);
}

function checkOptions(v: Partial<Record<OptionParam, string>>, defaultMaxItems: number): Checked<FeedOptions> {
  let format: FeedFormat = 'atom';
  if (v.format !== undefined) {
    const f = v.format.toLowerCase();
    if (f !== 'atom' && f !== 'rss' && f !== 'json') return bad('invalidFormat');
    format = f;
  }

  let maxItems = defaultMaxItems;
  if (v.max_items !== undefined) {
    // Digits only: "1e2", "5.0", " 5", "+5" and "0x10" are all refused rather than coerced.
    if (!/^\d{1,4}$/.test(v.max_items)) return bad('invalidMaxItems');
    maxItems = Number(v.max_items);
    if (maxItems < 1 || maxItems > MAX_ITEMS_LIMIT) return bad('invalidMaxItems');
  }

  const kinds = checkInclude(v.include);
  if (kinds === null) return bad('invalidInclude');

  const languages = checkLang(v.lang);
  if (languages === false) return bad('invalidLang');

  const summary = checkSummary(v.summary);
  if (summary === null) return bad('invalidSummary');

  return { ok: true, value: { format, maxItems, kinds, languages, summary } };
}

/** `summary`: `1` or `only` (case-insensitive); off when not given; null for anything else. */
export function checkSummary(raw: string | undefined): SummaryMode | null {
  if (raw === undefined) return 'off';
  const v = raw.toLowerCase();
  return v === '1' ? 'on' : v === 'only' ? 'only' : null;
}

/** `lang`: up to MAX_LANGUAGES codes, lower-cased, each once; null when not given; false when bad. */
export function checkLang(raw: string | undefined): string[] | null | false {
  if (raw === undefined) return null;
  const languages = [...new Set(raw.toLowerCase().split(','))];
  return languages.length > MAX_LANGUAGES || !languages.every(isLanguageCode) ? false : languages;
}

/** `shorts`, `live` or both, comma-separated, case-insensitive; null for anything else. */
export function checkInclude(raw: string | undefined): readonly FeedKind[] | null {
  if (raw === undefined) return DEFAULT_FEED_KINDS;
  const asked = new Set<FeedKind>(DEFAULT_FEED_KINDS);
  for (const part of raw.toLowerCase().split(',')) {
    const kind = Object.prototype.hasOwnProperty.call(INCLUDES, part) ? INCLUDES[part] : undefined;
    if (kind === undefined) return null;
    asked.add(kind);
  }
  return KIND_ORDER.filter((k) => asked.has(k));
}

function checkChannel(v: Partial<Record<'channel_id' | 'channel' | 'channel_url', string>>): Checked<ChannelRef> {
  if (v.channel_id !== undefined) {
    return CHANNEL_ID.test(v.channel_id) ? { ok: true, value: { kind: 'id', channelId: v.channel_id } } : bad('invalidChannelId');
  }
  if (v.channel !== undefined) {
    const ref = parseHandle(v.channel);
    return ref ? { ok: true, value: ref } : bad('invalidHandle');
  }
  if (v.channel_url !== undefined) {
    const ref = parseChannelUrl(v.channel_url);
    return ref ? { ok: true, value: ref } : bad('invalidChannelUrl');
  }
  return bad('channelNotFound');
}
