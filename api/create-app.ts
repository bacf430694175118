// The API as a request listener, not listening (tests start it on port 0). The route table below
// is the one place that says which path takes which method, key and dispatcher:
//
// * `direct` rows (the feeds readers poll, and /health) are served on plain node:http when the
//   request is GET or HEAD and its path is exactly the row's: Express's own dispatch costs more
//   per request than all of a cache-warm feed's work. Door → the row's handler → the one error
//   sender.
// * Every row is also an Express route, so everything else (other spellings of a direct path such
//   as `/search/`, paths with parameters, bodies, OPTIONS, other methods) goes through Express:
//   front door (the same door, plus the CORS preflight) → the row's handler → 405 with the row's
//   methods → JSON 404 naming the table's paths → the same error sender.
//
// Both dispatchers run the same handler functions on the same node:http objects (query, key,
// origin and freshness come from api/http/request-state.ts, keyed.ts, http/origin.ts and
// http/feed-answer.ts, never from Express), so an answer is byte-for-byte the same whichever gave it
// (test/api/http.test.ts).

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import type { PlatformClient } from '../shared/platform/types';
import type { Store } from '../shared/store/types';
import type { Logger } from '../shared/logger';
import type { HandleLookupLimits } from './resolve-channel';
import { ApiCache } from './cache';
import { ApiError } from './errors';
import { errorHandler, errorSender, methodsAllowed } from './http/error-answer';
import { door, frontDoor } from './http/request-entry';
import { JSON_TYPE, text } from './http/answer';
import { keyed, type Handler } from './http/keyed';
import type { KeySource } from './http/key-source';
import { defaultSummaryKey } from './feed/summaries';
import { feedAnswers } from './http/feed-answer';
import { redactKeysOf } from './http/key-redaction';
import { DEFAULT_MAX_ANSWERS_PER_KEY, limitAnswersPerKey } from './http/answers-per-key';

import { admin } from './http/admin';
import { stateChange } from './http/same-origin';
import { adminChannels } from './routes/admin-channels';
import { adminCrawlers } from './routes/admin-crawlers';
import { adminStatus } from './routes/admin-status';
import { feed } from './routes/feed';
import { originOf } from './http/origin';
import { webSubRoutes } from './routes/websub';
import { renewAtMs } from '../shared/push-schedule';
import { search, type SearchLimits } from './routes/search';
import { subscriptionRoutes } from './routes/subscriptions';
import { combinedFeed } from './routes/subscriptions-feed';
import { playlistFeed } from './routes/playlist-feed';
import { isPlaylistQuery } from './query/playlist-query';
import { queryOf } from './http/request-state';
import { transcriptFile } from './routes/transcript-file';
import { createApiMetrics, type ApiMetrics } from './metrics';
import { platformCheckRoutes } from './routes/admin-platform-check';
import { loopbackOnly, metricsRoute } from './routes/metrics';
import { mcpRoute } from './mcp/http';
import { webApp } from './webapp/routes';
import { ChannelFollowing } from './registration/following';
import { ENDPOINTS, EXAMPLES, EXTRA_USAGE, SERVICE_NAME, USAGE, VERSION } from './service-info';

export interface AppDeps {
  store: Store;
  /** SUMMARY_LANGUAGE: which stored summaries `summary=` shows; left out: `transcript`. */
  summaryLanguage?: string;
  /** The live API keys (a KeyRing, or a fixed list in tests). */
  keys: KeySource;
  /** Only handle resolution; the API never fetches transcripts. */
  platform: Pick<PlatformClient, 'resolveHandle'>;
  /** Root logger. */
  logger: Logger;
  clock?: () => Date;
  /** The shortest WebSub lease granted (3600 s; the push end-to-end test shortens it to see a renewal). */
  minLeaseSeconds?: number;
  /** Express `trust proxy` (TRUST_PROXY): behind a TLS proxy the feeds' self links say https. */
  trustProxy?: boolean | number | string;
  /** PLAYER_EMBED_URL: the web app's transcript page embeds <it>/<video id> (default the platform's). */
  playerEmbedUrl?: string;
  /** PUBLIC_BASE_URL: the feeds' self links start with it, whatever Host a client sends. */
  publicBaseUrl?: string | null;
  /** Byte budget of the process's one cache, rendered feeds included (default 32 MiB). */
  renderCacheBytes?: number;
  /** Feeds listed and rendered at once (API_MAX_RENDERS, default 2). */
  maxRenders?: number;
  /** Bytes the channel feeds being listed and rendered may hold together (API_RENDER_BYTES, default 64 MiB). */
  renderBytes?: number;
  /** This app's Prometheus metrics (a fresh set when left out). */
  metrics?: ApiMetrics;
  /**
   * Record requests, cache results and 304s in the metrics (default true). Off only to measure
   * what recording costs (bench/api.ts); /metrics then shows the process's own figures.
   */
  recordMetrics?: boolean;
  /** METRICS_LOOPBACK_ONLY: GET /metrics without a key, for loopback clients only. */
  metricsLoopbackOnly?: boolean;
  /** What the API's handle lookups may spend: per key a minute, the shared hourly budget, cool-down. */
  handleLookups?: HandleLookupLimits;
  /** Answers in progress at once per key (API_MAX_CONNECTIONS_PER_KEY, default 6). */
  maxAnswersPerKey?: number;
  /** New channels one key may register in any hour (CRAWL_NEW_CHANNELS_PER_KEY_HOUR); left out: no bound. */
  newChannelsPerKeyHour?: number;
  /** Searches at once per process and per key, and each one's time budget (API_MAX_SEARCHES, …). */
  search?: SearchLimits;
  /** New channels one key's imports give the crawler in any hour (CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR); left out: its default. */
  importChannelsPerKeyHour?: number;
}

