// One run over a claimed channel: learn what needs work (channel-listing.ts: the feed, browse pages
// only when the feed cannot vouch for the wanted window, and the stored videos due for a retry),
// cut it into the profile's batches, and process and store batch after batch with the profile's
// pause between them. Store failures propagate (the scheduler pauses on them); platform failures
// become the run's outcome.

import { LANGUAGES_KEPT_PER_CHANNEL } from '../shared/store/language-choice';
import type { CrawlProfile } from '../shared/config/crawl-profile';
import { categoryLogger, type Logger } from '../shared/logger';
import type { Egress } from '../shared/platform/proxies';
import { PlatformError, type PlatformClient, type Unblocker } from '../shared/platform/types';
import type { ChannelRecord, Store } from '../shared/store/types';
import { planBatches } from './batch-plan';
import { runBatch } from './batch-run';
import { BlockedPath, DEFAULT_MAX_BLOCKS, type RequestContext } from './blocked-path';
import { RunBlockedError, RunStoppedError } from './run-ending';
import { listChannel, type ChannelWork } from './channel-listing';
import { listPlaylistWork } from './playlist-listing';
import { videosLackingLanguages } from './language-backfill';
import type { RunOutcome } from './next-due';
import { RequestBudget, DEFAULT_COOL_DOWN_MS } from './request-budget';
import { RequestPacer } from './request-pacer';
import type { PlatformCall, VideoFetchDeps } from './video-fetch';
import { pickMs, type Timing } from './timing';
import { firstCrawlProgress } from './progress';
import type { CrawlerStatus } from './status';

export interface ChannelRunDeps {
  readonly store: Store;
  readonly platform: PlatformClient;
  /** Challenge proxy, then browser: tried in this order after a block. */
  readonly unblockers: readonly Unblocker[];
  readonly profile: CrawlProfile;
  readonly timing: Timing;
  /** Root logger; the run logs under `crawler.batch` and `crawler.blocked`. */
  readonly logger: Logger;
  readonly maxBlocks?: number;
  /**
   * The process's hourly request budget and "try again later" cool-down, shared by every run
   * (crawler/main.ts); left out, this run has no hourly limit and a cool-down of its own.
   */
  readonly budget?: RequestBudget;
  /** The outbound proxies a block rotates (PLATFORM_PROXY_URLS); left out: direct requests. */
  readonly egress?: Egress;
  /** The browser fallback's transcript for a video every app client refuses; left out: none. */
  readonly browserTranscript?: VideoFetchDeps['browserTranscript'];
  /** What this crawler is doing, for its heartbeat; left out: not reported. */
  readonly status?: CrawlerStatus;
}

export interface ChannelRunResult {
  outcome: RunOutcome;
  /** Short reason when the outcome is not `ok`. */
  error: string | null;
  title: string | null;
  listed: number;
  /** Listed videos never stored before this run (new uploads). */
  fresh: number;
  pending: number;
  stored: number;
  skipped: number;
  batchesDone: number;
  batchesPlanned: number;
  /** How the channel was listed; null when the listing failed. */
  listing: ChannelWork['mode'] | null;
  /**
   * The channel's coveredWanted after this run: unchanged when the listing failed (nothing was
   * stored), the listing's coverage when every pending video was stored, else null (unknown).
   */
  coveredWanted: number | null;
  /** The run stopped between two batches to let another key's awaited work go first (ReleaseInput.yielded). */
  yielded: boolean;
}

export interface ChannelRunOptions {
  /**
   * Asked before each batch after the first: true stops the run there (outcome `ok`, coverage
   * unknown, `yielded`), so that another key's awaited channel does not wait for this one's whole
   * first crawl. Left out: the run goes to its end.
   */
  readonly shouldYield?: () => Promise<boolean>;
}

/**
 * How a run (a channel's, or a pushed video's) makes platform requests: the process's hourly
 * budget and any cool-down first, then the profile's wait between requests, all inside the
 * blocked path (docs/crawler.md §4).
 */
export function platformCall(deps: ChannelRunDeps, signal: AbortSignal): { call: PlatformCall; pacer: RequestPacer } {
  const { profile, timing } = deps;
  const budget = deps.budget ?? new RequestBudget({
    perHour: 0, coolDownMs: DEFAULT_COOL_DOWN_MS, timing, sent: () => 0, logger: categoryLogger(deps.logger, 'crawler.pacing'),
  });
  const blocked = new BlockedPath({
    unblockers: deps.unblockers, blockedWaitMs: profile.blockedWaitMs, maxBlocks: deps.maxBlocks ?? DEFAULT_MAX_BLOCKS,
    budget, egress: deps.egress, timing, logger: categoryLogger(deps.logger, 'crawler.blocked'), signal, status: deps.status,
  });
  const pacer = new RequestPacer(profile.requestWaitMs, timing, signal);
  const call = async <T>(ctx: RequestContext, request: () => Promise<T>): Promise<T> =>
    blocked.request(ctx, async () => {
      // The hourly budget and any cool-down first, then the profile's wait between requests.
      await budget.waitForRoom(signal);
      await pacer.beforeRequest();
      try {
        return await request();
      } finally {
        budget.noteSent();
      }
    });
  return { call, pacer };
}

