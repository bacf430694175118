// Typed access to what one step hands the next on the request or response (Express types
// res.locals as any).

import type { Request, Response } from 'express';

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
