// What one step hands the next on the request or response, on plain node:http objects, so the same
// steps run behind Express and on the feed's direct path (create-app.ts). Kept under symbols rather
// than in a WeakMap, whose entries cost the collector more.

import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';

const CHANNEL = Symbol('channelId');
const KEY_ID = Symbol('keyId');
const QUERY = Symbol('parsedQuery');
type WithChannel = ServerResponse & { [CHANNEL]?: string; [KEY_ID]?: string };
type WithQuery = IncomingMessage & { [QUERY]?: Readonly<Record<string, unknown>> };

/** The channel a feed request resolved to, for the channel_id of a later 500 body. */
export function setChannelId(res: ServerResponse, channelId: string): void {
  (res as WithChannel)[CHANNEL] = channelId;
}

export function channelIdOf(res: ServerResponse): string | undefined {
  return (res as WithChannel)[CHANNEL];
}

/**
 * The authorized request's key as the store knows it: the SHA-256 hex digest of the key (`keyId`),
 * never the key itself. Set by the key check (keyed.ts) before any keyed handler runs.
 */
export function setKeyId(res: ServerResponse, keyId: string): void {
  (res as WithChannel)[KEY_ID] = keyId;
}

export function keyIdOf(res: ServerResponse): string | undefined {
  return (res as WithChannel)[KEY_ID];
}

/** keyIdOf for a keyed route's handler, where the key check has always run: a bug otherwise. */
export function requireKeyId(res: ServerResponse): string {
  const id = keyIdOf(res);
  if (id === undefined) throw new Error('requireKeyId: the request was not authorized');
  return id;
}

/** The URL as the client sent it (Express's originalUrl where a router rewrote req.url). */
export function requestUrl(req: IncomingMessage): string {
  return (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}

/**
 * The query once per request, parsed as Express's "simple" parser does (node:querystring: flat
 * strings, arrays for repeats, never nested objects).
 */
export function queryOf(req: IncomingMessage): Readonly<Record<string, unknown>> {
  const r = req as WithQuery;
  if (r[QUERY] === undefined) {
    const url = requestUrl(req);
    const q = url.indexOf('?');
    r[QUERY] = querystring.parse(q < 0 ? '' : url.slice(q + 1));
  }
  return r[QUERY];
}

const CUT = Symbol('cut');
type WithCut = ServerResponse & { [CUT]?: true };

/** The server cut this answer: its client took longer than API_SEND_TIMEOUT_MS to take it. */
export function markCut(res: ServerResponse): void {
  (res as WithCut)[CUT] = true;
}

export function wasCut(res: ServerResponse): boolean {
  return (res as WithCut)[CUT] === true;
}
