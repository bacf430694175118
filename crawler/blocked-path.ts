// What the crawler does when the platform blocks it (docs/crawler.md §4): wait the profile's blocked
// wait, then escalate to the challenge-solving proxy and then the real browser (the first one that
// clears the block ends the escalation; their cookies and user agent are reused by plain requests),
// then retry the same request. Blocks in a row end the run, because pushing on only makes a block
// last longer; a success in between shows the block was lifted. A video request still blocked after
// a recovery is given up for this run ("blocked for that video", e.g. an empty timed-text answer),
// so one video cannot hold up its whole channel. "Try again later" is the one block that is not
// waited out this way: it rate-limits the session for up to an hour, so it starts the process-wide
// cool-down of the request budget instead (docs/crawler.md §4), and the retry follows that.
// With outbound proxies, any block first moves the next attempt to the next proxy and retries at
// once (a block says nothing about another exit IP); only when every proxy was blocked since the
// last success does the path above apply.

import type { MsRange } from '../shared/config/crawl-profile';
import type { Logger } from '../shared/logger';
import type { Egress } from '../shared/platform/proxies';
import { PlatformError, type Unblocker } from '../shared/platform/types';
import { crawlerMetrics } from './metrics';
import type { RequestBudget } from './request-budget';
import { RunBlockedError, RunStoppedError } from './run-ending';
import type { CrawlerStatus } from './status';
import { pickMs, type Timing } from './timing';

/** This one video request stays blocked after a recovery; the run goes on with the next video. */
export class RequestBlockedError extends Error {
  override readonly name = 'RequestBlockedError';
  /** The last block, as the platform client threw it (an AllClientsRefusedError, say). */
  declare readonly cause: PlatformError;
  constructor(readonly reason: string, last: PlatformError) {
    super(`blocked for this video: ${reason}`, { cause: last });
  }
}

export interface BlockedPathDeps {
  /** Tried in this order after each block (challenge proxy first, then the browser). */
  readonly unblockers: readonly Unblocker[];
  readonly blockedWaitMs: MsRange;
  /** Blocks in a row (no success between) after which the run gives up; the last is not waited out. */
  readonly maxBlocks: number;
  /** Blocked answers to one video request before it is given up for this run. */
  readonly maxBlocksPerVideo?: number;
  /** The process's request budget, whose cool-down a "try again later" starts. */
  readonly budget: RequestBudget;
  /** The outbound proxies (PLATFORM_PROXY_URLS), when configured. */
  readonly egress?: Egress;
  readonly timing: Timing;
  readonly logger: Logger;
  /** Aborted when the run must stop. */
  readonly signal: AbortSignal;
  /** Told while a block is waited out (the heartbeat shows "blocked until …"). */
  readonly status?: CrawlerStatus;
}

export interface RequestContext {
  readonly channelId: string;
  /** Set for a video's requests: those may be given up alone (RequestBlockedError). */
  readonly videoId?: string;
  /** Page the unblockers should open, relative to the platform base URL. */
  readonly path: string;
}

export const DEFAULT_MAX_BLOCKS = 3;
export const DEFAULT_MAX_BLOCKS_PER_VIDEO = 2;

export class BlockedPath {
  private blocks = 0;
  private inARow = 0;

  constructor(private readonly deps: BlockedPathDeps) {}

  /** Blocks seen so far in this run. */
  get blockCount(): number {
    return this.blocks;
  }

  /** Runs `request`; on a block, waits and unblocks and tries again while the budgets allow. */
  async request<T>(ctx: RequestContext, request: () => Promise<T>): Promise<T> {
    const perVideo = this.deps.maxBlocksPerVideo ?? DEFAULT_MAX_BLOCKS_PER_VIDEO;
    let blockedHere = 0;
    for (;;) {
      try {
        const answer = await request();
        this.inARow = 0;
        this.deps.egress?.succeeded();
        return answer;
      } catch (err) {
        if (!(err instanceof PlatformError) || err.outcome !== 'blocked') throw err;
        this.blocks += 1;
        crawlerMetrics.block(err);
        const { channelId, videoId } = ctx;
        this.deps.logger.warning(
          { channelId, videoId, outcome: 'blocked', reason: err.reason, blocks: this.blocks, inARow: this.inARow + 1 },
          `blocked by the platform: ${err.reason}`,
        );
        // Another exit IP is a fresh start: not counted against the run or the video, no wait.
        if (this.deps.egress?.nextOnBlock(err.reason)) {
          crawlerMetrics.proxySwitch('blocked');
          continue;
        }
        this.inARow += 1;
        blockedHere += 1;
        const rateLimited = err.signal === 'session_rate_limited';
        // Started even when this run ends here: the next channel's requests must wait it out too.
        if (rateLimited) this.deps.budget.startCoolDown(err.reason);
        if (this.inARow >= this.deps.maxBlocks) throw new RunBlockedError(err.reason);
        if (videoId !== undefined && blockedHere >= perVideo) throw new RequestBlockedError(err.reason, err);
        // No unblocker helps a rate-limited session and the blocked wait is far too short for it:
        // the cool-down, which holds back every request of the process, is what is waited out.
        if (rateLimited) await this.deps.budget.waitForRoom(this.deps.signal);
        else await this.recover(ctx);
      }
    }
  }

  private async recover(ctx: RequestContext): Promise<void> {
    const { timing, signal, logger } = this.deps;
    const waitMs = pickMs(this.deps.blockedWaitMs, () => timing.random());
    logger.info({ channelId: ctx.channelId, ms: waitMs }, 'waiting before retrying after a block');
    this.deps.status?.blocked(new Date(timing.now().getTime() + waitMs));
    try {
      await timing.sleep(waitMs, signal);
    } finally {
      this.deps.status?.blocked(null);
    }
    if (signal.aborted) throw new RunStoppedError();
    for (const unblocker of this.deps.unblockers) {
      if (signal.aborted) throw new RunStoppedError();
      if (await this.tryUnblocker(unblocker, ctx)) return;
    }
  }

  /** An unblocker that throws is a way that did not work, not a reason to stop the run. */
  private async tryUnblocker(unblocker: Unblocker, ctx: RequestContext): Promise<boolean> {
    const log = this.deps.logger;
    try {
      if (!(await unblocker.available())) {
        log.debug({ channelId: ctx.channelId, unblocker: unblocker.name }, 'unblocker not available');
        return false;
      }
      const cleared = await unblocker.unblock(ctx.path);
      log.info({ channelId: ctx.channelId, unblocker: unblocker.name, cleared }, cleared ? 'block cleared' : 'block not cleared');
      return cleared;
    } catch (err) {
      log.warning({ channelId: ctx.channelId, unblocker: unblocker.name, err }, 'unblocker failed');
      return false;
    }
  }
}
