// The API as a request listener, not listening (tests start it on port 0). The route table and the
// middleware order are this one screen. GET / (the feed, nearly all the traffic) and GET
// /subscriptions/feed (the combined feed, held to a channel feed's speed) run their steps
// directly on node:http, because Express's own dispatch costs more per request than all of the
// feed's work on a cache-warm request: door (log start, security and CORS headers) → key and rate
// limit → feed → the one error sender. Everything else goes through Express: front door (the same
// door, plus the CORS preflight) → routes (key and rate limit wrapped around anything keyed) → 405
// on known paths → JSON 404 → the one error handler. Both paths run the same functions, so an answer
// is byte-for-byte the same whichever path gave it (test/api/http.test.ts).

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { PlatformClient } from '../shared/platform/types';
import type { Store } from '../shared/store/types';
import type { Logger } from '../shared/logger';
import type { HandleLookupLimits } from './resolve-channel';
import { ApiCache } from './cache';
import { errorHandler, errorSender, methodNotAllowed, methodsAllowed, pathNotFound } from './errors';
import { door, frontDoor } from './http/front-door';
import { authorizer, keyed, type Handler } from './http/keyed';
import type { KeySource } from './http/key-source';
import { redactKeysOf } from './http/key-redaction';
import { DEFAULT_MAX_ANSWERS_PER_KEY, limitAnswersPerKey } from './http/key-answers';

import { admin } from './http/admin';
import { adminChannels } from './routes/admin-channels';
import { adminCrawlers } from './routes/admin-crawlers';
import { adminStatus } from './routes/admin-status';
import { feed } from './routes/feed';
import { webSubRoutes } from './routes/websub';
import { renewAtMs } from '../shared/push-schedule';
import { search } from './routes/search';
import { subscriptionRoutes } from './routes/subscriptions';
import { combinedFeed } from './routes/subscriptions-feed';
import { playlistFeed } from './routes/playlist-feed';
import { isPlaylistQuery } from './query/playlist-query';
import { queryOf } from './http/locals';
import { transcriptFile } from './routes/transcript-file';
import { createApiMetrics, type ApiMetrics } from './metrics';
import { platformCheck } from './routes/admin-platform-check';
import { loopbackOnly, metricsRoute } from './routes/metrics';
import { ENDPOINTS, EXAMPLES, EXTRA_USAGE, SERVICE_NAME, USAGE, VERSION } from './service-info';

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
  /** PUBLIC_BASE_URL: the feeds' self links start with it, whatever Host a client sends. */
  publicBaseUrl?: string | null;
  /** Byte budget of the process's one cache, rendered feeds included (default 32 MiB). */
  renderCacheBytes?: number;
  /** Feeds listed and rendered at once (API_MAX_RENDERS, default 2). */
  maxRenders?: number;
  /** This app's Prometheus metrics (a fresh set when left out). */
  metrics?: ApiMetrics;
  /** METRICS_LOOPBACK_ONLY: GET /metrics without a key, for loopback clients only. */
  metricsLoopbackOnly?: boolean;
  /** What the API's handle lookups may spend: per key a minute, the shared hourly budget, cool-down. */
  handleLookups?: HandleLookupLimits;
  /** Answers in progress at once per key (API_MAX_CONNECTIONS_PER_KEY, default 6). */
  maxAnswersPerKey?: number;
}

/** The listener `listen` serves, and the Express app behind it. */
export type App = RequestListener & { readonly express: Express };

/** GET /health: liveness only, no key, no store (spec), so a load balancer keeps routing to a process that can still explain a store outage. */
const HEALTH = JSON.stringify({ status: 'ok', service: SERVICE_NAME });
const health: RequestHandler = (_req, res) => void res.type('application/json').send(HEALTH);

/** GET /info: what the service is and how to call it (spec, Info body). Requires a key. */
const INFO = JSON.stringify({ service: SERVICE_NAME, version: VERSION, endpoints: ENDPOINTS, usage: USAGE, extra_usage: EXTRA_USAGE, examples: EXAMPLES });
const info: Handler = (_req, res) => void res.type('application/json').send(INFO);

/** GET / or GET /?…: the only requests the direct path takes. */
const isFeed = (req: IncomingMessage): boolean => req.method === 'GET' && req.url !== undefined && (req.url === '/' || req.url.startsWith('/?'));
const COMBINED = '/subscriptions/feed';
const isCombinedFeed = (req: IncomingMessage): boolean =>
  req.method === 'GET' && req.url !== undefined && req.url.startsWith(COMBINED) && (req.url.length === COMBINED.length || req.url[COMBINED.length] === '?');

