// The API as an Express app, not listening (tests start it on port 0). The route table and the
// middleware order are this one screen: log → security headers → CORS/preflight → routes (key and
// rate limit before anything keyed) → 405 on known paths → JSON 404 → the one error handler.

import express, { type Express } from 'express';
import type { PlatformClient } from '../shared/platform/types';
import type { Store } from '../shared/store/types';
import type { Logger } from '../shared/logger';
import { accessLog } from './http/access-log';
import { authenticate, type KeySource } from './http/authenticate';
import { errorHandler, methodNotAllowed, pathNotFound } from './http/error-handler';
import { rateLimit } from './http/rate-limit';
import { corsPolicy, securityHeaders } from './http/security-headers';
import { feed } from './routes/feed';
import { health } from './routes/health';
import { info } from './routes/info';

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
  /** Byte budget of the rendered-feed cache (default 32 MiB). */
  renderCacheBytes?: number;
}

export function createApp(deps: AppDeps): Express {
  const clock = deps.clock ?? (() => new Date());
  const keyed = [authenticate(deps.keys), rateLimit(deps.store, clock)];

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // the feed sets its own strong ETag; JSON answers are not cached
  app.set('query parser', 'simple'); // flat strings, arrays for repeats: never nested objects
  app.set('trust proxy', deps.trustProxy ?? false);

  app.use(accessLog(deps.logger));
  app.use(securityHeaders());
  app.use(corsPolicy());

  app.get('/health', health);
  app.get('/info', ...keyed, info);
  app.get('/', ...keyed, feed({ store: deps.store, platform: deps.platform, clock, renderCacheBytes: deps.renderCacheBytes }));
  app.all(['/', '/health', '/info'], methodNotAllowed);

  app.use(pathNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}
