// The crawler in this process against the fake platform, configured through the real loader as an
// operator would configure it: the fast profile without batch waits, a short blocked wait, no
// browser, a 50 ms poll; a channel is due again by its rhythm (30 min at least), so tests make
// refreshes happen (test/support/refresh.ts).

import { Scheduler } from '../../../crawler/scheduler';
import { realTiming, type Timing } from '../../../crawler/timing';
import { loadConfig } from '../../../shared/config/load';
import type { Logger } from '../../../shared/logger';
import { silentLogger } from '../../../shared/logger';
import { createPlatformClient } from '../../../shared/platform';
import type { Store, ChannelLookupStore } from '../../../shared/store/types';
import { startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../../fake-platform';
import { captureLogs, type CapturedLogs, type LogLine } from '../../support/logs';
import { until } from '../../support/poll';
import { tempStore, type TempStore } from '../../support/temp-store';

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
  /** Where the platform client logs; silent when left out. */
  platformLogger?: Logger;
}

/** A started Scheduler; the caller stops it. */
export function startInProcessCrawler(o: InProcessCrawlerOptions): Scheduler {
  const config = loadConfig({
    PLATFORM_BASE_URL: o.fakeUrl, CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0', CRAWL_BLOCKED_WAIT: '0.05-0.1',
    BROWSER_EXECUTABLE_PATH: 'off', PLATFORM_TIMEOUT_MS: '5000', ...o.env,
  }, o.configDir);
  // The platform client's own lines (a client left out, a consent wall) go to the same capture.
  const platform = createPlatformClient(config, o.platformLogger ?? silentLogger());
  const scheduler = new Scheduler({
    runDeps: { store: o.store, platform, unblockers: [], profile: config.crawl, timing: o.timing, logger: o.logger },
    owner: o.owner ?? 'in-process', leaseMs: config.crawlLeaseSeconds * 1000, pollMs: 50, listingBounds: config.crawlListingInterval,
  });
  scheduler.start();
  return scheduler;
}

/** The channel's last outcome once its run has ended (lease released); null while it runs. */
export async function endedOutcome(store: ChannelLookupStore, channelId: string): Promise<string | null> {
  const c = await store.getChannel(channelId);
  return c && c.leaseOwner === null ? c.lastOutcome : null;
}

/**
 * What the in-process crawler tests share, as mocha hooks of the enclosing describe: before each
 * test a fresh fake platform (`onFake` sets its switches), an empty SQLite store in a temp dir (the
 * configuration loader's directory too: it holds no settings file) and a log capture; after it the
 * crawler is stopped and everything removed. Read its fields inside tests: each test gets new ones.
 */
export interface CrawlerOnFake {
  readonly fake: FakePlatform;
  readonly ts: TempStore;
  readonly logs: CapturedLogs;
  /** The running crawler, if a test started one. */
  readonly scheduler: Scheduler | null;
  /** Starts the crawler on the temp store with real time, unless `over` gives others. */
  start(env?: Record<string, string>, over?: { store?: Store; timing?: Timing }): Scheduler;
  /** Registers the channel (all its videos wanted, unless `wanted`), starts the crawler and waits for the run's outcome. */
  crawl(ch: FakeChannelSpec, opts?: { wanted?: number; env?: Record<string, string> }): Promise<string | null>;
  /** WARNING lines of blocked requests. */
  blockedWarnings(): LogLine[];
}

export function crawlerOnFake(o: { storePrefix: string; onFake?: (fake: FakePlatform) => void }): CrawlerOnFake {
  let fake: FakePlatform | undefined;
  let ts: TempStore | undefined;
  let logs: CapturedLogs | undefined;
  let scheduler: Scheduler | null = null;
  const need = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('crawlerOnFake: read inside a test, after its beforeEach');
    return v;
  };
  beforeEach(async () => {
    fake = await startFakePlatform();
    o.onFake?.(fake);
    ts = await tempStore(o.storePrefix);
    logs = captureLogs();
    scheduler = null;
  });
  afterEach(async () => {
    await scheduler?.stop();
    await fake?.close();
    await ts?.cleanup();
  });
  const suite: CrawlerOnFake = {
    get fake() {
      return need(fake);
    },
    get ts() {
      return need(ts);
    },
    get logs() {
      return need(logs);
    },
    get scheduler() {
      return scheduler;
    },
    start(env = {}, over = {}) {
      scheduler = startInProcessCrawler({
        fakeUrl: suite.fake.url, configDir: suite.ts.dir, store: over.store ?? suite.ts.store, timing: over.timing ?? realTiming, logger: suite.logs.logger,
        platformLogger: suite.logs.logger, env,
      });
      return scheduler;
    },
    async crawl(ch, opts = {}) {
      await suite.ts.store.registerChannel({ channelId: ch.channelId, wanted: opts.wanted ?? ch.videos.length }, new Date());
      suite.start(opts.env);
      await until('the run to end', async () => (await endedOutcome(suite.ts.store, ch.channelId)) !== null);
      return endedOutcome(suite.ts.store, ch.channelId);
    },
    blockedWarnings: () => suite.logs.lines.filter((l) => l.level === 'WARNING' && l.outcome === 'blocked'),
  };
  return suite;
}
