// The crawler's main loop. It only selects work: claim a channel a reader just asked for, else the
// most overdue one while listings are within their share of the hourly budget (listing-share.ts),
// run it under a renewed lease, release it with the next due time (its upload rhythm after a good
// run, rhythm.ts; a backoff after a failure, next-due.ts), and immediately look for the next; with
// nothing due it sleeps CRAWL_POLL_SECONDS (wake() cuts that short). Once an hour it logs how far
// behind the listing schedule is.
// A store outage pauses the loop with backoff; any other failure is logged and the loop goes on.
// stop() is the drain: no new claims, the current run ends after its request in flight, its
// finished batch is stored and its lease released. Calling stop() twice is harmless.

import { categoryLogger, type Logger } from '../shared/logger';
import { messageOf } from '../shared/error-text';
import { StoreUnavailableError, type ChannelRecord, type ChannelRunRecord, type ReleaseInput, type Store } from '../shared/store/types';
import { newRunResult, runChannel, type ChannelRunDeps, type ChannelRunResult } from './channel-run';
import { keepLease, type Every } from './lease-keeper';
import { DEFAULT_HANDLES_PER_KEY_HOUR, FOLLOWED_WANTED, resolveFollowedHandles } from './handle-resolver';
import { DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR, RELEASE_EVERY_MS, releaseImports } from '../shared/store/import-queue';
import { crawlerMetrics } from './metrics';
import { ListingShare } from './listing-share';
import { runPushedVideo } from './pushed-video';
import { pushActive } from './websub-subscriber';
import { backoffMs, failuresAfter, nextDueAt, type RunOutcome } from './next-due';
import { nodeCronSchedule, type CronHandle, type ScheduleCron } from './hourly-cron';
import { DEFAULT_LISTING_BOUNDS, RHYTHM_SAMPLE, rhythmIntervalMs, type ListingBounds } from './rhythm';

export interface SchedulerOptions {
  readonly runDeps: ChannelRunDeps;
  readonly owner: string;
  readonly leaseMs: number;
  readonly pollMs: number;
  /** CRAWL_LISTING_INTERVAL: the bounds of a polled channel's rhythm. */
  readonly listingBounds?: ListingBounds;
  /** Listings allowed in any hour (half the request budget); left out: no cap. */
  readonly listingShare?: ListingShare;
  /**
   * Push (WebSub) is on (PUBLIC_BASE_URL and WEBSUB_HUB_URL set): pushed videos are fetched
   * without a listing, and a pushed channel is listed only every `safetyPollMs`. Left out: off.
   */
  readonly push?: { readonly safetyPollMs: number };
  /** Runs the hourly schedule report; injected so tests trigger it by hand. */
  readonly scheduleCron?: ScheduleCron;
  readonly every?: Every;
  /** Pause after a store outage: base · 2^(n−1), capped. */
  readonly storeBackoff?: { readonly baseMs: number; readonly capMs: number };
  /**
   * Imports as work keys ask for: new channels each key's imports give the crawler in any hour (the
   * rest wait in the key's queue, released here every RELEASE_EVERY_MS), and platform requests for
   * each key's imported handles in any hour. Left out: the defaults.
   */
  readonly imports?: { readonly channelsPerKeyHour: number; readonly handlesPerKeyHour: number };
}

/** The schedule report: at the top of every hour. */
const HOURLY = '0 * * * *';


/** While channels keep the crawler busy, followed handles still get a round this often. */
export const HANDLE_ROUND_EVERY_MS = 60_000;

/** Attempts at releasing a channel while the store is unavailable, waiting 0.5, 1, 2, 4 s between. */
export const RELEASE_ATTEMPTS = 5;
const RELEASE_RETRY_MS = { baseMs: 500, capMs: 4000 } as const;

export class Scheduler {
  private readonly log: Logger;
  private readonly stopController = new AbortController();
  private wakeController = new AbortController();
  private cron: CronHandle | null = null;
  private loopDone: Promise<void> | null = null;
  private readonly share: ListingShare;
  /** Whether the last claim attempt found the listing share used up (logged once per stretch). */
  private shareFull = false;

  constructor(private readonly o: SchedulerOptions) {
    this.log = categoryLogger(o.runDeps.logger, 'crawler.scheduler');
    this.share = o.listingShare ?? new ListingShare(0, () => this.now().getTime());
  }

  private get store(): Store {
    return this.o.runDeps.store;
  }

