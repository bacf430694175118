// The crawler's Prometheus metrics (prom-client): one set per process, recorded where things happen
// (the platform client's answers, the blocked path, the budget, the browser, batches, runs, leases)
// and served on CRAWLER_METRICS_PORT when it is set (crawler-metrics-server.ts). Every label value is
// from a small fixed set: endpoints, client names, outcomes and kinds — never a channel or video id.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PlatformRequestEvent } from '../shared/platform/http-client';
import type { BlockKind, PlatformError } from '../shared/platform/types';
import type { LeftOutClient } from '../shared/platform/client-exclusions';

/** What the gauges read when scraped: set by main() once the budget and store exist. */
export interface CrawlerGaugeSources {
  budgetUsed(): number;
  budgetLimit(): number;
  coolDownUntil(): Date | null;
  /** Channels due now and not leased (the queue); null when the store cannot say right now. */
  queueLength(): Promise<number | null>;
  /** Player clients left out of this process (shared/platform/client-exclusions.ts). */
  leftOutClients?(): readonly Pick<LeftOutClient, 'client' | 'version' | 'why'>[];
}

/** A block's label: the kind the classifier gave it (shared/platform/classify.ts), `other` when it gave none. */
export const blockKind = ({ block }: Pick<PlatformError, 'block'>): BlockKind | 'other' => block ?? 'other';

const CLIENTS: ReadonlySet<string> = new Set(['VISIONOS', 'ANDROID', 'TVHTML5', 'WEB_EMBEDDED_PLAYER', 'WEB', 'browser', 'none']);

export class CrawlerMetrics {
  readonly registry = new Registry();
  private sources: CrawlerGaugeSources | null = null;

  private readonly requests = new Counter({
    name: 'transcript_feed_platform_requests_total', help: 'requests sent to the platform, by endpoint, player client and how the answer was judged',
    labelNames: ['endpoint', 'client', 'outcome'] as const, registers: [this.registry],
  });
  private readonly bytes = new Counter({
    name: 'transcript_feed_platform_response_bytes_total', help: 'bytes of platform answers (decompressed), by endpoint',
    labelNames: ['endpoint'] as const, registers: [this.registry],
  });
  private readonly blocks = new Counter({
    name: 'transcript_feed_platform_blocks_total', help: 'blocks the crawler met (each blocked request), by kind',
    labelNames: ['kind'] as const, registers: [this.registry],
  });
  private readonly proxySwitches = new Counter({
    name: 'transcript_feed_proxy_switches_total', help: 'moves to the next outbound proxy, by why (blocked, unreachable)',
    labelNames: ['reason'] as const, registers: [this.registry],
  });
  private readonly coolDowns = new Counter({
    name: 'transcript_feed_crawler_cool_downs_total', help: 'process-wide cool-downs started after "try again later"', registers: [this.registry],
  });
  private readonly browserRuns = new Counter({
    name: 'transcript_feed_browser_runs_total', help: 'browser fallback uses, by kind (unblock, transcript) and outcome',
    labelNames: ['kind', 'outcome'] as const, registers: [this.registry],
  });
  private readonly browserSeconds = new Histogram({
    name: 'transcript_feed_browser_run_duration_seconds', help: 'time one browser fallback use took, queueing included, by kind',
    labelNames: ['kind'] as const, buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120], registers: [this.registry],
  });
  private readonly videosStored = new Counter({
    name: 'transcript_feed_videos_stored_total', help: 'video records written by batches, by state (ready, no_transcript, unavailable, …)',
    labelNames: ['state'] as const, registers: [this.registry],
  });
  private readonly runs = new Counter({
    name: 'transcript_feed_channel_runs_total', help: 'channel runs ended, by outcome',
    labelNames: ['outcome'] as const, registers: [this.registry],
  });
  private readonly leasesLost = new Counter({
    name: 'transcript_feed_lease_renewals_lost_total', help: 'runs stopped because their lease could not be renewed (another crawler took the channel)', registers: [this.registry],
  });

  constructor() {
    const sources = (): CrawlerGaugeSources | null => this.sources;
    new Gauge({
      name: 'transcript_feed_crawler_budget_used_requests', help: 'platform requests counted in the last hour (CRAWL_REQUESTS_PER_HOUR paces them)', registers: [this.registry],
      collect() { const s = sources(); if (s) this.set(s.budgetUsed()); },
    });
    new Gauge({
      name: 'transcript_feed_crawler_budget_limit_requests', help: 'CRAWL_REQUESTS_PER_HOUR (0 = no limit)', registers: [this.registry],
      collect() { const s = sources(); if (s) this.set(s.budgetLimit()); },
    });
    new Gauge({
      name: 'transcript_feed_crawler_cool_down_until_seconds', help: 'end of the cool-down under way as a Unix time; 0 when none', registers: [this.registry],
      collect() { const s = sources(); if (s) this.set((s.coolDownUntil()?.getTime() ?? 0) / 1000); },
    });
    new Gauge({
      name: 'transcript_feed_player_client_left_out', help: 'player clients this crawler has left out after answers about themselves (1 each), by client, version and why (retired, client_fault)',
      labelNames: ['client', 'version', 'why'] as const, registers: [this.registry],
      collect() {
        this.reset();
        for (const c of sources()?.leftOutClients?.() ?? []) this.labels(c.client, c.version, c.why).set(1);
      },
    });
    new Gauge({
      name: 'transcript_feed_crawler_queue_length', help: 'channels due now and not leased by any crawler', registers: [this.registry],
      async collect() { const s = sources(); const n = s ? await s.queueLength() : null; if (n !== null) this.set(n); },
    });
  }

  /** Gives the gauges what they read; until then they report nothing. */
  watch(sources: CrawlerGaugeSources): void {
    this.sources = sources;
  }

  readonly platformRequest = (e: PlatformRequestEvent): void => {
    const client = e.client === undefined ? 'none' : CLIENTS.has(e.client) ? e.client : 'other';
    this.requests.labels(e.endpoint, client, e.outcome).inc();
    if (e.bytes > 0) this.bytes.labels(e.endpoint).inc(e.bytes);
  };

  block(err: Pick<PlatformError, 'block'>): void {
    this.blocks.labels(blockKind(err)).inc();
  }

  proxySwitch(reason: 'blocked' | 'unreachable'): void {
    this.proxySwitches.labels(reason).inc();
  }

  coolDown(): void {
    this.coolDowns.inc();
  }

  /** Times one browser use; its outcome comes from its result (or `error` when it threw). */
  async browserRun<T>(kind: 'unblock' | 'transcript', work: Promise<T>, outcome: (value: T) => string): Promise<T> {
    const end = this.browserSeconds.labels(kind).startTimer();
    try {
      const value = await work;
      this.browserRuns.labels(kind, outcome(value)).inc();
      return value;
    } catch (err) {
      this.browserRuns.labels(kind, 'error').inc();
      throw err;
    } finally {
      end();
    }
  }

  stored(states: readonly string[]): void {
    for (const state of states) this.videosStored.labels(state).inc();
  }

  runEnded(outcome: string): void {
    this.runs.labels(outcome).inc();
  }

  leaseLost(): void {
    this.leasesLost.inc();
  }
}

/** The process's one set: every module records into it, the metrics server serves it. */
export const crawlerMetrics = new CrawlerMetrics();
