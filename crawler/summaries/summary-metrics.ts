// The summary queue's Prometheus metrics, on the crawler's one registry: summaries made, failed
// (no valid point twice), model faults by kind, tokens in and out (from the answers' usage), and
// the queue's length read from the store when scraped.

import { Counter, Gauge, type Registry } from 'prom-client';
import type { FaultKind } from '../../shared/summary/model-client';

export class SummaryMetrics {
  private readonly made: Counter;
  private readonly failed: Counter;
  private readonly faults: Counter<'kind'>;
  private readonly tokens: Counter<'direction'>;
  private waiting: () => Promise<number | null> = async () => null;

  constructor(registry: Registry) {
    this.made = new Counter({ name: 'transcript_feed_summaries_made_total', help: 'summaries made and stored', registers: [registry] });
    this.failed = new Counter({ name: 'transcript_feed_summaries_failed_total', help: 'videos whose model answers held no valid point twice (marked failed, tried again after a backoff)', registers: [registry] });
    this.faults = new Counter({ name: 'transcript_feed_summary_model_faults_total', help: 'model requests that failed, by kind (refused, timeout, rate-limited, server, garbage)', labelNames: ['kind'] as const, registers: [registry] });
    this.tokens = new Counter({ name: 'transcript_feed_summary_tokens_total', help: 'tokens the model counted, in (prompt) and out (completion)', labelNames: ['direction'] as const, registers: [registry] });
    const read = (): Promise<number | null> => this.waiting().catch(() => null);
    new Gauge({
      name: 'transcript_feed_summary_queue_length', help: 'videos with a transcript waiting for a summary (not backing off)', registers: [registry],
      async collect() {
        const n = await read();
        if (n !== null) this.set(n);
      },
    });
  }

  /** What the queue-length gauge reads when scraped. */
  readQueueFrom(waiting: () => Promise<number | null>): void {
    this.waiting = waiting;
  }

  recordMade(promptTokens: number, completionTokens: number): void {
    this.made.inc();
    this.recordTokens(promptTokens, completionTokens);
  }

  recordFailed(promptTokens: number, completionTokens: number): void {
    this.failed.inc();
    this.recordTokens(promptTokens, completionTokens);
  }

  recordFault(kind: FaultKind): void {
    this.faults.inc({ kind });
  }

  private recordTokens(promptTokens: number, completionTokens: number): void {
    this.tokens.inc({ direction: 'in' }, promptTokens);
    this.tokens.inc({ direction: 'out' }, completionTokens);
  }
}
