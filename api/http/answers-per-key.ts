// At most API_MAX_CONNECTIONS_PER_KEY answers in progress per key in this process: from the key
// check until the client has taken the answer whole (answer-delivered.ts) or its connection closed.
// One key with many slow connections (each its own `lang`, so each its own render) otherwise held
// a rendered body per connection; beyond the limit a request gets 429 at once, before it costs a
// rate-limit count, a store read or a render.

import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors';
import { whenTaken } from './answer-delivered';
import type { KeySource } from './key-source';

export const DEFAULT_MAX_ANSWERS_PER_KEY = 6;

interface Limit {
  readonly max: number;
  readonly open: Map<string, number>;
}

/** Per key source (one per app), the limit and the answers each key has open. */
const limits = new WeakMap<KeySource, Limit>();

/** Every app whose keys come from `source` allows each key `max` answers in progress at once. */
export function limitAnswersPerKey(source: KeySource, max: number): void {
  limits.set(source, { max, open: new Map() });
}

/** Counts one answer for `keyId` until it is taken; throws the catalogue's 429 beyond the limit. */
export function openAnswer(source: KeySource, keyId: string, res: ServerResponse): void {
  const limit = limits.get(source);
  if (limit === undefined) return;
  const n = limit.open.get(keyId) ?? 0;
  if (n >= limit.max) throw new ApiError('tooManyConnections', { limit: limit.max });
  limit.open.set(keyId, n + 1);
  whenTaken(res, () => {
    const left = (limit.open.get(keyId) ?? 1) - 1;
    if (left <= 0) limit.open.delete(keyId);
    else limit.open.set(keyId, left);
  });
}

/** Answers `keyId` has in progress now (for tests and logs). */
export function openAnswers(source: KeySource, keyId: string): number {
  return limits.get(source)?.open.get(keyId) ?? 0;
}
