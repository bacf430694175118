// The crawler daemon's entry: it only wires. Configuration → logger → store (shared/bootstrap),
// the platform client and its unblockers (challenge proxy, then browser), the scheduler; then it
// runs until SIGTERM/SIGINT. A bad setting or an unopenable store is one line on stderr, exit 1.

// First: keeps a stop that arrives while the modules below are still loading.
import { takeEarlySignals } from './early-signals';
import { bootstrap, exitOnStartupError, StartupError, type ProcessContext } from '../shared/bootstrap';
import { categoryLogger, type Logger } from '../shared/logger';
import type { Store } from '../shared/store/types';
import { createChallengeProxy, createPlatformClient } from '../shared/platform';
import type { Unblocker } from '../shared/platform/types';
import { createBrowserFallback } from './browser-fallback';
import { ListingShare, listingShareOf } from './listing-share';
import { RequestBudget } from './request-budget';
import { Scheduler } from './scheduler';
import { Heartbeat } from './heartbeat';
import { CrawlerStatus } from './status';
import { crawlerIdentity } from './identity';
import { crawlerMetrics } from './metrics';
import { serveCrawlerMetrics, type MetricsListener } from './metrics-server';
import { budgetRefusal, startPlatformCheckWorker, type Worker } from './platform-check-worker';
import type { PlatformCheckReport } from '../shared/platform/platform-check';
import { handleShutdown } from './shutdown';
import { realTiming } from './timing';
import { WebSubSubscriber } from './websub-subscriber';
import { startConfiguredSummaries } from './summaries/start';

/** Extra time beyond one platform request for the drain (storing the batch, releasing the lease). */
const DRAIN_MARGIN_MS = 10_000;

