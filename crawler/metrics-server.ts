// CRAWLER_METRICS_PORT: the crawler's own Prometheus endpoint (GET /metrics), off by default and
// bound to 127.0.0.1 unless CRAWLER_METRICS_HOST says otherwise: the crawler holds no API keys, so
// this listener is reachable only by whoever can reach that address. Nothing else is served.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Logger } from '../shared/logger';
import type { CrawlerMetrics } from './metrics';

export interface MetricsListener {
  readonly port: number;
  close(): Promise<void>;
}

let processRegistry: Registry | undefined;

export async function serveCrawlerMetrics(metrics: CrawlerMetrics, port: number, host: string, log: Logger): Promise<MetricsListener> {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  const registries = [processRegistry, metrics.registry];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the crawler serves only GET /metrics\n');
      return;
    }
    const merged = Registry.merge(registries);
    merged.metrics().then(
      (body) => res.writeHead(200, { 'content-type': merged.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body),
      (err: unknown) => {
        log.error({ err }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  log.info({ host, port: bound }, `crawler metrics at http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`);
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
