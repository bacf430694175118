// An answer's head: the fixed header fields every answer carries (helmet's, ours, CORS's) and how
// they reach the wire.
//
// Security headers and CORS (spec: nosniff, X-Frame-Options DENY, X-XSS-Protection "1; mode=block";
// CORS for GET and OPTIONS with Content-Type and X-API-Key). helmet 8 would send
// X-XSS-Protection: 0 and X-Frame-Options: SAMEORIGIN, so those two are set here instead.
// Dropped from helmet's defaults (README "Decisions"): Strict-Transport-Security, because the
// service is often run on plain HTTP behind a TLS proxy that owns that header; and
// Cross-Origin-Resource-Policy is relaxed to cross-origin so web feed readers may load feeds.
// helmet and cors stay the source of their headers, but neither depends on the request here
// (fixed CSP, origin '*'), so both run once per process against a recording response.
//
// How they are written. On the feeds' direct path (create-app.ts) nothing is set while a request is
// handled: the door marks the head as owed, fields a step adds on the way (X-RateLimit-Remaining)
// wait beside it, and the answer's writer hands node:http the whole head as one precomputed array in
// one writeHead call: on Node 20 a 304's head of thirteen fields set one by one took about 3.5 µs,
// the same head as one array about 1.2 µs, of a cache-warm answer's ~45 µs. Writers that build
// their head field by field (JSON errors, Express's routes) call `settle` first, which sets what is
// owed.
//
// A 304 carries the fields RFC 9110 §15.4.5 asks for (those a 200 would have among ETag,
// Cache-Control, Vary, Date; Last-Modified too) and CORS's, so a web client may read it and its
// X-RateLimit-Remaining; not the security headers, which describe how to treat a body the 304 does
// not have: a cache keeps the stored 200's (RFC 9111 §4.3.4).

import type { ServerResponse } from 'node:http';
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

interface Blocks {
  /** Every answer but a 304: the security headers, then CORS's. */
  answer: HeaderList;
  /** A 304: CORS's only. */
  notModified: HeaderList;
  /** The same two as flat [name, value, …] arrays, as writeHead takes them. */
  answerFlat: readonly string[];
  notModifiedFlat: readonly string[];
}

let recorded: Blocks | undefined;

/** Recorded on first use and shared after that: none of them depends on the request. */
function blocks(): Blocks {
  if (recorded === undefined) {
    const security: HeaderList = [...recordHeaders(helmetMiddleware), ['X-XSS-Protection', '1; mode=block']];
    const corsHeaders = recordHeaders(corsPolicy);
    const answer = [...security, ...corsHeaders];
    recorded = { answer, notModified: corsHeaders, answerFlat: answer.flat(), notModifiedFlat: corsHeaders.flat() };
  }
  return recorded;
}

/** The answer's Cache-Control unless its writer says otherwise: JSON answers are never cached. */
const DEFAULT_CACHE_CONTROL: readonly [string, string] = ['Cache-Control', 'no-store'];

/**
 * Every header a non-304 answer starts with, its default Cache-Control included: what answers
 * written outside any app (server.ts's raw 400 and 405) carry.
 */
export function staticHeaders(): HeaderList {
  return [...blocks().answer, DEFAULT_CACHE_CONTROL];
}

// ── the owed head ──────────────────────────────────────────────────────────

const OWED = Symbol('owedHead');
/** Present while the head is owed: the fields added so far, flat. Null once settled or written. */
type Owing = ServerResponse & { [OWED]?: string[] | null };

/** The door's part: this answer's fixed fields are owed, nothing is set yet. */
export function oweHead(res: ServerResponse): void {
  if ((res as Owing)[OWED] === undefined) (res as Owing)[OWED] = [];
}

/** A field of this answer whatever its status: kept with the owed head while there is one, else set. */
export function addField(res: ServerResponse, name: string, value: string): void {
  const owed = (res as Owing)[OWED];
  if (owed) owed.push(name, value);
  else res.setHeader(name, value);
}

/**
 * For writers that set their head field by field: sets what is owed (the fixed fields, the default
 * Cache-Control, the fields added), never replacing a field the writer already set.
 */
export function settle(res: ServerResponse): void {
  const owed = (res as Owing)[OWED];
  if (!owed) return;
  (res as Owing)[OWED] = null;
  for (const [name, value] of blocks().answer) if (!res.hasHeader(name)) res.setHeader(name, value);
  if (!res.hasHeader('Cache-Control')) res.setHeader(...DEFAULT_CACHE_CONTROL);
  for (let i = 0; i < owed.length; i += 2) res.setHeader(owed[i]!, owed[i + 1]!);
}

/**
 * Writes the head now: the fixed block of `status` (a 304's is CORS only), the fields added, then
 * `fields` ([name, value, …], a Cache-Control among them). On an owed head that is one writeHead
 * with one array. On a settled one (an Express route) the fields are set one by one, and a 304
 * drops the security headers so that it is the same whichever dispatcher served it.
 */
export function writeHead(res: ServerResponse, status: number, fields: readonly string[]): void {
  const owed = (res as Owing)[OWED];
  const b = blocks();
  if (owed) {
    (res as Owing)[OWED] = null;
    const fixed = status === 304 ? b.notModifiedFlat : b.answerFlat;
    const head = owed.length === 0 ? fixed.concat(fields) : fixed.concat(owed, fields);
    res.writeHead(status, head);
    return;
  }
  for (let i = 0; i < fields.length; i += 2) res.setHeader(fields[i]!, fields[i + 1]!);
  if (status === 304) {
    const kept = new Set(b.notModified.map(([name]) => name.toLowerCase()));
    for (const [name] of b.answer) if (!kept.has(name.toLowerCase())) res.removeHeader(name);
  }
  res.writeHead(status);
}
