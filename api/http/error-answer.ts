// The error answer: the one place an ApiError (or anything thrown) becomes a response. Catalogue
// entries as they are; everything else is a 500 whose body says only a safe, fixed detail (plus
// the channel) while the log gets the error. Also the JSON answers for unknown paths (404) and
// unsupported methods on known paths (405).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { categoryLogger, type Logger } from '../../shared/logger';
import { ApiError, CATALOGUE, errorBody, toApiError } from '../errors';
import { withoutApiKey } from './key-redaction';
import { channelIdOf, requestUrl } from './request-state';
import { json } from './answer';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
/** The challenge of the admin routes: the key is the password, any user name will do. */
export const BASIC_CHALLENGE = 'Basic realm="transcript-feed admin", charset="UTF-8"';

/** What the error sender knows of the app: the paths a 404 names (its route table). */
export interface ErrorSenderOptions {
  paths?: string;
}

export function errorHandler(root: Logger, opts: ErrorSenderOptions = {}): ErrorRequestHandler {
  const send = errorSender(root, opts);
  return (err: unknown, req, res, _next) => send(err, req, res);
}

/**
 * The error answer on plain node:http objects (Express's error handler and the feed's direct path
 * both use it): the catalogue body as JSON, Retry-After / Allow where the entry says, no-store, and
 * an ERROR line for every 500.
 */
export function errorSender(root: Logger, opts: ErrorSenderOptions = {}): (err: unknown, req: IncomingMessage, res: ServerResponse) => void {
  const log = categoryLogger(root, 'api');
  return (err, req, res) => {
    const apiError = toApiError(err);
    const entry = CATALOGUE[apiError.code];
    const context =
      entry.status === 500 ? { ...apiError.context, channelId: apiError.context.channelId ?? channelIdOf(res) ?? '' }
      : apiError.code === 'pathNotFound' ? { ...apiError.context, paths: opts.paths }
      : apiError.context;
    if (entry.status === 500) {
      log.error({ err: apiError.cause ?? apiError, method: req.method, path: withoutApiKey(requestUrl(req)), channelId: context.channelId }, `request failed: ${errorBody('server', context).error}`);
    }
    if (res.headersSent) {
      // Too late for a JSON body: cut the connection so the client sees a failure, not a short feed.
      res.destroy();
      return;
    }
    const extra: string[] = [];
    if ('retryAfter' in entry) extra.push('Retry-After', String(apiError.context.retryAfter ?? entry.retryAfter));
    if (apiError.code === 'methodNotAllowed') extra.push('Allow', apiError.context.allow ?? ALLOWED_METHODS);
    if ('basicChallenge' in entry) extra.push('WWW-Authenticate', BASIC_CHALLENGE);
    json(res, entry.status, errorBody(apiError.code, context), extra);
  };
}

/**
 * 405 on a path served with the methods `allow` (the route table's list, OPTIONS included);
 * `beneath`: the other methods of the paths under it, for the message.
 */
export const methodsAllowed = (allow: string, beneath = ''): RequestHandler => () => {
  throw new ApiError('methodNotAllowed', beneath === '' ? { allow } : { allow, beneath });
};

export const pathNotFound: RequestHandler = () => {
  throw new ApiError('pathNotFound');
};
