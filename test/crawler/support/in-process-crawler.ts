// The crawler in this process against the fake platform, configured through the real loader as an
// operator would configure it: the fast profile without batch waits, a short blocked wait, no
// browser, a 50 ms poll; a channel is due again by its rhythm (30 min at least), so tests make
// refreshes happen (store.markAllDue).

import { Scheduler } from '../../../crawler/scheduler';
import type { Timing } from '../../../crawler/timing';
import { loadConfig } from '../../../shared/config/load';
import type { Logger } from '../../../shared/logger';
import { silentLogger } from '../../../shared/logger';
import { createPlatformClient } from '../../../shared/platform';
import type { Store } from '../../../shared/store/types';

export interface InProcessCrawlerOptions {
  fakeUrl: string;
  /** Where the loader looks for config/settings.yaml: an empty temp dir, so only `env` counts. */
  configDir: string;
  store: Store;
  timing: Timing;
  logger: Logger;
  owner?: string;
  /** Settings over the defaults above. */
  env?: Record<string, string>;
}

/** A started Scheduler; the caller stops it. */
export function startInProcessCrawler(o: InProcessCrawlerOptions): Scheduler {
  const config = loadConfig({
    PLATFORM_BASE_URL: o.fakeUrl, CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0', CRAWL_BLOCKED_WAIT: '0.05-0.1',
    BROWSER_EXECUTABLE_PATH: 'off', PLATFORM_TIMEOUT_MS: '5000', ...o.env,
  }, o.configDir);
  const platform = createPlatformClient(config, silentLogger());
  const scheduler = new Scheduler({
    runDeps: { store: o.store, platform, unblockers: [], profile: config.crawl, timing: o.timing, logger: o.logger },
    owner: o.owner ?? 'in-process', leaseMs: config.crawlLeaseSeconds * 1000, pollMs: 50, listingBounds: config.crawlListingInterval,
  });
  scheduler.start();
  return scheduler;
}

/** The channel's last outcome once its run has ended (lease released); null while it runs. */
export async function endedOutcome(store: Pick<Store, 'getChannel'>, channelId: string): Promise<string | null> {
  const c = await store.getChannel(channelId);
  return c && c.leaseOwner === null ? c.lastOutcome : null;
}
