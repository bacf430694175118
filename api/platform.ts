// The one platform capability the API uses: handle → channel id, over the plain HTTP client
// (no browser, no challenge proxy: one small request, cached in the store afterwards).

import type { Config } from '../shared/config/load';
import { categoryLogger, type Logger } from '../shared/logger';
import { CookieJar } from '../shared/platform/cookie-jar';
import { PlatformHttp } from '../shared/platform/http-client';
import { resolveHandle } from '../shared/platform/resolve';
import type { PlatformClient } from '../shared/platform/types';

export function handleResolver(config: Config, root: Logger): Pick<PlatformClient, 'resolveHandle'> {
  const http = new PlatformHttp({
    baseUrl: config.platformBaseUrl,
    timeoutMs: config.platformTimeoutMs,
    jar: new CookieJar(new URL(config.platformBaseUrl).host),
    logger: categoryLogger(root, 'platform.http'),
  });
  return { resolveHandle: (handle) => resolveHandle(http, handle) };
}
