// What each platform endpoint makes of an answer that is not plainly good, declared once
// (docs/crawler.md §4). classify.ts says what an answer is (ok, blocked, not found, transient…);
// this table says what that means for one endpoint: a 404 from resolve_url is "no such handle", from
// the player "video gone", from a caption URL "expired, try again". A refusal (blocked, consent) is
// always thrown, whatever the endpoint: the crawler's blocked path owns it.

import { parseJsonAnswer } from './classify';
import type { HttpAnswer } from './http-client';
import { PlatformError, type PlatformOutcome, type PlatformSignal } from './types';

/**
 * `absent`: the answer means "there is none" (the caller returns null); `fallback`: the caller
 * tries its other way; an outcome: thrown as a PlatformError with that outcome; `as-is`: thrown
 * with the outcome the classifier found.
 */
export type Action = 'absent' | 'fallback' | 'as-is' | Exclude<PlatformOutcome, 'ok' | 'blocked' | 'consent'>;

export interface EndpointRule {
  /** Name in reasons and logs. */
  readonly what: string;
  /** HTTP 404/410, or 400 INVALID_ARGUMENT. */
  readonly notFound: Action;
  /** Any other failure that is not a refusal: 5xx, unexpected status or redirect. */
  readonly failed: Action;
  /** A 2xx whose body cannot be read (broken JSON). */
  readonly unparsable: Action;
}

const rule = (what: string, notFound: Action, failed: Action = 'as-is', unparsable: Action = 'transient'): EndpointRule =>
  ({ what, notFound, failed, unparsable });

export const ENDPOINTS = {
  /** Unknown handle: 404. Anything else odd: ask the handle page instead (docs/crawler.md §1). */
  resolveUrl: rule('resolve_url', 'absent', 'fallback', 'fallback'),
  handlePage: rule('handle page', 'absent'),
  /** The feed's outages (404/500 for valid channels) mean "list through browse", never "empty" (§2). */
  channelFeed: rule('channel feed', 'fallback', 'fallback', 'fallback'),
  /** A malformed id answers 400 INVALID_ARGUMENT; a removed channel answers 200 with alerts. */
  browse: rule('browse', 'not_found'),
  visitorId: rule('visitor_id', 'transient'),
  /** A player 404 means the video is gone (§3). */
  player: rule('player', 'unavailable'),
  /** The embedded player's page, for its encryptedHostFlags (§3): without it the player is asked without them. */
  embedPage: rule('embed page', 'absent', 'fallback', 'fallback'),
  /** A field-masked WEB player call for a publish date: a gone video has none (§2). */
  datePlayer: rule('date player', 'absent'),
  /** A signed caption URL that 404s has most likely expired: the next run gets a fresh one (§3). */
  timedText: rule('timed text', 'transient'),
} as const satisfies Record<string, EndpointRule>;

export type Reading<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'absent' }
  | { readonly kind: 'fallback'; readonly reason: string };

function apply(action: Action, found: Exclude<PlatformOutcome, 'ok'>, what: string, reason: string, signal?: PlatformSignal): Reading<never> {
  if (action === 'absent') return { kind: 'absent' };
  if (action === 'fallback') return { kind: 'fallback', reason: `${what}: ${reason}` };
  // The signal travels with the error: a retired client version must reach the player's caller
  // as that, not as one more transient failure.
  throw new PlatformError(action === 'as-is' ? found : action, `${what}: ${reason}`, { signal });
}

/** The body of a good answer, or what the endpoint's rule makes of a bad one. */
export function readText(a: HttpAnswer, r: EndpointRule): Reading<string> {
  const v = a.verdict;
  if (v.outcome === 'ok') return { kind: 'ok', value: a.body };
  if (v.outcome === 'blocked' || v.outcome === 'consent') throw new PlatformError(v.outcome, `${r.what}: ${v.reason}`, v.outcome === 'blocked' ? { signal: v.signal, block: v.block } : undefined);
  return apply(v.outcome === 'not_found' ? r.notFound : r.failed, v.outcome, r.what, v.reason, v.signal);
}

/** Like readText, with the body parsed as JSON. */
export function readJson(a: HttpAnswer, r: EndpointRule): Reading<unknown> {
  const t = readText(a, r);
  if (t.kind !== 'ok') return t;
  try {
    return { kind: 'ok', value: parseJsonAnswer(a, r.what) };
  } catch {
    return apply(r.unparsable, 'transient', r.what, 'unparsable JSON');
  }
}

/** For endpoints whose rule has neither `absent` nor `fallback`: the value, everything else thrown. */
export function valueOf<T>(reading: Reading<T>, r: EndpointRule): T {
  if (reading.kind === 'ok') return reading.value;
  throw new PlatformError('transient', reading.kind === 'fallback' ? reading.reason : `${r.what}: no answer`);
}