  private now(): Date {
    return this.o.runDeps.timing.now();
  }

  get stopping(): boolean {
    return this.stopController.signal.aborted;
  }

  /** Starts the loop and the hourly schedule report. */
  start(): void {
    if (this.loopDone || this.stopping) return;
    this.cron = (this.o.scheduleCron ?? nodeCronSchedule)(HOURLY, () => this.reportSchedule());
    this.loopDone = this.loop();
  }

  /** Resolves when the loop has ended (after stop()). */
  get done(): Promise<void> {
    return this.loopDone ?? Promise.resolve();
  }

  /** Stop claiming, let the current run end after its request in flight, wait for the loop. */
  async stop(): Promise<void> {
    if (!this.stopping) {
      this.log.info({}, 'stopping: no new claims; the current run ends after its request in flight');
      this.stopController.abort();
      this.wakeController.abort();
      await this.cron?.stop();
    }
    await this.done;
  }

  /** Look for due work now instead of at the next poll. */
  wake(): void {
    this.wakeController.abort();
  }

  /** Once an hour: how far behind the listing schedule is, and how much of the share listings used. */
  async reportSchedule(): Promise<void> {
    try {
      const now = this.now();
      const { due, oldestDueAt } = await this.store.listingBacklog(now);
      const behindMinutes = oldestDueAt === null ? 0 : Math.round((now.getTime() - oldestDueAt.getTime()) / 60_000);
      const listings = this.share.usedInLastHour();
      const share = this.share.perHour === 0 ? 'no cap' : this.share.perHour;
      if (due === 0) this.log.info({ due, behindMinutes, listings, share }, 'listing schedule on time');
      else this.log.info({ due, behindMinutes, listings, share }, `listing schedule ${behindMinutes} min behind: ${due} channel(s) due`);
    } catch (err) {
      this.log.warning({ err }, 'could not read the listing schedule; the next hourly report will try again');
    }
  }

  /**
   * The next channel to run: one a reader just asked for (whatever the share says: a reader waits
   * for it), else the most overdue one while listings are within their share of the budget.
   */
  private async claimNext(): Promise<ChannelRecord | null> {
    const now = this.now();
    const asked = await this.store.claimAskedChannel(this.o.owner, this.o.leaseMs, now);
    if (asked) {
      this.share.note();
      return asked;
    }
    if (!this.share.hasRoom()) {
      if (!this.shareFull) {
        this.log.info(
          { share: this.share.perHour, resumeAt: new Date(this.share.roomAtMs()).toISOString() },
          'listings used their half of the hourly request budget; the schedule waits, transcripts keep the other half',
        );
      }
      this.shareFull = true;
      return null;
    }
    this.shareFull = false;
    const channel = await this.store.claimDueChannel(this.o.owner, this.o.leaseMs, now);
    if (channel) this.share.note();
    return channel;
  }

  /** One pushed video, when one is due: fetched without a listing (pushed-video.ts). False when none was due. */
  private async workPushed(): Promise<boolean> {
    const video = await this.store.claimPushedVideo(this.o.owner, this.o.leaseMs, this.now());
    if (video === null) return false;
    const outcome = await runPushedVideo(this.o.runDeps, video, this.o.owner, this.stopController.signal);
    this.log.debug({ channelId: video.channelId, videoId: video.videoId, outcome }, 'pushed video handled');
    return true;
  }

  /**
   * When a channel is listed next after a good run: with push on for it, the safety listing;
   * else by its upload rhythm, from its stored publish dates.
   */
  private async nextListingAt(channel: ChannelRecord, foundNew: boolean, now: Date): Promise<Date> {
    const { channelId } = channel;
    if (this.o.push && channel.kind !== 'playlist') {
      const [push] = await this.store.webSubStates([channelId], 1);
      if (pushActive(push, now)) return new Date(now.getTime() + this.o.push.safetyPollMs);
    }
    const times = channel.kind === 'playlist' ? await this.playlistPublishTimes(channelId) : await this.store.recentPublishTimes(channelId, RHYTHM_SAMPLE);
    const ms = rhythmIntervalMs(times.map((t) => t.getTime()), now.getTime(), this.o.listingBounds ?? DEFAULT_LISTING_BOUNDS, foundNew);
    return new Date(now.getTime() + ms);
  }

