// GET /metrics: the API process's Prometheus text (api/metrics.ts). Behind an admin key, or, with
// METRICS_LOOPBACK_ONLY=true, without a key for loopback clients only (anyone else is told there is
// no such path, as for any unknown one).

import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import type { Handler } from '../http/keyed';
import type { ApiMetrics } from '../metrics';
import { text } from '../http/answer';

export function metricsRoute(metrics: ApiMetrics): Handler {
  return async (_req, res) => {
    const { contentType, body } = await metrics.exposition();
    text(res, 200, contentType, body);
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (what a dual-stack listener reports). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** The handler for loopback peers (the socket's own address, never X-Forwarded-For); 404 for anyone else. */
export function loopbackOnly(handler: Handler): RequestHandler {
  return async (req, res) => {
    if (!isLoopback(req.socket.remoteAddress)) throw new ApiError('pathNotFound');
    await handler(req, res);
  };
}
