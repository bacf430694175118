// The API process's Prometheus metrics (prom-client), served at GET /metrics. One registry per app,
// so that tests can run several apps in one process. Label values are bounded: a route is one of
// the known paths (never a channel, a video id or a query), a status is a number, a method one of
// the few HTTP knows. Recording sits on the hot feed path, so the labelled children are looked up
// once per (route, method, status) and kept.

import { collectDefaultMetrics, Counter, Histogram, Registry, type LabelValues } from 'prom-client';

export interface ApiMetrics {
  /** This app's metrics; `exposition()` adds the process's own (CPU, memory, event loop). */
  readonly registry: Registry;
  /** The Prometheus text of everything, and its Content-Type. */
  exposition(): Promise<{ contentType: string; body: string }>;
  /** One answered (or cut) request: its route label, method, status (0 = cut) and duration. */
  request(path: string, method: string, status: number, seconds: number): void;
  /** A feed body answered from the render cache (hit) or rendered for this request (miss). */
  feedCache(hit: boolean): void;
  /** A conditional GET answered 304. */
  notModified(route: string): void;
  /** A cached feed body compressed (once per body and coding; a warm compressed answer adds nothing). */
  compressed(coding: 'gzip' | 'br'): void;
}

/** Known first path segments; anything else is `other`, so a scan of random paths adds no series. */
const ROUTES: ReadonlySet<string> = new Set(['/health', '/info', '/search', '/subscriptions', '/transcripts', '/status', '/metrics', '/websub']);
/** Second segments that are routes of their own (never an id). */
const SUB_ROUTES: ReadonlySet<string> = new Set(['/subscriptions/feed', '/admin/channels', '/admin/platform-check']);

/** The route label of a request path (query ignored): `/`, `/search`, `/admin/channels`, … or `other`. */
export function routeLabel(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path === '/' || path === '') return '/';
  const second = path.indexOf('/', 1);
  const top = second < 0 ? path : path.slice(0, second);
  if (second > 0) {
    const third = path.indexOf('/', second + 1);
    const two = third < 0 ? path : path.slice(0, third);
    if (SUB_ROUTES.has(two)) return two;
  }
  if (top === '/admin') return '/admin/other';
  return ROUTES.has(top) ? top : 'other';
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']);

/** Latency buckets in seconds: a cache-warm feed takes well under a millisecond, a cold render of 100 long transcripts seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/**
 * The process's default metrics, collected once per process: each collection keeps an event-loop
 * delay monitor running, which tests that build hundreds of apps must not multiply.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createApiMetrics(): ApiMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'transcript_feed_http_requests_total', help: 'HTTP requests answered, by route, method and status (status 0: the connection was cut before the answer ended)',
    labelNames: ['route', 'method', 'status'] as const, registers: [registry],
  });
  const duration = new Histogram({
    name: 'transcript_feed_http_request_duration_seconds', help: 'time from the request reaching the app to its answer ending, by route',
    labelNames: ['route'] as const, buckets: BUCKETS, registers: [registry],
  });
  const cache = new Counter({
    name: 'transcript_feed_feed_cache_total', help: 'feed bodies answered from the render cache (result="hit") or rendered for the request (result="miss")',
    labelNames: ['result'] as const, registers: [registry],
  });
  const notModified = new Counter({
    name: 'transcript_feed_not_modified_total', help: 'conditional GETs answered 304 Not Modified, by route',
    labelNames: ['route'] as const, registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'transcript_feed_rate_limit_refusals_total', help: 'requests refused with 429 Too Many Requests (a key over one of its limits)', registers: [registry],
  });
  const compressions = new Counter({
    name: 'transcript_feed_feed_compressions_total', help: 'cached feed bodies compressed, by coding (once per body and coding; warm compressed answers are not counted)',
    labelNames: ['coding'] as const, registers: [registry],
  });
  // Children by label values: prom-client hashes the labels on every labels() call.
  const counted = new Map<string, Counter.Internal>();
  const timed = new Map<string, Histogram.Internal<'route'>>();
  const child = <T>(map: Map<string, T>, key: string, make: () => T): T => {
    let c = map.get(key);
    if (c === undefined) map.set(key, (c = make()));
    return c;
  };
  const hit = cache.labels('hit');
  const miss = cache.labels('miss');
  return {
    registry,
    async exposition() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
    request(path, rawMethod, status, seconds) {
      const route = routeLabel(path);
      const method = METHODS.has(rawMethod) ? rawMethod : 'other';
      const labels: LabelValues<'route' | 'method' | 'status'> = { route, method, status: String(status) };
      child(counted, `${route} ${method} ${status}`, () => requests.labels(labels)).inc();
      child(timed, route, () => duration.labels(route)).observe(seconds);
      if (status === 429) rateLimited.inc();
    },
    feedCache: (wasHit) => (wasHit ? hit : miss).inc(),
    notModified: (route) => notModified.labels(route).inc(),
    compressed: (coding) => compressions.labels(coding).inc(),
  };
}