async function main(): Promise<void> {
  let ctx: ProcessContext;
  let unblockers: Unblocker[];
  let scheduler: Scheduler;
  let heartbeat: Heartbeat;
  let owner: string;
  let metricsListener: MetricsListener | null = null;
  let checkPlatform: () => Promise<PlatformCheckReport>;
  let checkRefusal: () => string | null;
  let subscriber: WebSubSubscriber | null;
  let browserReady: boolean;
  try {
    ctx = await bootstrap('crawler');
    const { config, logger, store } = ctx;
    const platform = createPlatformClient(config, logger, {
      observer: { request: crawlerMetrics.platformRequest, proxySkipped: () => crawlerMetrics.proxySwitch('unreachable') },
    });
    const identity = crawlerIdentity(config.crawlerId);
    owner = identity.owner;
    if (!identity.stable) {
      categoryLogger(logger, 'crawler').info({ owner }, 'this crawler\'s lease owner name holds its pid: after a crash its leases wait CRAWL_LEASE_SECONDS to expire; set CRAWLER_ID (or run it under PM2) so a restart takes them back at once');
    }
    // Order matters (docs/crawler.md §4): the proxy is cheap, the browser is the last resort.
    const browser = createBrowserFallback(config, platform, logger, platform.egress);
    const challengeProxy = createChallengeProxy(config, platform, logger);
    unblockers = challengeProxy === null ? [browser] : [challengeProxy, browser];
    browserReady = await browser.available();
    checkPlatform = () => platform.checkPlatform(config.platformCheckVideo);
    // One budget for the whole process: the platform's quota is per session/IP, not per channel.
    const budget = new RequestBudget({
      perHour: config.crawlRequestsPerHour, coolDownMs: config.crawlCoolDown, timing: realTiming,
      sent: () => platform.requestCount(), logger: categoryLogger(logger, 'crawler.pacing'), shared: store,
    });
    checkRefusal = () => budgetRefusal(budget);
    crawlerMetrics.watch({
      budgetUsed: () => budget.usedInLastHour(),
      budgetLimit: () => config.crawlRequestsPerHour,
      coolDownUntil: () => budget.coolDownUntil,
      queueLength: async () => null,
      leftOutClients: () => platform.leftOutClients(),
    });
    const status = new CrawlerStatus();
    heartbeat = new Heartbeat({
      store, owner, status, budget, requestCount: () => platform.requestCount(), proxies: () => platform.egress?.states() ?? [],
      browserRuns: () => browser.runs, playerClientsLeftOut: () => platform.leftOutClients(), now: () => new Date(), logger,
    });
    // Push needs an address the hub can reach (PUBLIC_BASE_URL) and a hub.
    const pushOn = config.publicBaseUrl !== null && config.webSubHubUrl !== null;
    subscriber = pushOn
      ? new WebSubSubscriber({ store, hubUrl: config.webSubHubUrl!, publicBaseUrl: config.publicBaseUrl!, timing: realTiming, logger, timeoutMs: config.platformTimeoutMs })
      : null;
    scheduler = new Scheduler({
      runDeps: {
        store, platform, unblockers, profile: config.crawl, timing: realTiming, logger, budget, status,
        egress: platform.egress ?? undefined,
        // Every app client refused for a video: the web player in Chromium fetches its transcript.
        // Without a Chromium there is no such attempt, so such a video does not sit through the
        // budget and the profile's request wait for an answer known in advance.
        browserTranscript: browserReady ? (videoId) => browser.fetchTranscript(videoId, config.transcriptLanguages) : undefined,
      },
      owner,
      leaseMs: config.crawlLeaseSeconds * 1000,
      pollMs: config.crawlPollSeconds * 1000,
      listingBounds: config.crawlListingInterval,
      push: pushOn ? { safetyPollMs: config.webSubSafetyPoll * 1000 } : undefined,
      // Listings take at most half of the hourly budget, so transcripts always have room.
      listingShare: new ListingShare(listingShareOf(config.crawlRequestsPerHour), () => Date.now()),
      imports: { channelsPerKeyHour: config.crawlImportChannelsPerKeyHour, handlesPerKeyHour: config.crawlImportHandlesPerKeyHour },
    });
    if (ctx.config.crawlerMetricsPort !== null) {
      try {
        metricsListener = await serveCrawlerMetrics(crawlerMetrics, ctx.config.crawlerMetricsPort, ctx.config.crawlerMetricsHost, categoryLogger(logger, 'crawler.metrics'));
      } catch (err) {
        throw new StartupError(`CRAWLER_METRICS_PORT: cannot listen on ${ctx.config.crawlerMetricsHost}:${ctx.config.crawlerMetricsPort} (${(err as Error).message})`, { retry: false });
      }
    }
  } catch (err) {
    exitOnStartupError('crawler', err);
    return;
  }

  const { config, logger, store } = ctx;
  const log = categoryLogger(logger, 'crawler.scheduler');
  const checks: Worker = startPlatformCheckWorker({
    store, check: checkPlatform, refusal: checkRefusal, owner, pollMs: config.crawlPollSeconds * 1000, timing: realTiming, logger: categoryLogger(logger, 'crawler.platform-check'),
  });
  const summaries = startConfiguredSummaries(config, store, owner, crawlerMetrics.registry, categoryLogger(logger, 'crawler.summaries'));
  const shutdown = handleShutdown({
    logger: log,
    drain: async () => {
      await subscriber?.stop();
      await Promise.all([scheduler.stop(), checks.stop(), summaries?.stop()]);
      await heartbeat.stop();
    },
    drainTimeoutMs: config.platformTimeoutMs + DRAIN_MARGIN_MS,
    close: async () => {
      for (const u of unblockers) await u.close().catch((err: unknown) => log.warning({ unblocker: u.name, err }, 'unblocker close failed'));
      await metricsListener?.close();
      await store.close();
    },
  });
  // A stop that arrived while the crawler was starting (early-signals.ts) ends it now, in order, so
  // it still says "crawler stopped" instead of dying half-started.
  const early = takeEarlySignals();
  if (early.length > 0) {
    shutdown(early[0]!);
    return;
  }
  await reclaimOwnLeases(store, owner, log);
  scheduler.start();
  heartbeat.start();
  subscriber?.start();
  log.info({ owner, store: store.kind, profile: config.crawl.name, unblockers: unblockers.map((u) => u.name), browserFallback: browserReady, push: subscriber !== null }, 'crawler started');
  if (subscriber === null) log.info({}, 'push (WebSub) off: PUBLIC_BASE_URL or WEBSUB_HUB_URL not set; channels are polled by their rhythm');
  else log.info({ hub: config.webSubHubUrl, callback: `${config.publicBaseUrl}/websub/…` }, 'push (WebSub) on: followed channels are subscribed at the hub');
}

/**
 * Leases still held under this crawler's own name were left by its previous run (killed, crashed,
 * or the host rebooted): take them back now instead of waiting for them to expire. A store that is
 * unavailable right now only delays this to the normal lease expiry.
 */
async function reclaimOwnLeases(store: Store, owner: string, log: Logger): Promise<void> {
  try {
    const channels = await store.reclaimLeases(owner, new Date());
    if (channels > 0) log.warning({ owner, channels }, 'took back the leases a previous run of this crawler left (it was killed or crashed); resuming them now');
  } catch (err) {
    log.warning({ owner, err }, 'could not take back leases left by a previous run; they expire after CRAWL_LEASE_SECONDS');
  }
}

void main();
