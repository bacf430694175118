// What every request goes through first, as one Express layer: the access-log start, the fixed
// security and CORS headers, and the CORS preflight answer. The access log records the request URL
// as key-redaction.ts redacts it (withoutApiKey).
//
// Security headers and CORS (spec: nosniff, X-Frame-Options DENY, X-XSS-Protection "1; mode=block";
// CORS for GET and OPTIONS with Content-Type and X-API-Key). helmet 8 would send
// X-XSS-Protection: 0 and X-Frame-Options: SAMEORIGIN, so those two are set here instead.
// Dropped from helmet's defaults (README "Decisions"): Strict-Transport-Security, because the
// service is often run on plain HTTP behind a TLS proxy that owns that header; and
// Cross-Origin-Resource-Policy is relaxed to cross-origin so web feed readers may load feeds.
// helmet and cors stay the source of their headers, but neither depends on the request here
// (fixed CSP, origin '*'), so both run once per process against a recording response and every
// request just copies the recorded list. Only a preflight runs cors itself.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { categoryLogger, type Logger } from '../../shared/logger';
import { withoutApiKey } from './key-redaction';
import type { ApiMetrics } from '../metrics';
import { requestUrl, wasCut } from './locals';

/** The front door as one Express layer: the given door (the one the direct path uses), then the CORS preflight answer. */
export function frontDoor(enter: Door): RequestHandler {
  return (req, res, next) => {
    enter(req, res);
    if (req.method === 'OPTIONS') corsPolicy(req, res, next);
    else next();
  };
}

export type Door = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * What every answer starts with, on plain node:http objects (the feed's direct path calls it too):
 * the access-log start (and the request's metrics, taken when it ends) and the fixed headers.
 * Entering twice is harmless (one log line, one count).
 */
export function door(logger: Logger, metrics?: ApiMetrics): Door {
  const startLog = accessLogger(logger, metrics);
  const headers = staticHeaders();
  return (_req, res) => {
    startLog(res);
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
  };
}

// ── security headers and CORS ──────────────────────────────────────────────

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
const corsPolicy: RequestHandler = cors({
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

let recorded: HeaderList | undefined;

/**
 * Every header a non-preflight answer starts with: helmet's, ours, and CORS's. Recorded on the
 * first call and shared after that: none of them depends on the request.
 */
export function staticHeaders(): HeaderList {
  recorded ??= [
    ...recordHeaders(helmetMiddleware),
    ['X-XSS-Protection', '1; mode=block'],
    // JSON answers are never cached; the feed route sets its own policy.
    ['Cache-Control', 'no-store'],
    ...recordHeaders(corsPolicy),
  ];
  return recorded;
}

// ── access log and request metrics ─────────────────────────────────────────
// One line per request (category api.http): method, path without api_key, status, ms; and one
// count and latency observation in the metrics. Hot path: one shared 'close' listener reading what
// it needs from the response itself, so a request allocates no closure and no once-wrapper; the
// message is short because the fields already carry method, path, status and time. A response is
// finished once it is handed to the socket, which may still hold much of it for a slow reader: then
// the line waits for the socket to drain (`request`) or close first (`cut`, with `cut: true`), so an
// answer the client never got whole is never logged (or counted) as a plain 200.

const START = Symbol('accessLogStart');
const LOG = Symbol('accessLog');
const SOCKET = Symbol('accessLogSocket');
const METRICS = Symbol('metrics');

type Logged = ServerResponse & { [START]?: bigint; [LOG]?: Logger | null; [SOCKET]?: Socket | null; [METRICS]?: ApiMetrics | undefined };

function logLine(res: Logged, outcome: 'request' | 'aborted' | 'cut'): void {
  const ns = Number(process.hrtime.bigint() - res[START]!);
  const url = requestUrl(res.req);
  // A cut answer counts as status 0 like an aborted one: the client did not get it.
  res[METRICS]?.request(url, res.req.method ?? '', outcome === 'request' ? res.statusCode : 0, ns / 1e9);
  const log = res[LOG];
  if (!log) return;
  const fields = { method: res.req.method, path: withoutApiKey(url), status: outcome === 'aborted' ? 0 : res.statusCode, ms: Math.round(ns / 1e4) / 100 };
  if (outcome === 'cut') log.warning({ ...fields, cut: true }, 'cut');
  else log.info(fields, outcome);
}

function onClose(this: Logged): void {
  const socket = this[SOCKET];
  if (wasCut(this)) return logLine(this, 'cut');
  if (!this.writableFinished) return logLine(this, 'aborted');
  if (socket && !socket.destroyed && socket.writableLength > 0) {
    const drained = (): void => {
      socket.off('close', closed);
      logLine(this, 'request');
    };
    const closed = (): void => {
      socket.off('drain', drained);
      logLine(this, socket.writableLength > 0 || wasCut(this) ? 'cut' : 'request');
    };
    socket.once('drain', drained);
    socket.once('close', closed);
    return;
  }
  logLine(this, 'request');
}

/** Returns what starts one request's line; it logs and counts when the response closes (finished or cut). */
function accessLogger(root: Logger, metrics: ApiMetrics | undefined): (res: ServerResponse) => void {
  const log = categoryLogger(root, 'api.http');
  return (res) => {
    const r = res as Logged;
    if (r[START] !== undefined) return;
    const logs = log.isLevelEnabled('info');
    if (!logs && metrics === undefined) return;
    r[START] = process.hrtime.bigint();
    r[LOG] = logs ? log : null;
    r[SOCKET] = res.socket;
    r[METRICS] = metrics;
    r.on('close', onClose);
  };
}
