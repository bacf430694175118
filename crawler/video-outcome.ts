// What one fetch attempt means for a video's stored record (docs/crawler.md §4 "What the crawler
// does"): a transcript is final; missing captions are retried for about three days, because
// automatic captions of a fresh upload often appear hours later, then given up (the feed shows the
// video with a note); a gone or private video is checked again after a week; transient failures
// back off and keep trying. A video whose publish date cannot be learned is recorded too (below).

import { LEAVE_OUT_MS } from '../shared/platform/client-exclusions';
import type { PlatformOutcome, PlatformSignal } from '../shared/platform/types';
import type { Transcript } from '../shared/transcript/types';
import { UNKNOWN_PUBLISHED_MS, type VideoKind, type VideoRecord } from '../shared/store/types';

const HOUR = 3_600_000;

/** What a video fetch can end in, once blocks have been dealt with by the blocked path. */
export type VideoFailureOutcome = Exclude<PlatformOutcome, 'ok' | 'blocked'>;

export type FetchResult =
  | { readonly kind: 'transcript'; readonly transcript: Transcript }
  | { readonly kind: 'failure'; readonly outcome: VideoFailureOutcome; readonly reason: string; readonly signal?: PlatformSignal | null }
  /** Not an answer of the platform: an error no one classified, most likely a bug of ours. */
  | { readonly kind: 'unexpected'; readonly reason: string };

export interface VideoFacts {
  videoId: string;
  channelId: string;
  title: string;
  /** Exact publish time; null when neither the listing nor the date call gave one. */
  publishedAt: Date | null;
  /** Listed as a Short: the channel feed links it as `/shorts/<id>` (docs/crawler.md §2). */
  short?: boolean;
}

export const PUBLISH_DATE_UNKNOWN = 'publish date unknown';

/** Whether the record this result makes would be shown in the feed, now or once retries give up. */
export const wouldBeShown = (result: FetchResult): boolean => result.kind === 'transcript' || (result.kind === 'failure' && result.outcome === 'no_captions');

export const NO_CAPTIONS_FIRST_DELAY_MS = 1 * HOUR;
export const NO_CAPTIONS_MAX_DELAY_MS = 24 * HOUR;
/** Total time spent waiting for captions before giving up. */
export const NO_CAPTIONS_GIVE_UP_AFTER_MS = 72 * HOUR;
export const UNAVAILABLE_RECHECK_MS = 7 * 24 * HOUR;
export const TRANSIENT_FIRST_DELAY_MS = 10 * 60_000;
export const TRANSIENT_MAX_DELAY_MS = 12 * HOUR;
/**
 * Attempts after which a video whose fetch keeps ending in an unexpected error is given up: a bug
 * does not go away by asking again, and retrying it forever would hide it among transient failures.
 */
export const UNEXPECTED_GIVE_UP_ATTEMPTS = 3;

function noCaptionsDelay(attempt: number): number {
  return Math.min(NO_CAPTIONS_MAX_DELAY_MS, NO_CAPTIONS_FIRST_DELAY_MS * 3 ** Math.min(attempt - 1, 20));
}

/**
 * Delay before the next try after `attempts` attempts found no captions: 1 h, 3 h, 9 h, 24 h, 24 h…
 * while the waits so far stay within three days; null = give up.
 */
export function noCaptionsRetryDelayMs(attempts: number): number | null {
  let waited = 0;
  for (let a = 1; a <= attempts; a += 1) waited += noCaptionsDelay(a);
  return waited > NO_CAPTIONS_GIVE_UP_AFTER_MS ? null : noCaptionsDelay(attempts);
}

/** 10 min, 20 min, 40 min … capped at 12 h; never gives up, the cap keeps it cheap. */
export function transientRetryDelayMs(attempts: number): number {
  return Math.min(TRANSIENT_MAX_DELAY_MS, TRANSIENT_FIRST_DELAY_MS * 2 ** Math.min(attempts - 1, 30));
}

