// Key check and per-key request limit as one step in front of a keyed route. The limit is counted
// in the store so that it holds across API processes; the hits of one key in one event-loop turn
// reach the store as one atomic add (rate-coalescer.ts). Every response after authentication
// carries X-RateLimit-Remaining, errors included. One function instead of three Express layers:
// the route handler is awaited here, so Express still sees every rejection.

import type { Request, RequestHandler, Response } from 'express';
import type { Store } from '../../shared/store/types';
import { ApiError } from '../errors';
import { matchKey, presentedKey, type KeySource } from './authenticate';
import { queryOf, setApiKey } from './locals';
import { counterFor } from './rate-coalescer';

export type Handler = (req: Request, res: Response) => void | Promise<void>;

export function keyed(source: KeySource, store: Pick<Store, 'hitRateLimit'>, clock: () => Date, handler: Handler): RequestHandler {
  const counter = counterFor(store);
  return async (req, res) => {
    const candidate = presentedKey(req, queryOf(req));
    const key = candidate === null ? null : matchKey(candidate, source.keys);
    if (key === null) throw new ApiError('unauthorized');
    setApiKey(res, key);
    const result = await counter.hit(key.id, key.rateLimit, clock());
    res.setHeader('X-RateLimit-Remaining', result.remaining);
    if (!result.allowed) throw new ApiError('rateLimited', { limit: key.rateLimit });
    await handler(req, res);
  };
}
