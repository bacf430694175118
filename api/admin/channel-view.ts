// A channel as an admin sees it (GET /admin/channels, /admin/channels/<id>, the status page): the
// work item, its stored videos by state, how much of the wanted window a feed shows, its last run,
// its schedule and failures, the languages readers asked for, and how many keys follow it. Built
// from a handful of indexed store reads per channel; a page of many channels yields to other
// requests every few channels, since the SQLite store answers on the event loop.

import type { ChannelRecord, ChannelRunRecord, ChannelStats, Store, VideoStateCounts } from '../../shared/store/types';

export type ViewStore = Pick<Store, 'channelStats' | 'listRuns' | 'wantedLanguages'>;

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

export interface ChannelView {
  id: string;
  /** `playlist` for a playlist's work item (its videos are counted under their own channels). */
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

function view(c: ChannelRecord, stats: ChannelStats, last: ChannelRunRecord | undefined, languages: string[], now: Date): ChannelView {
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
    created_at: c.createdAt.toISOString(),
  };
}

/** The views of these channels, in their order. */
export async function channelViews(store: ViewStore, channels: readonly ChannelRecord[], now: Date): Promise<ChannelView[]> {
  const out: ChannelView[] = [];
  for (let i = 0; i < channels.length; i += YIELD_EVERY) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const slice = channels.slice(i, i + YIELD_EVERY);
    const stats = await store.channelStats(slice.map((c) => ({ channelId: c.channelId, wanted: c.wanted })));
    for (const [j, c] of slice.entries()) {
      const [last] = await store.listRuns(c.channelId, 1);
      out.push(view(c, stats[j]!, last, await store.wantedLanguages(c.channelId, LANGUAGES_SHOWN), now));
    }
  }
  return out;
}
