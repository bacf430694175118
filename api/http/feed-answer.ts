// The one tail of every feed-like answer (channel and playlist feeds, search feeds, the combined
// feed, transcript files): validators → 304 → the cached body → sent. A route decides what its
// answer is made of and says so as strong validators; from there on every route answers alike:
//
// * the content coding (gzip, br or none) is negotiated from Accept-Encoding (content-coding.ts),
//   and each coding is its own representation with its own strong ETag: the identity ETag with a
//   suffix (`"…-br"`, `"…-gz"`), so a compressed client's If-None-Match matches its own copy;
// * a conditional request is decided by the `fresh` package Express itself uses, after dropping an
//   If-Modified-Since later than now (RFC 9110 §13.1.3: invalid, so no client pins a 304 for good);
// * the body comes from the app's one cache by ETag, or is produced once however many requests for
//   the same representation arrive together; its compressed forms are kept beside it, compressed
//   lazily once per entry and coding, so a warm compressed request compresses nothing;
// * what is written is the cached Buffer itself: every connection sending the same answer refers
//   to one counted copy, never a private one.

import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { ApiCache, CacheSlot } from '../cache';
import { SingleFlight } from '../single-flight';
import type { ApiMetrics } from '../metrics';
import type { Validators } from '../feed/state';
import { compress, encodedEtag, negotiateCoding, type Coding } from './content-coding';
import { feed, notModified as unchanged } from './answer';

/**
 * Private: the body is the same for every key, but the response carries the key's rate-limit
 * state and often the key itself in the URL. A minute lets readers skip refetching; after that
 * they revalidate cheaply with If-None-Match.
 */
export const FEED_CACHE_CONTROL = 'private, max-age=60';

/** What a route hands the tail. */
export interface Representation {
  /** The route label of the 304 metric (`/`, `/search`, …). */
  route: string;
  /** Strong validators of the identity body, decided before any body is read or rendered. */
  validators: Validators;
  contentType: string;
  /** More headers of this answer, 304s included (e.g. Content-Language). */
  headers?: ReadonlyArray<readonly [string, string]>;
  /**
   * Produces the body on a cache miss. It may find the stored entries moved since the validators
   * were taken: it then answers the validators of what it rendered, and those are sent.
   */
  render(): Promise<Rendered>;
}

export interface Rendered {
  body: Buffer;
  validators: Validators;
}

export type FeedAnswerMetrics = Pick<ApiMetrics, 'feedCache' | 'notModified' | 'compressed'>;

export type AnswerFeed = (req: IncomingMessage, res: ServerResponse, r: Representation) => Promise<void>;

/** The tail shared by every feed-like route of one app: one body cache, one set of in-flight renders. */
export function feedAnswers(cache: ApiCache, clock: () => Date, metrics?: FeedAnswerMetrics): AnswerFeed {
  const bodies = cache.slot<Buffer>('body');
  const encoded = cache.slot<Buffer>('encoded-body');
  const rendering = new SingleFlight<string, Rendered>();
  const compressing = new SingleFlight<string, Buffer>();

  const produce = (r: Representation): Promise<Rendered> =>
    rendering.run(r.validators.etag, async () => {
      const out = await r.render();
      bodies.set(out.validators.etag, out.body);
      return out;
    });

  const encode = (etag: string, coding: Exclude<Coding, 'identity'>, body: Buffer): Promise<Buffer> => {
    const key = `${etag}\n${coding}`;
    return compressing.run(key, async () => {
      metrics?.compressed(coding);
      const out = await compress(coding, body);
      encoded.set(key, out);
      return out;
    });
  };

  return async (req, res, r) => {
    const coding = negotiateCoding(req.headers['accept-encoding']);
    let v = r.validators;
    if (isFresh(req, encodedEtag(v.etag, coding), v.lastModified, clock())) {
      metrics?.notModified(r.route);
      unchanged(res, validatorFields(v, coding, r.headers));
      return;
    }

    // A warm compressed answer: one cache read, no identity body needed.
    let body = coding === 'identity' ? bodies.get(v.etag) : encodedOf(encoded, v.etag, coding);
    let identity = coding === 'identity' || body !== undefined ? body : bodies.get(v.etag);
    metrics?.feedCache(body !== undefined || identity !== undefined);
    if (body === undefined) {
      if (identity === undefined) {
        const out = await produce(r);
        identity = out.body;
        v = out.validators;
      }
      body = coding === 'identity' ? identity : (encodedOf(encoded, v.etag, coding) ?? (await encode(v.etag, coding, identity)));
    }
    const fields = validatorFields(v, coding, r.headers);
    fields.push('Content-Type', r.contentType);
    if (coding !== 'identity') fields.push('Content-Encoding', coding);
    feed(res, fields, body);
  };
}

function encodedOf(slot: CacheSlot<Buffer>, etag: string, coding: Coding): Buffer | undefined {
  return slot.get(`${etag}\n${coding}`);
}

/** ETag (of this coding), Last-Modified, Cache-Control, Vary and the route's own: the same on a 200 and a 304. */
function validatorFields(v: Validators, coding: Coding, extra: Representation['headers']): string[] {
  const fields = ['ETag', encodedEtag(v.etag, coding), 'Last-Modified', v.lastModified, 'Cache-Control', FEED_CACHE_CONTROL, 'Vary', 'Accept-Encoding'];
  if (extra) for (const [name, value] of extra) fields.push(name, value);
  return fields;
}

/** The client's copy is this representation: its ETag (of this coding) and Last-Modified. */
function isFresh(req: IncomingMessage, etag: string, lastModified: string, now: Date): boolean {
  if (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined) return false;
  return notModified(req.headers, { etag, lastModified }, now);
}

/**
 * True when the client's cached copy matches, decided by `fresh` (RFC 9110 §13.1.1–2): If-None-Match
 * first, weak comparison; If-Modified-Since only without it, and only when that date is not later
 * than `now`. Only the two conditional headers are handed over: a request's `Cache-Control:
 * no-cache` asks caches to revalidate with the origin, which this is, so it still gets its 304.
 */
export function notModified(headers: Pick<IncomingMessage['headers'], 'if-none-match' | 'if-modified-since'>, v: Validators, now: Date = new Date()): boolean {
  const inm = headers['if-none-match'];
  let ims = headers['if-modified-since'];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    if (!Number.isNaN(since) && Math.floor(since / 1000) > Math.floor(now.getTime() / 1000)) ims = undefined;
  }
  return fresh({ 'if-none-match': inm, 'if-modified-since': ims }, { etag: v.etag, 'last-modified': v.lastModified });
}
