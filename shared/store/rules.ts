// The rules both store backends (and the API's feed model) follow, written once: which videos a
// feed shows, which need work, the retry window, input-order answers and the guards on empty
// questions. A backend's queries select by these rules; the contract suite checks both agree.

import type { FeedKind, PlaylistRecord, PlaylistState, TranscriptRecord, VideoKind, VideoRecord } from './types';

/**
 * How long "the platform has no such handle" is believed: junk handles cost one platform request
 * an hour at most, and a handle created meanwhile resolves within the hour.
 */
export const UNKNOWN_HANDLE_TTL_MS = 60 * 60_000;

/** Whether an unknown-handle answer given at `checkedAt` still holds at `now`. */
export const unknownHandleHolds = (checkedAt: Date | number, now: Date): boolean =>
  now.getTime() - (checkedAt instanceof Date ? checkedAt.getTime() : checkedAt) < UNKNOWN_HANDLE_TTL_MS;

// ── which channels are still refreshed ─────────────────────────────────────

/**
 * A channel that no key follows and nobody asked for in this long is no longer refreshed: the
 * crawler never claims it and the scheduled refresh skips it. Its stored data stays, and the next
 * feed request for it (or a follow) brings it back at once.
 */
export const KEEP_REFRESHING_MS = 30 * 24 * 60 * 60_000;

/** Asked for at or after this time = still refreshed (unless followed anyway). */
export const refreshCutoff = (now: Date): Date => new Date(now.getTime() - KEEP_REFRESHING_MS);

/**
 * Whether the crawler still refreshes the channel at `now`. A record from before askedAt was kept
 * (null) counts as asked for: the 30 days start with the next request, never retroactively.
 */
export function isRefreshed(c: { followed: boolean; askedAt: Date | null }, now: Date): boolean {
  return c.followed || c.askedAt === null || c.askedAt.getTime() >= refreshCutoff(now).getTime();
}

/** The same rule in SQL over the channels table, with the cutoff bound as `@refreshCutoff`. */
export const REFRESHED_SQL = `(followed = 1 OR asked_at IS NULL OR asked_at >= @refreshCutoff)`;

// ── which videos a feed shows ──────────────────────────────────────────────

/** Whether a video is shown in its channel's feed: `ready`, or `no_transcript` given up for good. */
export function isFeedEntry(state: string, nextAttemptAt: Date | number | null): boolean {
  return state === 'ready' || (state === 'no_transcript' && nextAttemptAt === null);
}

/**
 * The same rule as SQL, for SQLite's partial indexes and the queries that must use them (SQLite
 * only picks a partial index when the query repeats its WHERE term).
 */
export const FEED_ENTRY_SQL = `(state = 'ready' OR (state = 'no_transcript' AND next_attempt_at IS NULL))`;

/** Whether a feed entry shows a transcript; otherwise it shows the "no transcript" note. */
export function showsTranscript(v: Pick<VideoRecord, 'state'>): boolean {
  return v.state === 'ready';
}

/** What a feed lists when the reader asks for nothing more: regular videos (Shorts and streams only when asked for). */
export const DEFAULT_FEED_KINDS: readonly FeedKind[] = ['regular'];

/**
 * Whether a video of this kind is listed when `kinds` are asked for. A record stored before kinds
 * were recorded (null) counts as regular; upcoming is never a FeedKind, so never listed.
 */
export function isShownKind(videoKind: VideoKind | null, kinds: readonly FeedKind[]): boolean {
  return (kinds as readonly VideoKind[]).includes(videoKind ?? 'regular');
}

const TRANSCRIPT_KINDS: readonly unknown[] = ['manual', 'automatic', 'translated'];

/**
 * A transcript as read back, or null when it does not hold what was written (a damaged file or
 * document): such a row is left out, and the entry shows the "no transcript" note.
 */
export function readableTranscript(t: { videoId: unknown; language: unknown; kind: unknown; paragraphs: unknown; untimed?: unknown; fetchedAt: unknown }): TranscriptRecord | null {
  const paragraphsOk = Array.isArray(t.paragraphs) && t.paragraphs.every((p: unknown) => {
    const q = p as { startMs?: unknown; text?: unknown } | null;
    return q !== null && typeof q === 'object' && typeof q.startMs === 'number' && Number.isFinite(q.startMs) && typeof q.text === 'string';
  });
  if (!paragraphsOk || typeof t.videoId !== 'string' || typeof t.language !== 'string' || !TRANSCRIPT_KINDS.includes(t.kind) || !(t.fetchedAt instanceof Date)) return null;
  const { untimed, ...rest } = t;
  return (untimed === true ? { ...rest, untimed: true } : rest) as TranscriptRecord;
}

