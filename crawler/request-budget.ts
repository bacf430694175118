// Pacing below the platform's guest quota (docs/crawler.md §4): at most `perHour` platform requests
// in any sliding hour, for the whole crawler process (every channel and both crawl profiles share
// one budget), and a process-wide cool-down after "This content isn't available, try again later",
// which rate-limits the session for up to an hour. Both are waited out before a request starts, on
// the injected timing, with the reason logged so an operator sees why nothing moves.
//
// The requests are counted from the platform client's own counter (`sent`), sampled before and
// after each crawler call: every request the client made since the last sample (retries,
// redirects, timed text, visitor_id calls) is dated to that sample, which is never earlier than when
// it was sent, so the window holds them at least as long as it should.

import type { MsRange } from '../shared/config/crawl-profile';
import type { Logger } from '../shared/logger';
import type { PlatformPacingStore } from '../shared/store/types';
import { RunStoppedError } from './run-ending';
import { pickMs, type Timing } from './timing';
import { crawlerMetrics } from './metrics';

export const HOUR_MS = 3_600_000;
/** "Tens of minutes": the session's rate limit lasts up to an hour (docs/crawler.md §4). */
export const DEFAULT_COOL_DOWN_MS: MsRange = [1_800_000, 1_800_000];
/** Well under the guest session's ~1,000 page/player requests an hour (docs/crawler.md §4). */
/** A budget wait this short, starting this soon after the previous one ended, continues the same stretch. */
export const SAME_STRETCH_MS = 60_000;
/** How often a long wait says it is still waiting. */
export const PROGRESS_EVERY_MS = 5 * 60_000;

export interface RequestBudgetOptions {
  /** Requests allowed in any sliding hour; 0 = no limit. */
  readonly perHour: number;
  /** How long the crawler stays away from the platform after "try again later". */
  readonly coolDownMs: MsRange;
  readonly timing: Timing;
  /** Platform requests sent so far by the client this budget paces (a counter that only grows). */
  readonly sent: () => number;
  readonly logger: Logger;
  /**
   * The store every process shares: this crawler's requests and cool-down are written there, and the
   * API's handle lookups (and a cool-down another process started) are read from it, so one hourly
   * budget and one cool-down hold for all of them. Left out, the budget is this process's alone.
   */
  readonly shared?: PlatformPacingStore;
}

/** How often the shared counts are read again while waiting or before a request. */
const SHARED_READ_EVERY_MS = 10_000;

export class RequestBudget {
  /** When each request in the last hour was counted, oldest first. */
  private readonly stamps: number[] = [];
  private lastSent: number;
  private coolUntil = 0;
  private coolReason = '';
  /** The API's platform requests in the last hour, as last read from the store. */
  private othersInHour = 0;
  private sharedReadAt = Number.NEGATIVE_INFINITY;
  private wait: { kind: 'cool-down' | 'budget'; until: Date } | null = null;
  /** When the last wait ended, and the end of the last cool-down announced: a wait is said once. */
  private lastWaitEnd = Number.NEGATIVE_INFINITY;
  private announcedCoolUntil = 0;

  constructor(private readonly opts: RequestBudgetOptions) {
    this.lastSent = opts.sent();
  }

  /** Takes in the requests the client sent since the last look (call it when a call ends). */
  noteSent(): void {
    this.count();
  }

  /** Requests counted in the hour up to now. */
  usedInLastHour(): number {
    this.count();
    return this.stamps.length;
  }

  /** The wait a request is in right now (the heartbeat shows it), or null. */
  get waiting(): { kind: 'cool-down' | 'budget'; until: Date } | null {
    return this.wait;
  }

  /** The hourly limit (0 = none). */
  get perHour(): number {
    return this.opts.perHour;
  }

  /** Whether a cool-down is under way. */
  get coolingDown(): boolean {
    return this.opts.timing.now().getTime() < this.coolUntil;
  }

  /** When the cool-down under way ends; null when there is none. */
  get coolDownUntil(): Date | null {
    return this.coolingDown ? new Date(this.coolUntil) : null;
  }

  /**
   * The platform said "try again later": no request from this process until the cool-down is over.
   * A second signal during a cool-down does not extend it (it was a request already on its way).
   */
  startCoolDown(reason: string): void {
    const now = this.opts.timing.now().getTime();
    if (now < this.coolUntil) return;
    const ms = pickMs(this.opts.coolDownMs, () => this.opts.timing.random());
    this.coolUntil = now + ms;
    this.coolReason = reason;
    crawlerMetrics.coolDown();
    this.share((store) => store.setPlatformCoolDown(new Date(this.coolUntil), reason, new Date(now)));
    this.opts.logger.warning(
      { reason, coolDownMinutes: round(ms / 60_000), until: new Date(this.coolUntil).toISOString() },
      `platform rate-limited this session; no platform request for ${round(ms / 60_000)} min`,
    );
  }

  /** Resolves when a request may start; throws RunStoppedError when `signal` aborts first. */
  async waitForRoom(signal: AbortSignal): Promise<void> {
    try {
      await this.waitUntilRoom(signal);
    } finally {
      this.wait = null;
    }
  }

