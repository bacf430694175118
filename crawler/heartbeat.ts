// The crawler's heartbeat: about every HEARTBEAT_EVERY_MS it writes what it is doing to the store
// (one record per owner, replaced), and adds the videos stored and platform requests made since the
// last beat to the store's hourly counts (the status page's chart). A crawler whose heartbeat is
// older than a minute is shown as down. A beat that cannot be written is logged once per outage and
// its counts are carried into the next beat, so the hourly counts lose nothing to a store hiccup.

import pkg from '../package.json';
import { categoryLogger, type Logger } from '../shared/logger';
import type { CrawlerHeartbeat, CrawlerState, PlayerClientLeftOut, ProxyState, Store } from '../shared/store/types';
import { realEvery, type Every } from './lease-keeper';
import type { RequestBudget } from './request-budget';
import type { CrawlerStatus } from './status';

export const HEARTBEAT_EVERY_MS = 10_000;
export const CRAWLER_VERSION: string = pkg.version;

export interface HeartbeatOptions {
  readonly store: Store;
  readonly owner: string;
  readonly status: CrawlerStatus;
  readonly budget: RequestBudget;
  /** Platform requests sent so far (a counter that only grows). */
  readonly requestCount: () => number;
  readonly proxies?: () => ProxyState[];
  readonly browserRuns?: () => number;
  /** Player clients the platform client has left out (shared/platform/client-exclusions.ts). */
  readonly playerClientsLeftOut?: () => PlayerClientLeftOut[];
  readonly now: () => Date;
  readonly logger: Logger;
  readonly every?: Every;
  readonly everyMs?: number;
}

export class Heartbeat {
  private readonly startedAt: Date;
  private readonly log: Logger;
  private cancel: (() => void) | null = null;
  private beating: Promise<void> | null = null;
  private counted = { videos: 0, requests: 0 };
  private failing = false;

  constructor(private readonly o: HeartbeatOptions) {
    this.startedAt = o.now();
    this.log = categoryLogger(o.logger, 'crawler.heartbeat');
    this.counted = { videos: o.status.videosStored, requests: o.requestCount() };
  }

  /** Beats now and then every HEARTBEAT_EVERY_MS. */
  start(): void {
    if (this.cancel) return;
    void this.beat();
    this.cancel = (this.o.every ?? realEvery)(this.o.everyMs ?? HEARTBEAT_EVERY_MS, () => void this.beat());
  }

  /** The last beat, saying `stopped`. */
  async stop(): Promise<void> {
    this.cancel?.();
    this.cancel = null;
    await this.beating;
    await this.beat('stopped');
  }

  /** What the heartbeat says right now. */
  snapshot(state?: CrawlerState): CrawlerHeartbeat {
    const { status, budget } = this.o;
    const wait = budget.waiting;
    let shown: CrawlerState = state ?? status.state;
    let until: Date | null = status.state === 'blocked' ? status.blockedUntil : null;
    if (state === undefined && wait !== null) {
      shown = wait.kind === 'cool-down' ? 'cooling_down' : 'waiting_for_budget';
      until = wait.until;
    }
    return {
      owner: this.o.owner,
      startedAt: this.startedAt,
      version: CRAWLER_VERSION,
      state: shown,
      until: shown === 'stopped' || shown === 'idle' ? null : until,
      channelId: shown === 'stopped' ? null : status.channelId,
      batch: shown === 'stopped' ? null : status.batch,
      requestsLastHour: budget.usedInLastHour(),
      budgetPerHour: budget.perHour,
      proxies: this.o.proxies?.() ?? [],
      browserRuns: this.o.browserRuns?.() ?? 0,
      playerClientsLeftOut: this.o.playerClientsLeftOut?.() ?? [],
      at: this.o.now(),
    };
  }

  /** One beat; never throws. Beats never overlap: a slow store makes the next one wait. */
  beat(state?: CrawlerState): Promise<void> {
    const run = (this.beating ?? Promise.resolve()).then(() => this.write(state));
    this.beating = run;
    return run;
  }

  private async write(state?: CrawlerState): Promise<void> {
    const heartbeat = this.snapshot(state);
    const videos = this.o.status.videosStored;
    const requests = this.o.requestCount();
    try {
      await this.o.store.putHeartbeat(heartbeat);
      await this.o.store.addHourlyCounts({ videosStored: videos - this.counted.videos, platformRequests: requests - this.counted.requests }, heartbeat.at);
      this.counted = { videos, requests };
      if (this.failing) this.log.info({}, 'heartbeat written again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.log.warning({ err }, 'heartbeat not written; trying again at the next beat');
      this.failing = true;
    }
  }
}