export function createApp(deps: AppDeps): App {
  const clock = deps.clock ?? (() => new Date());
  const cache = new ApiCache({ maxBytes: deps.renderCacheBytes });
  const metrics = deps.metrics ?? createApiMetrics();

  // Any configured key's value is kept out of every logged URL, whatever carries it.
  redactKeysOf(deps.keys);
  limitAnswersPerKey(deps.keys, deps.maxAnswersPerKey ?? DEFAULT_MAX_ANSWERS_PER_KEY);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // the feed sets its own strong ETag; JSON answers are not cached
  app.set('query parser', 'simple'); // flat strings, arrays for repeats: never nested objects
  app.set('trust proxy', deps.trustProxy ?? false);
  const trustProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;

  const channelFeed = feed({ store: deps.store, platform: deps.platform, clock, cache, logger: deps.logger, maxRenders: deps.maxRenders, trustProxy, publicBaseUrl: deps.publicBaseUrl ?? null, metrics, handleLookups: deps.handleLookups });
  const playlistHandler = playlistFeed({ store: deps.store, clock, cache, logger: deps.logger, trustProxy, publicBaseUrl: deps.publicBaseUrl ?? null });
  // GET / is a channel's feed, or a playlist's when it names a playlist and no channel.
  const feedHandler = (req: IncomingMessage, res: ServerResponse): Promise<void> => (isPlaylistQuery(queryOf(req)) ? playlistHandler(req, res) : channelFeed(req, res));

  const subscriptions = subscriptionRoutes({ store: deps.store, cache, clock, trustProxy, publicBaseUrl: deps.publicBaseUrl ?? null });
  const subscriptionsFeed = combinedFeed({ store: deps.store, cache, clock, logger: deps.logger, maxRenders: deps.maxRenders, trustProxy, publicBaseUrl: deps.publicBaseUrl ?? null });
  const k = (handler: Handler): RequestHandler => keyed(deps.keys, deps.store, clock, handler);

  // One door for both paths: the Express layer and the direct path for GET / enter the same one.
  const enter = door(deps.logger, metrics);
  app.use(frontDoor(enter));
  app.get('/', keyed(deps.keys, deps.store, clock, feedHandler)); // HEAD / comes this way
  app.get('/health', health);
  app.get('/info', k(info));
  app.get('/search', k(search({ store: deps.store, platform: deps.platform, clock, cache, trustProxy, publicBaseUrl: deps.publicBaseUrl ?? null, handleLookups: deps.handleLookups })));
  app.get('/subscriptions', k(subscriptions.exportList));
  app.post('/subscriptions', k(subscriptions.importList));
  app.get('/subscriptions/feed', k(subscriptionsFeed));
  app.delete('/subscriptions/:ref', k(subscriptions.remove));
  app.get('/transcripts/:file', k(transcriptFile({ store: deps.store })));
  // The platform's hub: the one keyless route besides /health (its token and HMAC authenticate it).
  const webSub = webSubRoutes({ store: deps.store, logger: deps.logger, clock, renewAt: renewAtMs });
  app.get('/websub/:token', webSub.verify);
  app.post('/websub/:token', ...webSub.notify);
  // The operator's routes: admin keys only (api/http/admin.ts).
  const op = (handler: Handler): RequestHandler => admin(deps.keys, deps.store, clock, handler);
  const channels = adminChannels({ store: deps.store, clock, logger: deps.logger });
  app.get('/status', op(adminStatus({ store: deps.store, clock })));
  app.get('/admin/crawlers', op(adminCrawlers({ store: deps.store, clock })));
  app.get('/admin/channels', op(channels.list));
  app.get('/admin/channels/:id', op(channels.one));
  app.delete('/admin/channels/:id', op(channels.remove));
  app.post('/admin/channels/:id/refresh', op(channels.refresh));
  app.get('/admin/platform-check', op(platformCheck({ store: deps.store, clock })));
  app.get('/metrics', deps.metricsLoopbackOnly ? loopbackOnly(metricsRoute(metrics)) : op(metricsRoute(metrics)));
  app.all(['/', '/health', '/info', '/search', '/subscriptions', '/subscriptions/feed', '/subscriptions/:ref', '/transcripts/:file', '/status', '/admin/crawlers', '/admin/channels', '/admin/platform-check', '/metrics', '/websub/:token'], methodNotAllowed);
  app.all('/admin/channels/:id', methodsAllowed('GET, HEAD, DELETE'));
  app.all('/admin/channels/:id/refresh', methodsAllowed('POST'));
  app.use(pathNotFound);
  app.use(errorHandler(deps.logger));

  // The direct path for the two feeds: the same door, key check, rate limit, feed and error answer.
  const authorize = authorizer(deps.keys, deps.store, clock);
  const sendError = errorSender(deps.logger);
  const direct = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    enter(req, res);
    try {
      await authorize(req, res);
      await handler(req, res);
    } catch (err) {
      sendError(err, req, res);
    }
  };
  const directFeed = direct(feedHandler);
  const directCombined = direct(subscriptionsFeed);

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (isFeed(req)) void directFeed(req, res);
    else if (isCombinedFeed(req)) void directCombined(req, res);
    else app(req, res);
  };
  return Object.assign(listener, { express: app });
}
