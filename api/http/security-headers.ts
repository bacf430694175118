// Security headers and CORS (spec: nosniff, X-Frame-Options DENY, X-XSS-Protection "1; mode=block";
// CORS for GET and OPTIONS with Content-Type and X-API-Key). helmet 8 would send
// X-XSS-Protection: 0 and X-Frame-Options: SAMEORIGIN, so those two are set here instead.
// Dropped from helmet's defaults (README "Decisions"): Strict-Transport-Security, because the
// service is often run on plain HTTP behind a TLS proxy that owns that header; and
// Cross-Origin-Resource-Policy is relaxed to cross-origin so web feed readers may load feeds.

import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler {
  const base = helmet({
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
  return (req, res, next) => {
    res.setHeader('X-XSS-Protection', '1; mode=block');
    // JSON answers are never cached; the feed route sets its own policy.
    res.setHeader('Cache-Control', 'no-store');
    base(req, res, next);
  };
}

/** Preflight is answered here (204) before any key check: browsers never send keys on preflight. */
export function corsPolicy(): RequestHandler {
  return cors({
    origin: '*',
    methods: ['GET', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'X-API-Key'],
    exposedHeaders: ['X-RateLimit-Remaining', 'Retry-After'],
    maxAge: 600,
  });
}