/** The listener `listen` serves, and the Express app behind it. */
export type App = RequestListener & { readonly express: Express };

/** GET /health: liveness only, no key, no store (spec), so a load balancer keeps routing to a process that can still explain a store outage. */
const HEALTH = jsonBody({ status: 'ok', service: SERVICE_NAME });
const health: Plain = (_req, res) => text(res, 200, JSON_TYPE, HEALTH);

/** GET /info: what the service is and how to call it (spec, Info body). Requires a key. */
const INFO = jsonBody({ service: SERVICE_NAME, version: VERSION, endpoints: ENDPOINTS, usage: USAGE, extra_usage: EXTRA_USAGE, examples: EXAMPLES });
const info: Plain = (_req, res) => text(res, 200, JSON_TYPE, INFO);

function jsonBody(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

/** A handler on plain node:http objects: what a direct row runs (Express runs it too). */
type Plain = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

type Method = 'GET' | 'POST' | 'DELETE';

/** One row of the route table. GET also answers HEAD; every path answers the CORS preflight (OPTIONS). */
type Route =
  | { readonly path: string; readonly via: 'direct'; readonly GET: Plain }
  | { readonly path: string; readonly via: 'express'; readonly methods: Partial<Record<Method, RequestHandler | readonly RequestHandler[]>>; readonly listed?: false };

/** The methods a row is served with, as the Allow header of its 405 says them. */
function allowOf(route: Route): string {
  const methods = route.via === 'direct' ? ['GET'] : (Object.keys(route.methods) as Method[]);
  return [...methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'].join(', ');
}

/**
 * What the rows under `route`'s path serve beyond its own methods, as `DELETE /subscriptions/<ref>`:
 * a 405 on /subscriptions names them, since a client trying PUT there may be after one of them.
 */
function beneathOf(route: Route, routes: readonly Route[]): string {
  if (route.path === '/') return '';
  const own = new Set(allowOf(route).split(', '));
  return routes
    .filter((r) => r.path.startsWith(`${route.path}/`) && (r.via === 'direct' || r.listed !== false))
    .flatMap((r) => allowOf(r).split(', ').filter((m) => m !== 'HEAD' && m !== 'OPTIONS' && !own.has(m)).map((m) => `${m} ${shownPath(r)}`))
    .join(', ');
}

/** How a 404 names a row: `:name` parameters as `<name>`. */
const shownPath = (route: Route): string => route.path.replace(/:(\w+)/g, '<$1>');

export function createApp(deps: AppDeps): App {
  const clock = deps.clock ?? (() => new Date());
  const cache = new ApiCache({ maxBytes: deps.renderCacheBytes });
  const metrics = deps.metrics ?? createApiMetrics();
  const recorded = deps.recordMetrics === false ? undefined : metrics;

  // Any configured key's value is kept out of every logged URL, whatever carries it.
  redactKeysOf(deps.keys);
  limitAnswersPerKey(deps.keys, deps.maxAnswersPerKey ?? DEFAULT_MAX_ANSWERS_PER_KEY);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // the feeds set their own strong ETags; JSON answers are not cached
  app.set('query parser', 'simple'); // what queryOf (http/request-state.ts) parses with: node:querystring
  app.set('trust proxy', deps.trustProxy ?? false);
  const trustProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const publicBaseUrl = deps.publicBaseUrl ?? null;

  // The one tail of every feed-like answer: 304, the cached body, its content coding.
  const answer = feedAnswers(cache, clock, recorded);
  const summaryKey = defaultSummaryKey(deps.summaryLanguage);
  const channelFeed = feed({ store: deps.store, platform: deps.platform, clock, cache, answer, logger: deps.logger, maxRenders: deps.maxRenders, renderBytes: deps.renderBytes, trustProxy, publicBaseUrl, handleLookups: deps.handleLookups, newChannelsPerKeyHour: deps.newChannelsPerKeyHour, summaryKey });
  const playlistHandler = playlistFeed({ store: deps.store, clock, cache, answer, logger: deps.logger, trustProxy, publicBaseUrl, newChannelsPerKeyHour: deps.newChannelsPerKeyHour, summaryKey });
  // GET / is a channel's feed, or a playlist's when it names a playlist and no channel.
  const feedOrPlaylist: Plain = (req, res) => (isPlaylistQuery(queryOf(req)) ? playlistHandler(req, res) : channelFeed(req, res));
  const subscriptions = subscriptionRoutes({ store: deps.store, cache, clock, trustProxy, publicBaseUrl, importChannelsPerKeyHour: deps.importChannelsPerKeyHour });
  const webSub = webSubRoutes({ store: deps.store, logger: deps.logger, clock, renewAt: renewAtMs, minLeaseSeconds: deps.minLeaseSeconds });
  const channels = adminChannels({ store: deps.store, clock, logger: deps.logger });
  // MCP (api/mcp/): its own key presentation (a bearer token or X-API-Key), the same rate limit.
  const mcp = mcpRoute({ store: deps.store, keys: deps.keys, clock, logger: deps.logger, publicBaseUrl, sameOrigin: (req, origin) => origin === originOf(req, { trustProxy, publicBaseUrl }) });

  // The reader's web app (api/webapp/): its own sessions; pages, not JSON.
  const following = new ChannelFollowing({ store: deps.store, platform: deps.platform, cache, logger: deps.logger, handleLookups: deps.handleLookups, newChannelsPerKeyHour: deps.newChannelsPerKeyHour });
  const web = webApp({ store: deps.store, keys: deps.keys, clock, logger: deps.logger, playerEmbedUrl: deps.playerEmbedUrl, summaryKey, importChannelsPerKeyHour: deps.importChannelsPerKeyHour, originOf: (req) => originOf(req, { trustProxy, publicBaseUrl }), following, cache , search: { platform: deps.platform, handleLookups: deps.handleLookups, budgetMs: deps.search?.budgetMs } });

  // Access: `key` = a reader's (or admin's) key and its rate limit; `op` = an admin key.
  const key = <Q extends IncomingMessage, S extends ServerResponse>(handler: (req: Q, res: S) => void | Promise<void>) => keyed(deps.keys, deps.store, clock, handler);
  const op = (handler: Handler): RequestHandler => admin(deps.keys, deps.store, clock, handler);
  // An admin change: only from this service's own pages or a client that is not a browser (403), no form bodies (415).
  const change = (handler: Handler): RequestHandler => op(stateChange({ trustProxy, publicBaseUrl }, handler));
  const check = platformCheckRoutes({ store: deps.store, clock });
  const notFound = (): never => {
    throw new ApiError('pathNotFound');
  };

  // ── the route table ───────────────────────────────────────────────────────────────────────────
  const routes: readonly Route[] = [
    { path: '/', via: 'direct', GET: key(feedOrPlaylist) },
    { path: '/health', via: 'direct', GET: health },
    { path: '/search', via: 'direct', GET: key(search({ store: deps.store, platform: deps.platform, clock, cache, answer, trustProxy, publicBaseUrl, handleLookups: deps.handleLookups, limits: deps.search, summaryKey })) },
    { path: '/subscriptions/feed', via: 'direct', GET: key(combinedFeed({ store: deps.store, cache, clock, answer, logger: deps.logger, maxRenders: deps.maxRenders, trustProxy, publicBaseUrl, summaryKey })) },
    { path: '/info', via: 'express', methods: { GET: key(info) } },
    { path: '/subscriptions', via: 'express', methods: { GET: key(subscriptions.exportList), POST: key(subscriptions.importList) } },
    { path: '/subscriptions/:ref', via: 'express', methods: { DELETE: key(subscriptions.remove) } },
    { path: '/transcripts/:file', via: 'express', methods: { GET: key(transcriptFile({ store: deps.store, answer })) } },
    // No GET: the server sends nothing unasked, so it offers no standing SSE stream (405, as the transport allows).
    { path: '/mcp', via: 'express', methods: { POST: mcp, DELETE: mcp } },
    // The platform's hub: keyless (its token and HMAC authenticate it), and not named in a 404.
    { path: '/websub/:token', via: 'express', methods: { GET: webSub.verify, POST: webSub.notify }, listed: false },
    { path: '/status', via: 'express', methods: { GET: op(adminStatus({ store: deps.store, clock, labels: (keyId) => deps.keys.keys.find((k) => k.keyId === keyId)?.name ?? null, summaryKey })) } },
    { path: '/admin/crawlers', via: 'express', methods: { GET: op(adminCrawlers({ store: deps.store, clock })) } },
    { path: '/admin/channels', via: 'express', methods: { GET: op(channels.list) } },
    { path: '/admin/channels/:id', via: 'express', methods: { GET: op(channels.one), DELETE: change(channels.remove) } },
    { path: '/admin/channels/:id/refresh', via: 'express', methods: { POST: change(channels.refresh) } },
    { path: '/admin/platform-check', via: 'express', methods: { GET: op(check.last), POST: change(check.fresh) } },
    { path: '/app', via: 'express', methods: { GET: web.home } },
    { path: '/app/channels/:id', via: 'express', methods: { GET: web.channel }, listed: false },
    { path: '/app/playlists/:id', via: 'express', methods: { GET: web.playlist }, listed: false },
    // Before the page's row, which would take `<id>.vtt` for an id.
    { path: '/app/videos/:id.:format', via: 'express', methods: { GET: web.videoFile }, listed: false },
    { path: '/app/videos/:id', via: 'express', methods: { GET: web.video }, listed: false },
    { path: '/app/search', via: 'express', methods: { GET: web.search }, listed: false },
    { path: '/app/subscriptions', via: 'express', methods: { GET: web.subscriptions, POST: web.subscriptionsUpload }, listed: false },
    { path: '/app/subscriptions.opml', via: 'express', methods: { GET: web.subscriptionsOpml }, listed: false },
    { path: '/app/follow', via: 'express', methods: { POST: web.follow }, listed: false },
    { path: '/app/unfollow', via: 'express', methods: { POST: web.unfollow }, listed: false },
    { path: '/app/sign-in', via: 'express', methods: { POST: web.signIn }, listed: false },
    { path: '/app/sign-out', via: 'express', methods: { POST: web.signOut }, listed: false },
    { path: '/app/assets/:file', via: 'express', methods: { GET: web.asset }, listed: false },
    { path: '/metrics', via: 'express', methods: { GET: deps.metricsLoopbackOnly ? loopbackOnly(metricsRoute(metrics)) : op(metricsRoute(metrics)) } },
  ];
  const paths = routes.filter((r) => r.via === 'direct' || r.listed !== false).map(shownPath).join(', ');
  const errorOptions = { paths };

  // Express: every row (methods first, then each row's 405, so no 405 shadows another row's
  // method), then the JSON 404 and the one error handler.
  const enter = door(deps.logger, recorded);
  app.use(frontDoor(enter));
  for (const r of routes) {
    if (r.via === 'direct') app.get(r.path, r.GET);
    else for (const [method, handlers] of Object.entries(r.methods)) app[method.toLowerCase() as 'get' | 'post' | 'delete'](r.path, ...[handlers].flat());
  }
  for (const r of routes) app.all(r.path, methodsAllowed(allowOf(r), beneathOf(r, routes)));
  app.use(() => notFound());
  app.use(errorHandler(deps.logger, errorOptions));

  // The direct dispatcher: exact path → door, handler, the same error sender.
  const sendError = errorSender(deps.logger, errorOptions);
  const direct = new Map<string, Plain>();
  for (const r of routes) {
    if (r.via !== 'direct') continue;
    const handler = r.GET;
    direct.set(r.path, async (req, res) => {
      enter(req, res);
      try {
        await handler(req, res);
      } catch (err) {
        sendError(err, req, res);
      }
    });
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const handler = req.method === 'GET' || req.method === 'HEAD' ? direct.get(pathOf(req.url)) : undefined;
    if (handler !== undefined) void handler(req, res);
    else app(req, res);
  };
  return Object.assign(listener, { express: app });
}

/** The path of a request target (query left off). */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
