// The operator's routes (/admin/…, /status, /metrics): a key whose record says `role: admin`.
// Without a key (or with an unknown or disabled one) 401 with a Basic challenge, so a browser opening
// /status asks for it; with a reader key 403. The key may come as X-API-Key, as api_key (as on every
// keyed route) or as the password of HTTP Basic (any user name), which is what a browser sends after
// the challenge. The request counts against the key's rate limit like any other, refused or not.

import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors';
import { authorizer, presentedKey, type Handler } from './keyed';
import type { RateLimitStore } from '../../shared/store/types';
import type { KeySource } from './key-source';
import { queryOf } from './request-state';

/** The password of an `Authorization: Basic` header, or null when there is none or it is malformed. */
export function basicPassword(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 || colon === decoded.length - 1 ? null : decoded.slice(colon + 1);
}

/** The admin's key: X-API-Key or api_key as everywhere, else the Basic password. */
export function presentedAdminKey(req: IncomingMessage): string | null {
  return presentedKey(req, queryOf(req)) ?? basicPassword(req);
}

/** An admin-only Express route: key check, rate limit, role check, then the handler. */
export function admin(source: KeySource, store: RateLimitStore, clock: () => Date, handler: Handler): RequestHandler {
  const authorize = authorizer(source, store, clock, { present: presentedAdminKey, missing: 'adminUnauthorized' });
  return async (req, res) => {
    const key = await authorize(req, res);
    if (key.role !== 'admin') throw new ApiError('adminOnly');
    await handler(req, res);
  };
}