  /**
   * One wait is announced once, with when requests move again: a cool-down once per cool-down
   * (however many requests queue behind it), a full budget once per stretch of saturation (with the
   * hour full, every request waits a little for the oldest to leave the window; those short waits
   * one after another are one stretch, while a wait longer than SAME_STRETCH_MS is always said).
   * Its end ("resume") is said only for an announced wait.
   */
  private async waitUntilRoom(signal: AbortSignal): Promise<void> {
    let waited: 'cool-down' | 'budget' | null = null;
    let announced = false;
    for (;;) {
      if (signal.aborted) throw new RunStoppedError();
      const now = this.opts.timing.now().getTime();
      this.count();
      await this.readShared(now);
      let until: number;
      const used = this.stamps.length + this.othersInHour;
      let kind: 'cool-down' | 'budget';
      if (now < this.coolUntil) {
        until = this.coolUntil;
        kind = 'cool-down';
      } else if (this.opts.perHour > 0 && used >= this.opts.perHour) {
        // The oldest own request whose hour ends frees room; the API's are not dated one by one,
        // so without an own one to wait for, look again after a while.
        const i = used - this.opts.perHour;
        until = i < this.stamps.length ? this.stamps[i]! + HOUR_MS : now + SHARED_READ_EVERY_MS;
        kind = 'budget';
      } else {
        if (waited !== null) this.lastWaitEnd = now;
        if (announced) this.opts.logger.info({ after: waited, usedInLastHour: used }, 'platform requests resume');
        return;
      }
      if (kind !== waited) {
        const sameStretch = kind === 'cool-down' ? this.announcedCoolUntil === until : until - now <= SAME_STRETCH_MS && now - this.lastWaitEnd <= SAME_STRETCH_MS;
        if (!sameStretch) {
          this.logWait(kind, until - now);
          announced = true;
          if (kind === 'cool-down') this.announcedCoolUntil = until;
        }
        waited = kind;
      }
      const left = until - now;
      this.wait = { kind, until: new Date(until) };
      await this.opts.timing.sleep(Math.min(left, PROGRESS_EVERY_MS), signal);
      if (signal.aborted) throw new RunStoppedError();
      if (left > PROGRESS_EVERY_MS) {
        this.opts.logger.info({ waitingFor: waited, minutesLeft: round((left - PROGRESS_EVERY_MS) / 60_000) }, 'still holding platform requests back');
      }
    }
  }

  /** Said once per wait, with when requests move again. */
  private logWait(kind: 'cool-down' | 'budget', ms: number): void {
    const minutes = round(ms / 60_000);
    const until = new Date(this.opts.timing.now().getTime() + ms).toISOString();
    const at = `${until.slice(11, 16)} UTC`;
    if (kind === 'cool-down') {
      this.opts.logger.info({ reason: this.coolReason, minutesLeft: minutes, until }, `cooling down: no platform request until ${at} (in ${minutes} min)`);
    } else {
      this.opts.logger.info(
        { perHour: this.opts.perHour, minutesLeft: minutes, until },
        `hourly platform request budget (${this.opts.perHour}) used up; waiting until ${at} (in ${minutes} min)`,
      );
    }
  }

  /** Reads the API's requests of the hour and any longer cool-down from the store, now and then. */
  private async readShared(now: number): Promise<void> {
    const store = this.opts.shared;
    if (store === undefined || now - this.sharedReadAt < SHARED_READ_EVERY_MS) return;
    this.sharedReadAt = now;
    try {
      const at = new Date(now);
      this.othersInHour = await store.platformRequestsInHour(at, 'api');
      const cool = await store.platformCoolDown(at);
      if (cool !== null && cool.until.getTime() > this.coolUntil) {
        this.coolUntil = cool.until.getTime();
        this.coolReason = cool.reason;
      }
    } catch (err) {
      // The store pauses the crawler on its own when it is down; the local budget still holds.
      this.opts.logger.warning({ err }, 'could not read the shared platform budget; pacing on this process\'s own count');
    }
  }

  /** A write to the shared store that must not stop a request: a failure is logged, never hidden. */
  private share(write: (store: NonNullable<RequestBudgetOptions['shared']>) => Promise<void>): void {
    const store = this.opts.shared;
    if (store === undefined) return;
    write(store).catch((err: unknown) => this.opts.logger.warning({ err }, 'could not record platform requests in the shared budget'));
  }

  /** Takes in the requests sent since the last look and forgets those older than an hour. */
  private count(): void {
    const now = this.opts.timing.now().getTime();
    const sent = this.opts.sent();
    const fresh = sent - this.lastSent;
    if (fresh > 0) this.share((store) => store.addPlatformRequests('crawler', fresh, new Date(now)));
    // Only the newest perHour stamps can ever matter; a burst beyond that is not kept one by one.
    const cap = this.opts.perHour > 0 ? this.opts.perHour : 0;
    for (let n = Math.min(sent - this.lastSent, cap); n > 0; n -= 1) this.stamps.push(now);
    this.lastSent = sent;
    while (this.stamps.length > 0 && this.stamps[0]! <= now - HOUR_MS) this.stamps.shift();
    if (cap > 0 && this.stamps.length > cap) this.stamps.splice(0, this.stamps.length - cap);
  }
}

const round = (v: number): number => Math.round(v * 10) / 10;
