// The summary queue (issue 31): its own loop beside the scheduler, never awaited by it, so a model
// server that is down, slow, rate-limiting or talking nonsense cannot stop or slow transcript
// fetching. It claims videos through the store (two crawlers never summarise the same one; a crash's
// lease ends), one at a time, within the daily caps every crawler shares; a model fault pauses the
// whole queue (Retry-After when the server gave one, else doubling) and gives the video back.

import type { Logger } from '../../shared/logger';
import type { StoredTextStore, SummaryCaps, SummaryStore } from '../../shared/store/types';
import { ModelFault } from '../../shared/summary/model-client';
import type { Ask } from '../../shared/summary/summarise';
import type { Timing } from '../timing';
import { summariseVideo, summaryKeyOf, type SummaryJobSettings } from './summary-job';
import type { SummaryMetrics } from './summary-metrics';

export type SummaryQueueStore = SummaryStore & StoredTextStore;

export interface SummaryQueueOptions {
  store: SummaryQueueStore;
  /** The model, its requests ended by `stop` when the crawler stops. */
  askFor: (stop: AbortSignal) => Ask;
  settings: SummaryJobSettings;
  caps: SummaryCaps;
  owner: string;
  pollMs: number;
  /** Longer than one video's requests can take (SUMMARY_TIMEOUT_MS per request, a few requests). */
  leaseMs: number;
  timing: Timing;
  logger: Logger;
  metrics?: SummaryMetrics;
}

export const FIRST_PAUSE_MS = 30_000;
export const MAX_PAUSE_MS = 30 * 60_000;
/** A video the model answered twice without a valid point waits this long before a new try. */
export const FAILED_RETRY_MS = 24 * 3_600_000;

/** What the status page shows of this crawler's queue. */
export interface SummaryQueueState {
  pausedUntil: Date | null;
  lastFault: string | null;
}

export interface SummaryQueue {
  readonly state: SummaryQueueState;
  stop(): Promise<void>;
}

const utcDay = (d: Date): string => d.toISOString().slice(0, 10);
const nextUtcDay = (d: Date): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));

export function startSummaryQueue(o: SummaryQueueOptions): SummaryQueue {
  const stopping = new AbortController();
  const key = summaryKeyOf(o.settings);
  const ask = o.askFor(stopping.signal);
  const state: SummaryQueueState = { pausedUntil: null, lastFault: null };
  let pauseMs = 0;

  /** One claimed video; returns how long to wait before the next (0: go on at once). */
  const one = async (): Promise<number> => {
    const now = o.timing.now();
    const [videoId] = await o.store.claimSummaries(key, o.owner, now, o.leaseMs, 1);
    if (videoId === undefined) return o.pollMs;
    if (!(await o.store.takeSummaryAllowance(utcDay(now), o.caps))) {
      const tomorrow = nextUtcDay(now);
      await o.store.deferSummary(videoId, key, o.owner, { error: 'daily summary cap reached', retryAt: tomorrow, failed: false });
      o.logger.info({ until: tomorrow }, 'summary daily cap reached (SUMMARY_VIDEOS_PER_DAY / SUMMARY_TOKENS_PER_DAY): the queue waits for the next UTC day');
      return Math.max(o.pollMs, tomorrow.getTime() - now.getTime());
    }
    try {
      const result = await summariseVideo(o.store, ask, videoId, o.settings, () => o.timing.now());
      const spent = result.outcome ? result.outcome.promptTokens + result.outcome.completionTokens : 0;
      await o.store.addSummaryTokens(utcDay(now), spent);
      if (result.kind === 'made') {
        await o.store.putSummary(result.record, o.owner);
        o.metrics?.recordMade(result.outcome.promptTokens, result.outcome.completionTokens);
        o.logger.info({ videoId, points: result.record.points.length, calls: result.outcome.calls }, 'summary stored');
      } else {
        await o.store.deferSummary(videoId, key, o.owner, { error: result.why, retryAt: new Date(o.timing.now().getTime() + FAILED_RETRY_MS), failed: true });
        o.metrics?.recordFailed(result.outcome?.promptTokens ?? 0, result.outcome?.completionTokens ?? 0);
        o.logger.warning({ videoId, why: result.why }, 'summary failed; tried again after a day');
      }
      pauseMs = 0;
      state.pausedUntil = null;
      return 0;
    } catch (err) {
      if (!(err instanceof ModelFault)) throw err;
      if (stopping.signal.aborted) {
        await o.store.deferSummary(videoId, key, o.owner, { error: 'the crawler stopped', retryAt: o.timing.now(), failed: false });
        return 0;
      }
      pauseMs = err.retryAfterMs ?? Math.min(MAX_PAUSE_MS, pauseMs === 0 ? FIRST_PAUSE_MS : pauseMs * 2);
      const until = new Date(o.timing.now().getTime() + pauseMs);
      state.pausedUntil = until;
      state.lastFault = `${err.kind}: ${err.message}`;
      o.metrics?.recordFault(err.kind);
      await o.store.deferSummary(videoId, key, o.owner, { error: err.message, retryAt: until, failed: false });
      o.logger.warning({ videoId, fault: err.kind, pauseMs }, `summary model fault (${err.message}); the summary queue pauses, transcripts go on`);
      return pauseMs;
    }
  };

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let waitMs: number;
      try {
        waitMs = await one();
      } catch (err) {
        // A store outage: the claim's lease ends on its own; try again at the next poll.
        o.logger.warning({ err }, 'summary queue could not reach the store; trying again at the next poll');
        waitMs = o.pollMs;
      }
      if (waitMs > 0) await o.timing.sleep(waitMs, stopping.signal);
    }
  })();

  return {
    state,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
