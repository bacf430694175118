// What every request goes through first: the access-log start and the answer's fixed headers
// (owed, answer.ts); behind Express also the CORS preflight answer. The access log records the request URL as key-redaction.ts redacts it (withoutApiKey).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import { categoryLogger, type Logger } from '../../shared/logger';
import { withoutApiKey } from './key-redaction';
import type { ApiMetrics } from '../metrics';
import { requestUrl, wasCut } from './request-state';
import { owe, preflight, settle } from './answer';

/**
 * The front door as one Express layer: the given door (the one the direct path uses) with the
 * fixed headers set at once, since Express's routes (and the MCP transport) write their heads field
 * by field; then the CORS preflight answer (204, before any key check: browsers never send keys on
 * preflight).
 */
export function frontDoor(enter: Door): RequestHandler {
  return (req, res, next) => {
    enter(req, res);
    settle(res);
    if (req.method === 'OPTIONS') preflight(res);
    else next();
  };
}

export type Door = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * What every answer starts with, on plain node:http objects (the feed's direct path calls it too):
 * the access-log start (and the request's metrics, taken when it ends) and the fixed headers, owed
 * until the answer's writer writes its head (answer.ts). Entering twice is harmless (one log
 * line, one count).
 */
export function door(logger: Logger, metrics?: ApiMetrics): Door {
  const startLog = accessLogger(logger, metrics);
  return (_req, res) => {
    startLog(res);
    owe(res);
  };
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
