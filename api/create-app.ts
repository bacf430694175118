// The API as an Express app, not listening (tests start it on port 0). The route table and the
// middleware order are this one screen: front door (log, security and CORS headers, preflight) →
// routes (key and rate limit wrapped around anything keyed) → 405 on known paths → JSON 404 → the
// one error handler. Few layers on purpose: each Express layer costs on every request.

import express, { type Express, type RequestHandler } from 'express';
import type { PlatformClient } from '../shared/platform/types';
import type { Store } from '../shared/store/types';
import type { Logger } from '../shared/logger';
import { ApiCache } from './cache';
import { errorHandler, methodNotAllowed, pathNotFound } from './errors';
import { frontDoor } from './http/front-door';
import { keyed, type Handler, type KeySource } from './http/keyed';
import { feed } from './routes/feed';
import { ENDPOINTS, EXAMPLES, SERVICE_NAME, USAGE, VERSION } from './service-info';

export interface AppDeps {
  store: Store;
  /** The live API keys (a KeyRing, or a fixed list in tests). */
  keys: KeySource;
  /** Only handle resolution; the API never fetches transcripts. */
  platform: Pick<PlatformClient, 'resolveHandle'>;
  /** Root logger. */
  logger: Logger;
  clock?: () => Date;
  /** Express `trust proxy` (TRUST_PROXY): behind a TLS proxy the feeds' self links say https. */
  trustProxy?: boolean | number | string;
  /** Byte budget of the process's one cache, rendered feeds included (default 32 MiB). */
  renderCacheBytes?: number;
  /** Feeds listed and rendered at once (API_MAX_RENDERS, default 2). */
  maxRenders?: number;
}

/** GET /health: liveness only, no key, no store (spec), so a load balancer keeps routing to a process that can still explain a store outage. */
const HEALTH = JSON.stringify({ status: 'ok', service: SERVICE_NAME });
const health: RequestHandler = (_req, res) => void res.type('application/json').send(HEALTH);

/** GET /info: what the service is and how to call it (spec, Info body). Requires a key. */
const INFO = JSON.stringify({ service: SERVICE_NAME, version: VERSION, endpoints: ENDPOINTS, usage: USAGE, examples: EXAMPLES });
const info: Handler = (_req, res) => void res.type('application/json').send(INFO);

export function createApp(deps: AppDeps): Express {
  const clock = deps.clock ?? (() => new Date());
  const cache = new ApiCache({ maxBytes: deps.renderCacheBytes });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // the feed sets its own strong ETag; JSON answers are not cached
  app.set('query parser', 'simple'); // flat strings, arrays for repeats: never nested objects
  app.set('trust proxy', deps.trustProxy ?? false);

  app.use(frontDoor(deps.logger));

  const feedHandler = feed({ store: deps.store, platform: deps.platform, clock, cache, logger: deps.logger, maxRenders: deps.maxRenders });
  // The feed first: it is nearly all the traffic, and the router tries routes in order.
  app.get('/', keyed(deps.keys, deps.store, clock, feedHandler));
  app.get('/health', health);
  app.get('/info', keyed(deps.keys, deps.store, clock, info));
  app.all(['/', '/health', '/info'], methodNotAllowed);

  app.use(pathNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}
