// A channel as an admin sees it (GET /admin/channels, /admin/channels/<id>, the status page): the
// work item, its stored videos by state, how much of the wanted window a feed shows, its last run,
// its schedule and failures, the languages readers asked for, and how many keys follow it. Built
// from a handful of indexed store reads per channel; a page of many channels yields to other
// requests every few channels, since the SQLite store answers on the event loop.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { isFeedEntry, noVideos } from '../../shared/store/rules';
import type { ChannelRecord, ChannelRunRecord, ChannelStats, VideoStateCounts, WebSubRecord, ChannelViewStore } from '../../shared/store/types';


/** Languages listed per channel: the crawler fetches at most this many besides the default. */
const LANGUAGES_SHOWN = 10;
const YIELD_EVERY = 25;

export interface RunView {
  started_at: string;
  ended_at: string;
  crawler: string;
  outcome: string;
  error: string | null;
  stored: number;
}

/** A channel's push subscription as an operator needs it (never its token or secret). */
export interface PushView {
  status: WebSubRecord['status'];
  requested_at: string | null;
  verified_at: string | null;
  lease_expires_at: string | null;
  next_action_at: string;
  failures: number;
  error: string | null;
}

export interface ChannelView {
  id: string;
  /** `playlist` for a playlist's work item: its videos are those its listing names, in its order. */
  kind: ChannelRecord['kind'];
  handle: string | null;
  title: string | null;
  followers: number;
  wanted: number;
  videos: VideoStateCounts;
  /** The wanted window: its stored regular videos, how many a feed shows, that as a percentage (null with none stored). */
  coverage: { window: number; shown: number; percent: number | null };
  last_run: { at: string; outcome: string | null; error: string | null; stored: number | null } | null;
  next_due: string;
  /** The crawler holding the channel's lease right now, or null. */
  running: string | null;
  failures_in_a_row: number;
  languages: string[];
  /** Push at the platform's hub: null where none was asked for (no public address, or a playlist). */
  push: PushView | null;
  created_at: string;
}

export const runView = (r: ChannelRunRecord): RunView => ({
  started_at: r.startedAt.toISOString(),
  ended_at: r.endedAt.toISOString(),
  crawler: r.owner,
  outcome: r.outcome,
  error: r.error,
  stored: r.stored,
});

export const percentOf = (shown: number, window: number): number | null => (window === 0 ? null : Math.round((1000 * shown) / window) / 10);

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

const pushView = (w: WebSubRecord): PushView => ({
  status: w.status,
  requested_at: iso(w.requestedAt),
  verified_at: iso(w.verifiedAt),
  lease_expires_at: iso(w.leaseExpiresAt),
  next_action_at: w.nextActionAt.toISOString(),
  failures: w.failures,
  error: w.lastError,
});

/**
 * A playlist's videos by state and its window (its first `wanted` entries in playlist order), from
 * its last listing: the store counts a channel's videos by channel id, which a playlist's are not.
 */
async function playlistStats(store: ChannelViewStore, c: ChannelRecord, followers: number): Promise<ChannelStats> {
  const videos = noVideos();
  const playlist = await store.getPlaylist(c.channelId);
  const ids = playlist?.videoIds ?? [];
  const stored = ids.length === 0 ? [] : await store.getVideos(ids);
  for (const v of stored) if (v.state in videos) videos[v.state] += 1;
  const wanted = new Set(ids.slice(0, Math.max(0, c.wanted)));
  const inWindow = stored.filter((v) => wanted.has(v.videoId));
  const windowShown = inWindow.filter((v) => isFeedEntry(v.state, v.nextAttemptAt)).length;
  return { channelId: c.channelId, videos, window: inWindow.length, windowShown, followers };
}

function view(c: ChannelRecord, stats: ChannelStats, last: ChannelRunRecord | undefined, languages: string[], push: WebSubRecord | undefined, now: Date): ChannelView {
  // The run record carries what it stored; a channel released before runs were recorded has only its own fields.
  const lastRun = c.lastCrawlAt === null
    ? null
    : { at: c.lastCrawlAt.toISOString(), outcome: c.lastOutcome, error: c.lastError, stored: last && last.endedAt.getTime() === c.lastCrawlAt.getTime() ? last.stored : null };
  return {
    id: c.channelId,
    kind: c.kind,
    handle: c.handle,
    title: c.title,
    followers: stats.followers,
    wanted: c.wanted,
    videos: stats.videos,
    coverage: { window: stats.window, shown: stats.windowShown, percent: percentOf(stats.windowShown, stats.window) },
    last_run: lastRun,
    next_due: c.dueAt.toISOString(),
    running: c.leaseOwner !== null && c.leaseExpiresAt !== null && c.leaseExpiresAt > now ? c.leaseOwner : null,
    failures_in_a_row: c.consecutiveFailures,
    languages,
    push: push === undefined ? null : pushView(push),
    created_at: c.createdAt.toISOString(),
  };
}

/** The views of these channels, in their order. */
export async function channelViews(store: ChannelViewStore, channels: readonly ChannelRecord[], now: Date): Promise<ChannelView[]> {
  const out: ChannelView[] = [];
  for (let i = 0; i < channels.length; i += YIELD_EVERY) {
    if (i > 0) await nextTurn();
    const slice = channels.slice(i, i + YIELD_EVERY);
    const stats = await store.channelStats(slice.map((c) => ({ channelId: c.channelId, wanted: c.wanted })));
    const channelIds = slice.filter((c) => c.kind === 'channel').map((c) => c.channelId);
    const pushes = new Map((await store.webSubStates(channelIds, channelIds.length)).map((w) => [w.channelId, w]));
    for (const [j, c] of slice.entries()) {
      const [last] = await store.listRuns(c.channelId, 1);
      const cs = c.kind === 'playlist' ? await playlistStats(store, c, stats[j]!.followers) : stats[j]!;
      out.push(view(c, cs, last, await store.wantedLanguages(c.channelId, LANGUAGES_SHOWN, now), pushes.get(c.channelId), now));
    }
  }
  return out;
}
