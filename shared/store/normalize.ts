// Input normalisation both store implementations apply before writing, so a handle asked for as
// "@SomeName" and one cached as "somename" are the same key everywhere.

/** Lower-cased handle without a leading `@`. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@/, '').toLowerCase();
}

/**
 * Whether a video still needs a fetch attempt at `now`: it is not `ready` and its retry time has
 * come. A null nextAttemptAt means never (final state, or given up).
 */
export function needsWork(state: string, nextAttemptAt: number | null, now: number): boolean {
  return state !== 'ready' && nextAttemptAt !== null && nextAttemptAt <= now;
}

/** Whether a video is shown in its channel's feed: `ready`, or `no_transcript` given up for good. */
export function isFeedEntry(state: string, nextAttemptAt: Date | number | null): boolean {
  return state === 'ready' || (state === 'no_transcript' && nextAttemptAt === null);
}