  /** A playlist's rhythm: the publish dates of the videos it listed last (they are filed under their channels). */
  private async playlistPublishTimes(playlistId: string): Promise<Date[]> {
    const playlist = await this.store.getPlaylist(playlistId);
    if (playlist === null || playlist.videoIds.length === 0) return [];
    const videos = await this.store.getVideos(playlist.videoIds.slice(0, 100));
    return videos.map((v) => v.publishedAt).sort((a, b) => b.getTime() - a.getTime()).slice(0, RHYTHM_SAMPLE);
  }

  private async loop(): Promise<void> {
    let storeFailures = 0;
    while (!this.stopping) {
      let idleMs = this.o.pollMs;
      try {
        if (storeFailures > 0) {
          // A run the outage cut short could not hand its channel back, and this loop works one
          // channel at a time under an owner name no other process uses: any lease still under
          // that name is such a leftover. Taking it back now spares it CRAWL_LEASE_SECONDS.
          const reclaimed = await this.store.reclaimLeases(this.o.owner, this.now());
          this.log.info({ failures: storeFailures, reclaimed }, 'store is back; resuming');
          storeFailures = 0;
        }
        if (this.now().getTime() - this.releasedAt >= RELEASE_EVERY_MS) await this.releaseQueues();
        if (this.o.push && (await this.workPushed())) continue;
        const channel = await this.claimNext();
        if (channel) {
          await this.work(channel);
          // Handles from imports get a round between runs now and then, not only when nothing is due.
          if (this.now().getTime() - this.handlesAt >= HANDLE_ROUND_EVERY_MS) await this.resolveHandles();
          continue;
        }
        if ((await this.resolveHandles()) > 0) {
          // A resolved handle's channel waits in its keys' queues: give it its turn now.
          await this.releaseQueues();
          continue;
        }
      } catch (err) {
        if (err instanceof StoreUnavailableError) {
          storeFailures += 1;
          const b = this.o.storeBackoff ?? { baseMs: 1000, capMs: 60_000 };
          idleMs = backoffMs(storeFailures, b.baseMs, b.capMs);
          this.log.warning({ err, failures: storeFailures, ms: idleMs }, 'store unavailable; pausing');
        } else {
          this.log.error({ err }, 'unexpected error in the crawler loop');
        }
      }
      await this.idle(idleMs);
    }
    this.log.info({}, 'crawler loop ended');
  }

