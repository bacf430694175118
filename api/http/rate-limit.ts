// Per-key request limit per minute, counted in the store so that it holds across API processes.
// Every response after authentication carries X-RateLimit-Remaining, errors included.

import type { RequestHandler } from 'express';
import type { Store } from '../../shared/store/types';
import { ApiError } from '../errors';
import { apiKeyOf } from './locals';

export function rateLimit(store: Pick<Store, 'hitRateLimit'>, clock: () => Date): RequestHandler {
  return async (_req, res, next) => {
    const key = apiKeyOf(res);
    if (!key) throw new ApiError('unauthorized');
    const result = await store.hitRateLimit(key.id, key.rateLimit, clock());
    res.setHeader('X-RateLimit-Remaining', result.remaining);
    if (!result.allowed) throw new ApiError('rateLimited', { limit: key.rateLimit });
    next();
  };
}
