// Entry point of the API process: configuration → logger → store (shared/bootstrap) → API keys →
// platform client → listen on HOST:PORT. Only wiring; the work lives in the modules imported here.
// SIGTERM/SIGINT: stop accepting, finish in-flight requests, close the store, exit 0.

import path from 'node:path';
import { bootstrap, exitOnStartupError, StartupError } from '../shared/bootstrap';
import { KeyRing } from './key-ring';
import { categoryLogger, exitWhenWritten } from '../shared/logger';
import { createPlatformClient } from '../shared/platform';
import { createApp } from './create-app';
import { listen } from './server';

async function main(): Promise<void> {
  const { config, logger, store } = await bootstrap('api');
  const log = categoryLogger(logger, 'api');
  let keys: KeyRing;
  try {
    keys = KeyRing.open(path.resolve(config.rootDir, config.securityConfig), { defaultRateLimit: config.defaultRateLimit, logger });
  } catch (err) {
    await store.close();
    throw err;
  }
  // The API only resolves handles with it: plain HTTP, no browser, no challenge proxy.
  const app = createApp({ store, keys, summaryLanguage: config.summaryLanguage, platform: createPlatformClient(config, logger), logger, trustProxy: config.trustProxy, publicBaseUrl: config.publicBaseUrl, playerEmbedUrl: config.playerEmbedUrl, maxRenders: config.apiMaxRenders, renderBytes: config.apiRenderBytes, metricsLoopbackOnly: config.metricsLoopbackOnly, maxAnswersPerKey: config.apiMaxConnectionsPerKey,
    handleLookups: { perKeyPerMinute: config.apiHandleLookupsPerKeyMinute, perHour: config.crawlRequestsPerHour, coolDownMs: config.crawlCoolDown[0] }, renderCacheBytes: config.apiCacheBytes,
    newChannelsPerKeyHour: config.crawlNewChannelsPerKeyHour, importChannelsPerKeyHour: config.crawlImportChannelsPerKeyHour,
    search: { maxSearches: config.apiMaxSearches, maxSearchesPerKey: config.apiMaxSearchesPerKey, budgetMs: config.apiSearchBudgetMs } });
  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen(app, config.port, config.host, {
      logger,
      maxConnections: config.apiMaxConnections,
      headersTimeoutMs: config.apiHeadersTimeoutMs,
      requestTimeoutMs: config.apiRequestTimeoutMs,
      sendTimeoutMs: config.apiSendTimeoutMs,
    });
  } catch (err) {
    keys.close();
    await store.close();
    // A port in use, or an address this host lacks: starting again would fail the same way.
    throw new StartupError(`PORT/HOST: cannot listen on ${config.host}:${config.port} (${(err as Error).message})`, { retry: false });
  }
  log.info({ host: config.host, port: server.port, store: store.kind, maxConnections: server.server.maxConnections }, `API listening on http://${config.host}:${server.port}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    keys.close();
    void server
      .close()
      .then(() => store.close())
      .then(
        () => exitWhenWritten(0),
        (err: unknown) => {
          log.error({ err }, 'shutdown failed');
          exitWhenWritten(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => exitOnStartupError('api', err));
