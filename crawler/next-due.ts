// When a channel is due again after a run (miniflux ScheduleNextCheck): a good run is listed again
// by the channel's upload rhythm (rhythm.ts; the scheduler asks it), failures back off exponentially up to a cap so a blocked IP or a broken channel
// is not hammered, and a run cut short (shutdown, lost lease) hands the channel back at once.

export type RunOutcome = 'ok' | 'blocked' | 'error' | 'not_found' | 'stopped';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A good run, when its rhythm is not asked: the shortest listing interval (the scheduler asks the rhythm). */
export const REFRESH_INTERVAL_MS = 30 * MINUTE;
/** Blocks are about our IP, not the channel: start long so the platform forgets us. */
export const BLOCKED_BACKOFF = { baseMs: 30 * MINUTE, capMs: 12 * HOUR } as const;
/** 5xx, timeouts, garbage: usually short-lived. */
export const ERROR_BACKOFF = { baseMs: 5 * MINUTE, capMs: 6 * HOUR } as const;
/** The platform says a channel it showed before does not exist; check again once a day in case it comes back. */
export const NOT_FOUND_DELAY_MS = 24 * HOUR;
/**
 * After this many "does not exist" answers in a row the channel is retired: a junk id costs a few
 * listings, not one a day forever. It is looked at again only once a month (in case it comes back),
 * and the scheduled refresh never brings it forward (it is backing off).
 */
export const NOT_FOUND_CONFIRMATIONS = 3;
export const NOT_FOUND_RETIRED_MS = 30 * 24 * HOUR;

/** base · 2^(failures−1), capped; failures counts this run (1 after the first failure). */
export function backoffMs(failures: number, base: number, cap: number): number {
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  return Math.min(cap, base * 2 ** exponent);
}

/**
 * @param consecutiveFailures the channel's count after this run (0 after `ok`, ≥ 1 after a failure).
 * @param neverFound the platform has never shown this channel (no title, no good run): a "does not
 *   exist" for it is believed at once and the channel retired, so a junk id (an import of thousands
 *   of them, a typo) costs one listing, not one a day; a channel seen before may be gone for a while
 *   and is asked again daily up to NOT_FOUND_CONFIRMATIONS times.
 */
export function nextDueAt(outcome: RunOutcome, consecutiveFailures: number, now: Date, neverFound = false): Date {
  const at = (ms: number): Date => new Date(now.getTime() + ms);
  switch (outcome) {
    case 'ok':
      return at(REFRESH_INTERVAL_MS);
    case 'blocked':
      return at(backoffMs(consecutiveFailures, BLOCKED_BACKOFF.baseMs, BLOCKED_BACKOFF.capMs));
    case 'error':
      return at(backoffMs(consecutiveFailures, ERROR_BACKOFF.baseMs, ERROR_BACKOFF.capMs));
    case 'not_found':
      return at(neverFound || consecutiveFailures >= NOT_FOUND_CONFIRMATIONS ? NOT_FOUND_RETIRED_MS : NOT_FOUND_DELAY_MS);
    case 'stopped':
      return at(0);
  }
}

/**
 * The channel's failure count after a run with this outcome. A not-found answer after any other
 * outcome starts the count again, so after a not-found run the count is how many not-found answers
 * came in a row: only those retire a channel (NOT_FOUND_CONFIRMATIONS), never blocks or errors that
 * happened to come before one odd answer. The other backoffs grow with every failure of any kind:
 * a channel that keeps failing costs less and less.
 */
export function failuresAfter(outcome: RunOutcome, previous: number, previousOutcome: string | null = null): number {
  if (outcome === 'ok') return 0;
  if (outcome === 'stopped') return previous;
  if (outcome === 'not_found' && previousOutcome !== 'not_found') return 1;
  return previous + 1;
}
