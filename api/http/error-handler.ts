// The one place an error becomes a response: catalogue entries as they are; everything else is a
// 500 whose body says only a safe, fixed detail (plus the channel) while the log gets the error.
// Also the JSON answers for unknown paths (404) and unsupported methods on known paths (405).

import type { ErrorRequestHandler, RequestHandler } from 'express';
import { StoreUnavailableError } from '../../shared/store/types';
import { PlatformError } from '../../shared/platform/types';
import { categoryLogger, type Logger } from '../../shared/logger';
import { ApiError, CATALOGUE, errorBody } from '../errors';
import { channelIdOf } from './locals';
import { withoutApiKey } from './strip-api-key';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** Map anything thrown to a catalogue entry. Unknown errors get a fixed detail, never their message. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreUnavailableError) return new ApiError('server', { detail: 'veri deposuna ulaşılamıyor' }, { cause: err });
  if (err instanceof PlatformError) return new ApiError('server', { detail: `platform hatası (${err.outcome})` }, { cause: err });
  // Errors raised by Express or its parsers on a malformed request carry a 4xx status.
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError('badRequest', {}, { cause: err });
  return new ApiError('server', { detail: 'beklenmeyen hata' }, { cause: err });
}

export function errorHandler(root: Logger): ErrorRequestHandler {
  const log = categoryLogger(root, 'api');
  return (err: unknown, req, res, _next) => {
    const apiError = toApiError(err);
    const entry = CATALOGUE[apiError.code];
    const context = entry.status === 500 ? { ...apiError.context, channelId: apiError.context.channelId ?? channelIdOf(res) ?? '' } : apiError.context;
    if (entry.status === 500) {
      log.error({ err: apiError.cause ?? apiError, method: req.method, path: withoutApiKey(req.originalUrl), channelId: context.channelId }, `request failed: ${errorBody('server', context).error}`);
    }
    if (res.headersSent) {
      // Too late for a JSON body: cut the connection so the client sees a failure, not a short feed.
      res.destroy();
      return;
    }
    if ('retryAfter' in entry) res.setHeader('Retry-After', String(entry.retryAfter));
    if (apiError.code === 'methodNotAllowed') res.setHeader('Allow', ALLOWED_METHODS);
    res.setHeader('Cache-Control', 'no-store');
    res.status(entry.status).json(errorBody(apiError.code, context));
  };
}

export const methodNotAllowed: RequestHandler = () => {
  throw new ApiError('methodNotAllowed');
};

export const pathNotFound: RequestHandler = () => {
  throw new ApiError('pathNotFound');
};
