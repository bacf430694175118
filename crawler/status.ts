// What this crawler is doing right now, kept in memory by the parts that do it (the scheduler, the
// run, the blocked path) and read by the heartbeat (heartbeat.ts), which writes it to the store
// about every 10 s. Waiting for the hourly budget or a cool-down is the request budget's own state.

import type { CrawlerState } from '../shared/store/types';

/** What the run itself is doing; the waits of the request budget are read from the budget. */
export type WorkState = Extract<CrawlerState, 'idle' | 'listing' | 'fetching' | 'blocked'>;

export class CrawlerStatus {
  state: WorkState = 'idle';
  channelId: string | null = null;
  /** `3/10` while fetching. */
  batch: string | null = null;
  /** While waiting out a block: when the wait ends. */
  blockedUntil: Date | null = null;
  /** Video records written since the start (any state): the hourly chart's "videos stored". */
  videosStored = 0;

  working(channelId: string): void {
    Object.assign(this, { state: 'listing', channelId, batch: null, blockedUntil: null });
  }

  fetching(batch: string): void {
    Object.assign(this, { state: 'fetching', batch, blockedUntil: null });
  }

  blocked(until: Date | null): void {
    if (until === null) {
      if (this.state === 'blocked') this.state = this.batch === null ? 'listing' : 'fetching';
      this.blockedUntil = null;
    } else {
      Object.assign(this, { state: 'blocked', blockedUntil: until });
    }
  }

  idle(): void {
    Object.assign(this, { state: 'idle', channelId: null, batch: null, blockedUntil: null });
  }
}
