// The guard in front of every admin route that changes state (refresh, delete, a fresh platform
// check). A browser that keeps the Basic key from /status sends it with any site's form post or
// <img>, so credentials alone do not show the operator meant it: a request a browser marks as
// cross-site (`Sec-Fetch-Site: cross-site`) or whose `Origin` is not this service's own is refused
// with 403 before the handler runs. Clients that are not browsers (curl, scripts) send neither
// header and pass. These routes take no body, so a Content-Type other than JSON (a form's
// text/plain, urlencoded or multipart — the kinds a cross-site form can send without a preflight)
// is a 415.

import { ApiError } from '../errors';
import type { Handler } from './keyed';
import { originOf, type OriginDeps } from './origin';

const ACCEPTED_TYPE = /^application\/json\s*(;.*)?$/i;

/** Throws the catalogue's 403 or 415 when the request may not change the service's state. */
export function checkStateChange(req: Parameters<Handler>[0], deps: OriginDeps): void {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site.trim().toLowerCase() === 'cross-site') throw new ApiError('crossSiteRefused');
  const origin = req.headers.origin;
  // `Origin: null` (sandboxed frames, some redirects) is not this service either.
  if (origin !== undefined && origin !== originOf(req, deps)) throw new ApiError('crossSiteRefused');
  const type = req.headers['content-type'];
  if (type !== undefined && !ACCEPTED_TYPE.test(type)) throw new ApiError('unsupportedAdminBody');
}

/** A handler that changes state, behind the same-origin and content-type checks. */
export function stateChange(deps: OriginDeps, handler: Handler): Handler {
  return async (req, res) => {
    checkStateChange(req, deps);
    await handler(req, res);
  };
}