  /**
   * releaseChannel, tried again while the store is briefly unavailable (another process holding the
   * write lock): a lease left to expire would keep the channel from everyone for CRAWL_LEASE_SECONDS.
   * Not cut short by stop(): handing the channel back is part of the drain.
   */
  private async release(channelId: string, input: ReleaseInput, now: Date): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.releaseChannel(channelId, this.o.owner, input, now);
      } catch (err) {
        if (!(err instanceof StoreUnavailableError) || attempt >= RELEASE_ATTEMPTS) throw err;
        const waitMs = backoffMs(attempt, RELEASE_RETRY_MS.baseMs, RELEASE_RETRY_MS.capMs);
        this.log.warning({ channelId, err, attempt, ms: waitMs }, 'release failed; trying again');
        await this.o.runDeps.timing.sleep(waitMs);
      }
    }
  }

  private handlesAt = Number.NEGATIVE_INFINITY;
  private releasedAt = Number.NEGATIVE_INFINITY;

  /** Keys' import queues get the room their hour has made; a failure other than a store outage is logged and left for the next pass. */
  private async releaseQueues(): Promise<void> {
    this.releasedAt = this.now().getTime();
    try {
      const perKeyHour = this.o.imports?.channelsPerKeyHour ?? DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR;
      const released = await releaseImports(this.store, { perKeyHour, wanted: FOLLOWED_WANTED }, this.now());
      if (released > 0) this.log.info({ released, perKeyHour }, 'imported channels left their keys\' queues for the crawler');
    } catch (err) {
      if (err instanceof StoreUnavailableError) throw err;
      this.log.warning({ err }, 'releasing imported channels failed; the next pass tries again');
    }
  }

  /** One round of handles followed by imports; a failure is logged and left for the next round. */
  private async resolveHandles(): Promise<number> {
    this.handlesAt = this.now().getTime();
    try {
      const handlesPerKeyHour = this.o.imports?.handlesPerKeyHour ?? DEFAULT_HANDLES_PER_KEY_HOUR;
      return await resolveFollowedHandles({ ...this.o.runDeps, handlesPerKeyHour }, this.stopController.signal);
    } catch (err) {
      if (err instanceof StoreUnavailableError) throw err;
      if (!this.stopping) this.log.warning({ err }, 'resolving followed handles failed; the next round tries again');
      return 0;
    }
  }

  /** The run's line in the store's history (admin endpoints, status page); a failure loses only that line. */
  private async recordRun(run: ChannelRunRecord): Promise<void> {
    try {
      await this.store.recordRun(run);
    } catch (err) {
      this.log.warning({ channelId: run.channelId, err }, 'could not record the run in the history');
    }
  }

  private async idle(ms: number): Promise<void> {
    if (this.stopping) return;
    if (this.wakeController.signal.aborted) this.wakeController = new AbortController();
    await this.o.runDeps.timing.sleep(ms, this.wakeController.signal);
  }

  /** One claimed channel, from run to release. Store outages propagate to the loop (it pauses). */
  private async work(channel: ChannelRecord): Promise<void> {
    const { channelId } = channel;
    const started = this.now().getTime();
    const leaseLost = new AbortController();
    const lease = keepLease({
      store: this.store, channelId, owner: this.o.owner, leaseMs: this.o.leaseMs, now: () => this.now(),
      logger: this.log, onLost: () => leaseLost.abort(), every: this.o.every,
    });
    this.log.info({ channelId, wanted: channel.wanted, failures: channel.consecutiveFailures }, 'run started');
    const status = this.o.runDeps.status;
    status?.working(channelId);

    // Filled in as the run goes: a run that throws still reports what it stored.
    const progress = newRunResult(channel);
    let result: ChannelRunResult | null = null;
    let failure: unknown = null;
    try {
      // Between batches a run gives way to another key's awaited work in its round (or, for a run
      // nobody awaits, to any awaited work): a long first crawl never holds another reader's new channel.
      const shouldYield = () => this.store.awaitedWorkWaiting(channelId, this.now());
      result = await runChannel(this.o.runDeps, channel, AbortSignal.any([this.stopController.signal, leaseLost.signal]), progress, { shouldYield });
    } catch (err) {
      failure = err;
    } finally {
      lease.stop();
    }

    let outcome: RunOutcome = result?.outcome ?? 'error';
    let error = result?.error ?? null;
    if (failure !== null) {
      error = messageOf(failure).slice(0, 300);
      if (!(failure instanceof StoreUnavailableError)) {
        this.log.error({ channelId, err: failure }, 'run failed unexpectedly');
      }
    }
    // Neither a lost lease nor a store outage is the channel's fault: hand it back without a failure.
    if ((leaseLost.signal.aborted && outcome !== 'ok') || failure instanceof StoreUnavailableError) outcome = 'stopped';
    crawlerMetrics.runEnded(outcome);
    const consecutiveFailures = failuresAfter(outcome, channel.consecutiveFailures, channel.lastOutcome);
    const now = this.now();
    const ms = now.getTime() - started;
    let due = nextDueAt(outcome, consecutiveFailures, now, channel.title === null && channel.lastOutcome !== 'ok' && result?.title == null);
    const yielded = outcome === 'ok' && result?.yielded === true;
    if (yielded) due = now;
    try {
      if (outcome === 'ok' && !yielded) due = await this.nextListingAt(channel, (result?.fresh ?? 0) > 0, now);
      // A run that threw may have stored part of its work: what the store covers is then unknown.
      const coveredWanted = result?.coveredWanted ?? null;
      const released = await this.release(channelId, { nextDueAt: due, outcome, error, consecutiveFailures, title: result?.title ?? channel.title, coveredWanted, yielded }, now);
      if (!released) this.log.warning({ channelId, outcome }, 'lease was already gone at release');
    } catch (err) {
      if (failure === null) failure = err;
      this.log.warning({ channelId, err, attempts: RELEASE_ATTEMPTS }, 'could not release the channel; its lease will expire');
    }
    status?.idle();
    await this.recordRun({ channelId, owner: this.o.owner, startedAt: new Date(started), endedAt: now, outcome, error, stored: progress.stored });
    const level = outcome === 'ok' || outcome === 'stopped' ? 'info' : 'warning';
    this.log[level](
      {
        channelId, outcome, error, ms, listing: progress.listing ?? undefined, stored: progress.stored, skipped: progress.skipped,
        batches: `${progress.batchesDone}/${progress.batchesPlanned}`, nextDueAt: due.toISOString(), ...(yielded ? { yielded } : {}),
      },
      'run ended',
    );
    if (failure instanceof StoreUnavailableError) throw failure;
  }
}