/** Runs the channel until done, blocked for good, or `signal` aborts (then after the current request). */
/** A run's result before it starts: filled in as the run goes, so a run that throws still tells what it stored. */
export function newRunResult(channel: ChannelRecord): ChannelRunResult {
  return {
    outcome: 'ok', error: null, title: channel.title, listed: 0, fresh: 0, pending: 0, stored: 0, skipped: 0, batchesDone: 0, batchesPlanned: 0,
    listing: null, coveredWanted: channel.coveredWanted, yielded: false,
  };
}

/**
 * Runs the channel, filling `result` (the scheduler's, so that when a store failure throws out of
 * the run, its summary still counts the batches stored before it).
 */
export async function runChannel(
  deps: ChannelRunDeps,
  channel: ChannelRecord,
  signal: AbortSignal,
  result: ChannelRunResult = newRunResult(channel),
  options: ChannelRunOptions = {},
): Promise<ChannelRunResult> {
  const { store, platform, profile, timing } = deps;
  const { channelId } = channel;
  const batchLog = categoryLogger(deps.logger, 'crawler.batch');
  const { call, pacer } = platformCall(deps, signal);

  const end = (outcome: RunOutcome, error: string | null): ChannelRunResult => Object.assign(result, { outcome, error });

  let work: ChannelWork;
  try {
    // A playlist differs only in its listing: its own order instead of a channel's uploads.
    const listing = { store, platform, call, logger: batchLog, now: () => timing.now() };
    work = channel.kind === 'playlist' ? await listPlaylistWork(listing, channel) : await listChannel(listing, channel);
  } catch (err) {
    if (err instanceof RunBlockedError) return end('blocked', err.reason);
    if (err instanceof RunStoppedError) return end('stopped', null);
    if (err instanceof PlatformError) return end(err.outcome === 'not_found' ? 'not_found' : 'error', err.reason);
    throw err;
  }
  result.title = work.title ?? channel.title;
  // Named before the first batch is stored: a feed never shows its first entries under the bare
  // channel id (release writes the title too, but only when the whole run has ended).
  if (work.title !== null && work.title !== channel.title) await store.nameChannel(channelId, work.title);
  result.listing = work.mode;
  result.listed = work.listed.length;
  result.fresh = work.fresh;
  // Until every pending video is stored, the store may hold a gap: coverage is unknown.
  result.coveredWanted = null;

  // The languages the channel keeps for its readers (language-choice.ts): fetched with each new
  // video's transcript, and once for the ready videos of the window stored while they were not kept.
  const languages = await store.wantedLanguages(channelId, LANGUAGES_KEPT_PER_CHANNEL, timing.now());
  const backfillLanguages = await store.languagesToBackfill(channelId, LANGUAGES_KEPT_PER_CHANNEL, timing.now());
  const backfill = await videosLackingLanguages(store, work.listed, work.pending, backfillLanguages);
  if (backfill.length > 0) batchLog.info({ channelId, languages: backfillLanguages, videos: backfill.length }, 'stored videos to fetch again for newly asked languages');
  const batches = planBatches([...work.pending, ...backfill], profile.batchSize);
  result.pending = work.pending.length;
  result.batchesPlanned = batches.length;
  batchLog.debug({ channelId, listing: work.mode, listed: result.listed, pending: result.pending, batches: batches.length }, 'batches planned');

  const fetchDeps = { store, platform, call, logger: batchLog, now: () => timing.now(), signal, browserTranscript: deps.browserTranscript, languages };
  const progress = firstCrawlProgress({ ...channel, title: result.title }, batches.length, batches.reduce((n, b) => n + b.length, 0), timing.now());
  for (const [i, batch] of batches.entries()) {
    if (i > 0) {
      if (options.shouldYield !== undefined && !signal.aborted && (await options.shouldYield())) {
        batchLog.info({ channelId, batch: `${i}/${batches.length}`, stored: result.stored }, 'run yields: another key\'s channel is waiting; this one goes on in its next turn');
        result.yielded = true;
        return end('ok', null);
      }
      await timing.sleep(pickMs(profile.batchWaitMs, () => timing.random()), signal);
      pacer.reset();
    }
    if (signal.aborted) return end('stopped', null);

    const started = timing.now().getTime();
    deps.status?.fetching(`${i + 1}/${batches.length}`);
    const done = await runBatch(fetchDeps, channelId, batch);
    if (deps.status) deps.status.videosStored += done.stored;
    result.stored += done.stored;
    result.skipped += done.skipped;
    result.batchesDone += 1;
    batchLog.info(
      { channelId, batch: `${i + 1}/${batches.length}`, stored: done.stored, skipped: done.skipped, ms: timing.now().getTime() - started },
      'batch stored',
    );
    progress?.afterBatch(batchLog, result.stored + result.skipped, result.stored, i + 1 < batches.length, timing.now());
    if (done.ending instanceof RunBlockedError) return end('blocked', done.ending.reason);
    // Stopped between two videos: the tasks skipped the rest without an error to report.
    const cutShort = done.skipped > 0 || i < batches.length - 1;
    if (done.ending instanceof RunStoppedError || (signal.aborted && cutShort)) return end('stopped', null);
  }
  if (result.skipped === 0) {
    result.coveredWanted = work.coverage;
    // Every kept language is now on every video of the window; any other is not (if it is kept
    // again, the videos stored meanwhile are backfilled).
    await store.markLanguagesCovered(channelId, languages, timing.now());
  }
  return result;
}
