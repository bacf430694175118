// Handles named by imported subscription lists, resolved here rather than while the import waited:
// a few per round, each one platform request paced like every other (the process's hourly budget,
// then the profile's wait between requests). A handle some other path already cached costs none.
// The platform saying "no such channel" is recorded and asked again a day later; a block or an
// error ends the round and leaves the rest for the next one.

import { categoryLogger, type Logger } from '../shared/logger';
import type { PlatformClient } from '../shared/platform/types';
import { PlatformError } from '../shared/platform/types';
import type { HandleResolutionStore } from '../shared/store/types';
import type { CrawlProfile } from '../shared/config/crawl-profile';
import type { RequestBudget } from './request-budget';
import { pickMs, type Timing } from './timing';

/** Handles resolved per round. */
export const HANDLES_PER_ROUND = 5;
/** A handle the platform did not know is asked about again after this long. */
export const UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS = 24 * 60 * 60_000;
/** The wanted count a channel followed by handle starts with (GET /'s default max_items). */
export const FOLLOWED_WANTED = 10;

export interface HandleResolverDeps {
  readonly store: HandleResolutionStore;
  readonly platform: Pick<PlatformClient, 'resolveHandle'>;
  readonly profile: Pick<CrawlProfile, 'requestWaitMs'>;
  readonly timing: Timing;
  readonly logger: Logger;
  readonly budget?: RequestBudget;
}

/** Resolves one round of followed handles; answers how many it settled (found or not). */
export async function resolveFollowedHandles(deps: HandleResolverDeps, signal: AbortSignal): Promise<number> {
  const log = categoryLogger(deps.logger, 'crawler.handles');
  const now = deps.timing.now();
  const handles = await deps.store.subscribedHandlesToResolve(new Date(now.getTime() - UNKNOWN_SUBSCRIBED_HANDLE_RETRY_MS), HANDLES_PER_ROUND);
  let settled = 0;
  for (const handle of handles) {
    if (signal.aborted) break;
    let channelId = await deps.store.getHandle(handle);
    if (channelId === null) {
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
    await deps.store.resolveSubscribedHandle(handle, channelId, FOLLOWED_WANTED, deps.timing.now());
    settled += 1;
    if (channelId === null) log.warning({ handle }, 'a followed handle names no channel; asked again in a day');
    else log.info({ handle, channelId }, 'followed handle resolved');
  }
  return settled;
}
