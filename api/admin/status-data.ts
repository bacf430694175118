// What the status page shows, read from the store in one go: every crawler's heartbeat (down when
// silent for more than HEARTBEAT_DOWN_MS), the queue, the hourly counts of the last day, the
// channels with the most failures first, the last runs and the store's size.

import { HEARTBEAT_DOWN_MS, hourOf } from '../../shared/store/rules';
import type { ChannelRunRecord, CrawlerHeartbeat, HourlyCounts, QueueSummary, Store, StoreSize, SummaryKey, SummaryQueueCounts } from '../../shared/store/types';
import { defaultSummaryKey } from '../feed/summaries';
import { channelViews, type ChannelView } from './channel-view';
import { CHART_HOURS } from './status-chart';

export const STATUS_RUNS = 50;
export const STATUS_CHANNELS = 100;

export interface StatusData {
  now: Date;
  version: string;
  storeKind: Store['kind'];
  crawlers: { heartbeat: CrawlerHeartbeat; down: boolean }[];
  queue: QueueSummary;
  hourly: HourlyCounts[];
  channels: ChannelView[];
  runs: ChannelRunRecord[];
  size: StoreSize;
  /** Each key's imported work still waiting (its label, never the key), most queued first. */
  imports: { label: string; queued: number; handles: number }[];
  /** Summaries (issue 31) under the shown key: made, failed (no valid point twice), waiting; left out: no row. */
  summaries?: SummaryQueueCounts & { key: SummaryKey };
}

/** Import queues shown at most; the rest are summed up in one line. */
export const STATUS_IMPORT_KEYS = 20;

export const isDown = (h: CrawlerHeartbeat, now: Date): boolean => now.getTime() - h.at.getTime() > HEARTBEAT_DOWN_MS;

/** The label of a configured key by its keyId, or null for a key no longer in the key file. */
export type KeyLabels = (keyId: string) => string | null;

export async function readStatus(store: Store, now: Date, version: string, labels: KeyLabels = () => null, summaryKey: SummaryKey = defaultSummaryKey()): Promise<StatusData> {
  const [heartbeats, queue, hourly, failing, runs, size, imports, summaries] = await Promise.all([
    store.listHeartbeats(),
    store.queueSummary(now),
    store.hourlyCounts(new Date(hourOf(now) - (CHART_HOURS - 1) * 3_600_000)),
    store.listChannelsByFailures(STATUS_CHANNELS),
    store.listRuns(null, STATUS_RUNS),
    store.storeSize(),
    store.importQueues(),
    store.summaryCounts(summaryKey, now),
  ]);
  return {
    now,
    version,
    storeKind: store.kind,
    crawlers: heartbeats.map((heartbeat) => ({ heartbeat, down: isDown(heartbeat, now) })),
    queue,
    hourly,
    channels: await channelViews(store, failing, now),
    runs,
    size,
    imports: imports
      .sort((a, b) => b.queued - a.queued || b.handles - a.handles)
      .map((q) => ({ label: labels(q.keyId) ?? 'a key no longer configured', queued: q.queued, handles: q.handles })),
    summaries: { ...summaries, key: summaryKey },
  };
}