// ── which videos need work ─────────────────────────────────────────────────

/**
 * Whether a video still needs a fetch attempt at `now`: it is not `ready` and its retry time has
 * come. A null nextAttemptAt means never (final state, or given up).
 */
export function needsWork(state: string, nextAttemptAt: Date | number | null, now: Date): boolean {
  const at = nextAttemptAt instanceof Date ? nextAttemptAt.getTime() : nextAttemptAt;
  return state !== 'ready' && at !== null && at <= now.getTime();
}

/**
 * The retry window of videosDueForRetry: a due video counts when it is among the channel's `limit`
 * newest stored ones (published at or after `edge`, the publish time of the limit-th newest;
 * `edge` undefined = fewer than `limit` stored, the whole channel), or when its publish date is
 * unknown (its place in the channel is not known). `RETRY_EDGE_OFFSET(limit)` is the edge's rank.
 */
export const retryEdgeOffset = (limit: number): number => limit - 1;

export function inRetryWindow(publishedAt: Date, edge: Date | undefined, unknownPublishedMs: number): boolean {
  return edge === undefined || publishedAt.getTime() >= edge.getTime() || publishedAt.getTime() === unknownPublishedMs;
}

// ── answers and guards ─────────────────────────────────────────────────────

/**
 * Nothing to ask the database: an empty id list, or a limit below 1 (which would mean "no limit"
 * to both SQLite's LIMIT -1 and MongoDB's limit(0)).
 */
export function asksNothing(question: number | readonly unknown[]): boolean {
  return typeof question === 'number' ? question <= 0 : question.length === 0;
}

/** The ids asked for that pass `keep`, in the order they were asked. */
export function inInputOrder(ids: readonly string[], keep: (id: string) => boolean): string[] {
  return ids.filter(keep);
}

/** The found records in the order of the ids asked for, each once; unknown ids are left out. */
export function recordsInInputOrder<T>(ids: readonly string[], found: ReadonlyMap<string, T>): T[] {
  return [...new Set(ids)].flatMap((id) => {
    const r = found.get(id);
    return r === undefined ? [] : [r];
  });
}

// ── playlists ──────────────────────────────────────────────────────────────

const PLAYLIST_STATES: readonly unknown[] = ['listed', 'private', 'deleted'] satisfies PlaylistState[];

/** Whether a new listing differs from the stored one in anything a feed shows (changedAt moves). */
export function playlistChanged(before: Omit<PlaylistRecord, 'listedAt' | 'changedAt'>, after: Omit<PlaylistRecord, 'listedAt' | 'changedAt'>): boolean {
  return before.title !== after.title || before.owner !== after.owner || before.ownerChannelId !== after.ownerChannelId || before.state !== after.state
    || before.videoIds.length !== after.videoIds.length || before.videoIds.some((id, i) => id !== after.videoIds[i]);
}

/** A playlist as read back, or null when the row or document does not hold what was written. */
export function readablePlaylist(p: { playlistId: unknown; title: unknown; owner: unknown; ownerChannelId: unknown; state: unknown; videoIds: unknown; listedAt: unknown; changedAt: unknown }): PlaylistRecord | null {
  const text = (v: unknown): v is string | null => v === null || typeof v === 'string';
  const date = (v: unknown): v is Date => v instanceof Date && !Number.isNaN(v.getTime());
  if (typeof p.playlistId !== 'string' || !text(p.title) || !text(p.owner) || !text(p.ownerChannelId) || !PLAYLIST_STATES.includes(p.state)) return null;
  if (!Array.isArray(p.videoIds) || !p.videoIds.every((id) => typeof id === 'string') || !date(p.listedAt) || !date(p.changedAt)) return null;
  return p as PlaylistRecord;
}

// ── what operators see ─────────────────────────────────────────────────────

/** Runs kept per channel: the admin endpoint shows a channel's last 20. */
export const RUNS_KEPT_PER_CHANNEL = 20;
/** A heartbeat this old belongs to a crawler that is gone for good: dropped from the store. */
export const HEARTBEAT_KEPT_MS = 7 * 24 * 3_600_000;
/** Hourly counts kept: the status page charts the last day. */
export const HOURLY_KEPT_MS = 48 * 3_600_000;
/** A crawler whose heartbeat is older than this is shown as down. */
export const HEARTBEAT_DOWN_MS = 60_000;

/** The UTC hour holding `now`, as epoch ms. */
export const hourOf = (now: Date): number => Math.floor(now.getTime() / 3_600_000) * 3_600_000;

/** Videos of each state, all zero. */
export const noVideos = (): Record<'ready' | 'no_transcript' | 'unavailable' | 'failed', number> => ({ ready: 0, no_transcript: 0, failed: 0, unavailable: 0 });