/** The record to store for this attempt. `previous` is the stored record, if any (attempt count). */
export function videoRecordFor(facts: VideoFacts, given: FetchResult, previous: VideoRecord | undefined, now: Date): VideoRecord {
  // A video without a publish date is stored under the UNKNOWN_PUBLISHED_MS sentinel, so it is not
  // fetched again on every run, and backs off like any failure. The sentinel may only sit on a
  // record the feed never shows (`unavailable`, `failed`): no date is ever invented for what a feed
  // shows, so a transcript or no-captions answer stays `failed` ("publish date unknown") until a
  // later attempt learns its date (docs/crawler.md §2, dates).
  const result: FetchResult = facts.publishedAt === null && wouldBeShown(given)
    ? { kind: 'failure', outcome: 'transient', reason: PUBLISH_DATE_UNKNOWN }
    : given;
  // Nothing was asked when every player client is left out of the process (client-exclusions.ts):
  // not an attempt of this video's, so it counts none and waits for a client to come back.
  const nothingAsked = given.kind === 'failure' && given.signal === 'no_player_client';
  const attempts = (previous?.attempts ?? 0) + (nothingAsked ? 0 : 1);
  const { short, ...listed } = facts;
  const base = {
    ...listed,
    publishedAt: facts.publishedAt ?? new Date(UNKNOWN_PUBLISHED_MS),
    attempts,
    fetchedAt: now,
    // What an earlier answer told stays until a new one tells more. A video that was upcoming and
    // now answers otherwise has aired: its kind is unknown again until a transcript says it.
    videoKind: short === true ? 'short' : previous?.videoKind === 'upcoming' ? null : (previous?.videoKind ?? null),
    durationSeconds: previous?.durationSeconds ?? null,
    description: previous?.description ?? null,
    ...(previous?.offeredLanguages != null ? { offeredLanguages: previous.offeredLanguages } : {}),
  } satisfies Partial<VideoRecord>;
  const after = (ms: number | null): Date | null => (ms === null ? null : new Date(now.getTime() + ms));
  if (result.kind === 'transcript') {
    const t = result.transcript;
    const d = t.details;
    // Kind from what costs no request: the listing's /shorts/ link (now, or as stored when it was
    // listed: a retry from the store has no listing), the player's isLiveContent.
    const wasShort = short === true || previous?.videoKind === 'short';
    const videoKind: VideoKind = wasShort ? 'short' : d?.live === true ? 'live' : 'regular';
    return {
      ...base, videoKind, durationSeconds: d?.durationSeconds ?? base.durationSeconds, description: d?.description ?? base.description,
      // What this player answer offered, for the backfill of a language asked later.
      ...(t.offered !== undefined ? { offeredLanguages: t.offered } : {}),
      language: t.language, kind: t.kind, state: 'ready', nextAttemptAt: null, lastError: null,
    };
  }
  const none = { language: null, kind: null, lastError: result.reason };
  if (result.kind === 'unexpected') {
    const next = attempts >= UNEXPECTED_GIVE_UP_ATTEMPTS ? null : after(transientRetryDelayMs(attempts));
    return { ...base, ...none, lastError: `unexpected error: ${result.reason}`, state: 'failed', nextAttemptAt: next };
  }
  switch (result.outcome) {
    case 'no_captions':
      // A premiere or stream that has not aired: never listed, and looked at again until it airs
      // (the no-captions give-up would otherwise list it as a video without a transcript).
      if (result.signal === 'not_aired') {
        return { ...base, ...none, videoKind: 'upcoming', state: 'no_transcript', nextAttemptAt: after(transientRetryDelayMs(attempts)) };
      }
      return { ...base, ...none, state: 'no_transcript', nextAttemptAt: after(noCaptionsRetryDelayMs(attempts)) };
    case 'unavailable':
    case 'not_found':
      return { ...base, ...none, state: 'unavailable', nextAttemptAt: after(UNAVAILABLE_RECHECK_MS) };
    case 'consent':
    case 'transient':
      if (nothingAsked) return { ...base, ...none, state: previous?.state ?? 'failed', nextAttemptAt: after(LEAVE_OUT_MS) };
      return { ...base, ...none, state: 'failed', nextAttemptAt: after(transientRetryDelayMs(attempts)) };
  }
}
