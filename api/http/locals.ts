// Typed access to what one middleware hands the next through res.locals (Express types it as any).

import type { Request, Response } from 'express';
import type { ApiKey } from '../../shared/config/security';

export function setApiKey(res: Response, key: ApiKey): void {
  res.locals.apiKey = key;
}

export function apiKeyOf(res: Response): ApiKey | undefined {
  return res.locals.apiKey as ApiKey | undefined;
}

/** The channel a feed request resolved to, for the channel_id of a later 500 body. */
export function setChannelId(res: Response, channelId: string): void {
  res.locals.channelId = channelId;
}

export function channelIdOf(res: Response): string | undefined {
  return res.locals.channelId as string | undefined;
}

const QUERY = Symbol('parsedQuery');
type Parsed = Request & { [QUERY]?: Readonly<Record<string, unknown>> };

/**
 * req.query once per request: Express 5 re-parses the query string on every access. Kept on the
 * request under a symbol rather than in a WeakMap, whose entries cost the collector more.
 */
export function queryOf(req: Request): Readonly<Record<string, unknown>> {
  const r = req as Parsed;
  return (r[QUERY] ??= req.query as Readonly<Record<string, unknown>>);
}
