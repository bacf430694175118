// Key check and per-key request limit as one step in front of a keyed route (spec,
// Authentication and Limits). One function instead of three Express layers: the route handler is
// awaited here, so Express still sees every rejection. Every response after authentication
// carries X-RateLimit-Remaining, errors included.
//
// The key comes from the X-API-Key header or the api_key query parameter; when both are sent, the
// header wins (README "Decisions"). The candidate's SHA-256 digest selects at most one configured
// key from an index, and that key's digest is then compared with timingSafeEqual: a lookup costs
// the same with ten keys or fifty thousand, and since the index is keyed by a digest, neither its
// timing nor anything else says how close a guess was to a real key.
//
// The limit is counted in the store so that it holds across API processes. The requests of one
// key that reach the limiter in the same event-loop turn become ONE store call adding all their
// hits at once. The store's add is atomic (across processes too), so the batch owns consecutive
// counts, and request i of n (arrival order) gets count = after - n + i: exactly what n sequential
// calls would have answered. Batches are flushed with setImmediate, not process.nextTick: Node
// dispatches every request whose bytes arrived in one poll phase before the check phase runs, so
// setImmediate gathers requests from many connections, while a nextTick flush runs after each
// socket's callback and so almost always carries one hit. A batch counts in the minute window of
// its FIRST arrival's `now`: a request arriving in the same turn just after a minute boundary is
// counted in the window that just ended (a client sees at worst one request counted a minute early).

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { sha256, type ApiKey } from '../../shared/config/security';
import type { RateLimitResult, RateLimitStore } from '../../shared/store/types';
import { hitOfBatch } from '../../shared/store/rate-window';
import { ApiError, type ErrorName } from '../errors';
import { openAnswer } from './answers-per-key';
import type { KeySource } from './key-source';
import { queryOf, setKeyId } from './request-state';
import { field } from './answer';

export type Handler = (req: Request, res: Response) => void | Promise<void>;

/** Anything that can say which keys are configured right now (KeyRing does, live). */
/** The key check and rate limit of one request; throws the catalogue's 401 or 429, else answers the key. */
export type Authorize = (req: IncomingMessage, res: ServerResponse) => Promise<ApiKey>;

/** What an authorizer reads the candidate key from, and what it throws when there is none. */
export interface AuthorizerOptions {
  /** Where the candidate comes from (default presentedKey: X-API-Key, then api_key). */
  present?: (req: IncomingMessage) => string | null;
  /** The catalogue entry of a missing or unknown key (default `unauthorized`). */
  missing?: ErrorName;
}

export function authorizer(source: KeySource, store: RateLimitStore, clock: () => Date, opts: AuthorizerOptions = {}): Authorize {
  const counter = counterFor(store);
  const present = opts.present ?? ((req: IncomingMessage) => presentedKey(req, queryOf(req)));
  const missing = opts.missing ?? 'unauthorized';
  return async (req, res) => {
    const candidate = present(req);
    const key = candidate === null ? null : matchKey(candidate, source.keys);
    if (key === null) throw new ApiError(missing);
    setKeyId(res, key.keyId);
    openAnswer(source, key.keyId, res);
    const result = await counter.hit(key.id, key.rateLimit, clock());
    field(res, 'X-RateLimit-Remaining', String(result.remaining));
    if (!result.allowed) throw new ApiError('rateLimited', { limit: key.rateLimit });
    return key;
  };
}

/** A keyed route (an Express handler, or one on plain node:http objects): the key check and rate limit, then the handler. */
export function keyed<Q extends IncomingMessage, S extends ServerResponse>(source: KeySource, store: RateLimitStore, clock: () => Date, handler: (req: Q, res: S) => void | Promise<void>): (req: Q, res: S) => Promise<void> {
  const authorize = authorizer(source, store, clock);
  return async (req, res) => {
    await authorize(req, res);
    await handler(req, res);
  };
}

// ── the key ────────────────────────────────────────────────────────────────

/** The key the request presents, or null. A repeated api_key parameter presents none. */
export function presentedKey(req: IncomingMessage, query: Readonly<Record<string, unknown>>): string | null {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const param = Object.prototype.hasOwnProperty.call(query, 'api_key') ? query.api_key : undefined;
  return typeof param === 'string' && param !== '' ? param : null;
}

/** Digest (hex) → key, per key set; a reload swaps the set, so its index is built on first use. */
const indexes = new WeakMap<readonly ApiKey[], Map<string, ApiKey>>();

function indexOf(keys: readonly ApiKey[]): Map<string, ApiKey> {
  let index = indexes.get(keys);
  if (!index) {
    index = new Map(keys.map((k) => [k.digest.toString('hex'), k]));
    indexes.set(keys, index);
  }
  return index;
}

/** The enabled key matching `candidate`, or null. Constant time in the candidate's content. */
export function matchKey(candidate: string, keys: readonly ApiKey[]): ApiKey | null {
  const digest = sha256(candidate);
  const found = indexOf(keys).get(digest.toString('hex'));
  return found !== undefined && timingSafeEqual(digest, found.digest) && found.enabled ? found : null;
}

// ── the rate limit, coalesced per event-loop turn ─────────────────────────

export interface RateCounter {
  /** Counts one request of `keyId`; answers as the store would for this request alone. */
  hit(keyId: string, limit: number, now: Date): Promise<RateLimitResult>;
}

interface Waiter {
  limit: number;
  resolve(result: RateLimitResult): void;
  reject(err: unknown): void;
}

interface Batch {
  now: Date;
  waiters: Waiter[];
}

export function coalescingCounter(store: Pick<RateLimitStore, 'hitRateLimit'>): RateCounter {
  let pending = new Map<string, Batch>();

  const flush = (): void => {
    const batches = pending;
    pending = new Map();
    for (const [keyId, batch] of batches) void send(keyId, batch);
  };

  // Never rejects: a store failure (thrown or rejected) is handed to every waiter of the batch.
  const send = async (keyId: string, { now, waiters }: Batch): Promise<void> => {
    const n = waiters.length;
    try {
      const last = await store.hitRateLimit(keyId, waiters[0]!.limit, now, n);
      // Each request is judged by its own limit, in case the key was reloaded within the turn.
      for (let i = 0; i < n; i++) waiters[i]!.resolve(hitOfBatch(last, n, i + 1, waiters[i]!.limit));
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  };

  return {
    hit(keyId, limit, now) {
      return new Promise<RateLimitResult>((resolve, reject) => {
        if (pending.size === 0) setImmediate(flush);
        const batch = pending.get(keyId);
        if (batch) batch.waiters.push({ limit, resolve, reject });
        else pending.set(keyId, { now, waiters: [{ limit, resolve, reject }] });
      });
    },
  };
}

const counters = new WeakMap<Pick<RateLimitStore, 'hitRateLimit'>, RateCounter>();

/** The one counter of this store in this process, so that every keyed route shares its batches (the web app's pages too). */
export function counterFor(store: Pick<RateLimitStore, 'hitRateLimit'>): RateCounter {
  let counter = counters.get(store);
  if (!counter) counters.set(store, (counter = coalescingCounter(store)));
  return counter;
}
