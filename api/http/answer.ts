// The one answer writer: every answer the API writes itself (JSON, feeds, files, pages, errors, 304s, 204s, the CORS preflight)
// leaves through here, so status, fixed headers and Content-Length are decided in one place (eslint.config.js refuses
// `res.end`/`res.writeHead`/… elsewhere in api/). The fixed headers are literal lists (test/api/answer.test.ts pins them): the
// spec's security headers (nosniff, X-Frame-Options DENY, X-XSS-Protection "1; mode=block"), a CSP and Referrer-Policy (a key
// in a URL must not travel on in Referer), and CORS for any origin. A 304 carries CORS's only: the security headers describe a
// body it has not (RFC 9111 §4.3.4). On the direct path the door marks the head owed (`owe`) and nothing is set until the
// answer: then it is one writeHead with one array (on Node 20 a 304's thirteen fields set one by one took ~3.5 µs, as one array
// ~1.2 µs, of a warm answer's ~45 µs). Express's rows `settle` at the door. HEAD needs nothing here: node:http sends the head
// of `res.end(body)` and drops the body.

import type { ServerResponse } from 'node:http';
import { shownJson } from '../../shared/transcript/shown-text';

/** Header fields as a flat [name, value, …] list, as writeHead takes them. */
export type Fields = readonly string[];

const SECURITY: Fields = ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'", 'Referrer-Policy', 'no-referrer', 'X-Content-Type-Options', 'nosniff', 'X-Frame-Options', 'DENY', 'X-XSS-Protection', '1; mode=block'];
export const CORS: Fields = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', 'X-RateLimit-Remaining,Retry-After'];
/** Every answer but a 304 starts with these; and, unless its writer says otherwise, no-store. */
export const FIXED: Fields = [...SECURITY, ...CORS];
const PREFLIGHT: Fields = ['Access-Control-Allow-Methods', 'GET,OPTIONS', 'Access-Control-Allow-Headers', 'Content-Type,X-API-Key', 'Access-Control-Max-Age', '600', 'Content-Length', '0'];
const NO_STORE: Fields = ['Cache-Control', 'no-store'];
export const JSON_TYPE = 'application/json; charset=utf-8';

const OWED = Symbol('owedHead');
/** While the head is owed: the fields added so far. Null once settled or written. */
type Owing = ServerResponse & { [OWED]?: string[] | null };

/** The door's part: this answer's fixed fields are owed, nothing is set yet. */
export function owe(res: ServerResponse): void {
  if ((res as Owing)[OWED] === undefined) (res as Owing)[OWED] = [];
}

/** A field of this answer whatever its status (X-RateLimit-Remaining, Connection: close, …); Set-Cookie adds one more. */
export function field(res: ServerResponse, name: string, value: string): void {
  const owed = (res as Owing)[OWED];
  if (owed) owed.push(name, value);
  else if (name === 'Set-Cookie') res.appendHeader(name, value);
  else res.setHeader(name, value);
}

/** Sets what is owed now, for Express's rows and others writing field by field; never replaces a set field. */
export function settle(res: ServerResponse): void {
  const owed = (res as Owing)[OWED];
  if (!owed) return;
  (res as Owing)[OWED] = null;
  const fixed = FIXED.concat(NO_STORE, owed);
  for (let i = 0; i < fixed.length; i += 2) if (i >= FIXED.length + 2 || !res.hasHeader(fixed[i]!)) res.setHeader(fixed[i]!, fixed[i + 1]!);
}

/** The one write: fixed fields (a 304's CORS only), the added ones, then `fields`; then the body. */
function write(res: ServerResponse, status: number, fields: Fields, body?: string | Buffer): void {
  const owed = (res as Owing)[OWED];
  if (owed) {
    (res as Owing)[OWED] = null;
    const fixed = status === 304 ? CORS : FIXED;
    res.writeHead(status, owed.length === 0 ? fixed.concat(fields) : fixed.concat(owed, fields));
  } else {
    for (let i = 0; i < fields.length; i += 2) res.setHeader(fields[i]!, fields[i + 1]!);
    if (status === 304) for (let i = 0; i < SECURITY.length; i += 2) res.removeHeader(SECURITY[i]!);
    res.writeHead(status);
  }
  res.end(body);
}

/** A body of `type`, never cached unless `extra` says so. */
export const text = (res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Fields = []): void =>
  write(res, status, [...extra, ...NO_STORE, 'Content-Type', type, 'Content-Length', String(Buffer.byteLength(body))], body);
/** Every JSON answer's strings shown (shownJson: docs/api.md, "How texts are escaped"), whichever route wrote it. */
export const json = (res: ServerResponse, status: number, value: unknown, extra: Fields = []): void => text(res, status, JSON_TYPE, shownJson(value), extra);
/** A feed or file: `fields` (its validators, Cache-Control, Content-Type, Content-Encoding; taken, not copied). */
export function feed(res: ServerResponse, fields: string[], body: Buffer): void {
  fields.push('Content-Length', String(body.length));
  write(res, 200, fields, body);
}
/** The web app's (settled by Express's door): a page, its `fields` (webapp/security.ts) over the API's CSP and Referrer-Policy; a 303 to a header-safe `location`. */
export const html = (res: ServerResponse, status: number, body: string, fields: Fields): void => text(res, status, 'text/html; charset=utf-8', body, fields);
export const seeOther = (res: ServerResponse, location: string): void => write(res, 303, ['Location', location, 'Content-Length', '0']);
export const notModified = (res: ServerResponse, fields: Fields): void => write(res, 304, fields);
export const empty = (res: ServerResponse, status = 204): void => write(res, status, []);
export const preflight = (res: ServerResponse): void => write(res, 204, PREFLIGHT);

/** A whole answer as bytes for a socket no ServerResponse has (server.ts: parse errors, CONNECT). */
export function rawAnswer(status: number, reason: string, body: string, extra: Fields = []): string {
  const f = FIXED.concat(NO_STORE, extra, ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(body)), 'Connection', 'close']);
  const lines = [`HTTP/1.1 ${status} ${reason}`];
  for (let i = 0; i < f.length; i += 2) lines.push(`${f[i]}: ${f[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
