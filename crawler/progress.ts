// Progress of a channel's first crawl, in the log: a first crawl of a big channel under the gentle
// profile takes an hour or more, and the operator wants to know how far it has come. After each
// batch but the last: `channel Title (UC…): 120/400 videos stored, about 12 min left at the current
// pace`, the pace being the time per video so far (waits between batches and requests included).

import type { Logger } from '../shared/logger';
import type { ChannelRecord } from '../shared/store/types';

/** A first crawl of more batches than this logs its progress. */
export const PROGRESS_MIN_BATCHES = 3;

export interface Progress {
  /** After a batch: `done` videos handled so far (stored or skipped), `stored` of them written. */
  afterBatch(log: Logger, done: number, stored: number, more: boolean, now: Date): void;
}

/** "about 12 min", "about 2 h 5 min", "less than a minute". */
export function aboutTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 90) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const channelLabel = (c: Pick<ChannelRecord, 'channelId' | 'title'>): string => (c.title ? `${c.title} (${c.channelId})` : c.channelId);

/** Null when the run is not a first crawl longer than PROGRESS_MIN_BATCHES batches. */
export function firstCrawlProgress(channel: ChannelRecord, batches: number, videos: number, start: Date): Progress | null {
  if (channel.lastCrawlAt !== null || batches <= PROGRESS_MIN_BATCHES) return null;
  const label = channelLabel(channel);
  return {
    afterBatch(log, done, stored, more, now) {
      if (!more || done === 0) return;
      const leftMs = ((now.getTime() - start.getTime()) / done) * (videos - done);
      log.info(
        { channelId: channel.channelId, stored, done, of: videos, minutesLeft: Math.round(leftMs / 60_000) },
        `channel ${label}: ${stored}/${videos} videos stored, ${aboutTime(leftMs)} left at the current pace`,
      );
    },
  };
}
