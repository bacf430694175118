// Security headers and CORS (spec: nosniff, X-Frame-Options DENY, X-XSS-Protection "1; mode=block";
// CORS for GET and OPTIONS with Content-Type and X-API-Key). helmet 8 would send
// X-XSS-Protection: 0 and X-Frame-Options: SAMEORIGIN, so those two are set here instead.
// Dropped from helmet's defaults (README "Decisions"): Strict-Transport-Security, because the
// service is often run on plain HTTP behind a TLS proxy that owns that header; and
// Cross-Origin-Resource-Policy is relaxed to cross-origin so web feed readers may load feeds.
//
// helmet and cors stay the source of their headers, but neither depends on the request here
// (fixed CSP, origin '*'), so both run once at startup against a recording response and every
// request just copies the recorded list. Only a preflight runs cors itself.

import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

const helmetMiddleware = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  xXssProtection: false,
  // A key in a URL must not travel on in Referer headers when someone clicks through.
  referrerPolicy: { policy: 'no-referrer' },
});

/** Preflight is answered (204) before any key check: browsers never send keys on preflight. */
export const corsPolicy: RequestHandler = cors({
  origin: '*',
  methods: ['GET', 'OPTIONS'],
  allowedHeaders: ['Content-Type', 'X-API-Key'],
  exposedHeaders: ['X-RateLimit-Remaining', 'Retry-After'],
  maxAge: 600,
});

/** The headers a request-independent middleware sets on a plain GET, in the order it sets them. */
function recordHeaders(middleware: (req: never, res: never, next: (err?: unknown) => void) => void): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const res = {
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let called = false;
  middleware({ method: 'GET', headers: {} } as never, res as never, (err) => {
    if (err) throw err;
    called = true;
  });
  if (!called) throw new Error('a header middleware did not finish synchronously at startup');
  return [...headers.values()];
}

/** Every header a non-preflight answer starts with: helmet's, ours, and CORS's. */
export function staticHeaders(): HeaderList {
  return [
    ...recordHeaders(helmetMiddleware),
    ['X-XSS-Protection', '1; mode=block'],
    // JSON answers are never cached; the feed route sets its own policy.
    ['Cache-Control', 'no-store'],
    ...recordHeaders(corsPolicy),
  ];
}
