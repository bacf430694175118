// API key check (spec, Authentication). The key comes from the X-API-Key header or the api_key
// query parameter; when both are sent, the header wins (README "Decisions"). The candidate is
// compared with every configured key through SHA-256 digests and timingSafeEqual, touching all
// keys every time, so neither timing nor position says how close a guess was.

import { timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { sha256, type ApiKey } from '../../shared/config/security';

/** Anything that can say which keys are configured right now (KeyRing does, live). */
export interface KeySource {
  readonly keys: readonly ApiKey[];
}

/** The key the request presents, or null. A repeated api_key parameter presents none. */
export function presentedKey(req: Request, query: Readonly<Record<string, unknown>>): string | null {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const param = Object.prototype.hasOwnProperty.call(query, 'api_key') ? query.api_key : undefined;
  return typeof param === 'string' && param !== '' ? param : null;
}

/** The enabled key matching `candidate`, or null. Constant time in the candidate's content. */
export function matchKey(candidate: string, keys: readonly ApiKey[]): ApiKey | null {
  const digest = sha256(candidate);
  let found: ApiKey | null = null;
  for (const key of keys) {
    const same = timingSafeEqual(digest, key.digest);
    found = same && found === null ? key : found;
  }
  return found !== null && found.enabled ? found : null;
}
