// Handles named by imported subscription lists, resolved here rather than while the import waited:
// a few per round, taken round-robin by the key that imported them (the store deals the turns), each
// key at most CRAWL_IMPORT_HANDLES_PER_KEY_HOUR platform requests in any hour, so one key's list of
// junk handles costs its own share and never the others'. Each request is paced like every other
// (the process's hourly budget, then the profile's wait between requests). A handle some other path
// already cached costs none and no share. The platform saying "no such channel" is recorded and not
// asked again for a month; a block or an error ends the round and leaves the rest for the next one.

import { categoryLogger, type Logger } from '../shared/logger';
import type { PlatformClient } from '../shared/platform/types';
import { PlatformError } from '../shared/platform/types';
import type { HandleResolutionStore } from '../shared/store/types';
import type { CrawlProfile } from '../shared/config/crawl-profile';
import type { RequestBudget } from './request-budget';
import { pickMs, type Timing } from './timing';

/** Handles resolved per round. */
export const HANDLES_PER_ROUND = 5;
/** A handle the platform did not know is asked about again after this long (as a retired channel is). */
export const UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS = 30 * 24 * 60 * 60_000;
/** CRAWL_IMPORT_HANDLES_PER_KEY_HOUR's default. */
export const DEFAULT_HANDLES_PER_KEY_HOUR = 25;
/** The wanted count a channel followed by handle starts with (GET /'s default max_items). */
export const FOLLOWED_WANTED = 10;

export interface HandleResolverDeps {
  readonly store: HandleResolutionStore;
  readonly platform: Pick<PlatformClient, 'resolveHandle'>;
  readonly profile: Pick<CrawlProfile, 'requestWaitMs'>;
  readonly timing: Timing;
  readonly logger: Logger;
  readonly budget?: RequestBudget;
  /** Platform requests for one key's handles in any hour (CRAWL_IMPORT_HANDLES_PER_KEY_HOUR). */
  readonly handlesPerKeyHour?: number;
}

/** Resolves one round of followed handles; answers how many it settled (found or not). */
export async function resolveFollowedHandles(deps: HandleResolverDeps, signal: AbortSignal): Promise<number> {
  const log = categoryLogger(deps.logger, 'crawler.handles');
  const now = deps.timing.now();
  const perKey = deps.handlesPerKeyHour ?? DEFAULT_HANDLES_PER_KEY_HOUR;
  const turns = await deps.store.subscribedHandlesToResolve(new Date(now.getTime() - UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS), HANDLES_PER_ROUND, perKey, now);
  let settled = 0;
  for (const { keyId, handle } of turns) {
    if (signal.aborted) break;
    let channelId = await deps.store.getHandle(handle);
    let askedBy: string | null = null;
    if (channelId === null) {
      askedBy = keyId;
      if (settled > 0) await deps.timing.sleep(pickMs(deps.profile.requestWaitMs, () => deps.timing.random()), signal);
      if (signal.aborted) break;
      await deps.budget?.waitForRoom(signal);
      try {
        channelId = await deps.platform.resolveHandle(handle);
      } catch (err) {
        if (!(err instanceof PlatformError && err.outcome === 'not_found')) {
          log.warning({ handle, err }, 'could not resolve a followed handle; trying again next round');
          break;
        }
        channelId = null;
      } finally {
        deps.budget?.noteSent();
      }
    }
    // A new channel waits in its keys' import queues, given to the crawler within their allowance.
    await deps.store.resolveSubscribedHandle(handle, channelId, FOLLOWED_WANTED, deps.timing.now(), { askedBy, queueNew: true });
    settled += 1;
    if (channelId === null) log.warning({ handle }, 'a followed handle names no channel; asked again in a month');
    else log.info({ handle, channelId }, 'followed handle resolved');
  }
  return settled;
}
