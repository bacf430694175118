// The platform's hub talks to this service here: /websub/<token>, the one route without an API key
// (authenticated by its unguessable token and, for notifications, the HMAC of the body). The API
// makes no platform request: a verification updates the subscription record, a notification
// becomes work for the crawler (pushed videos) or takes deleted videos out of feeds.
//
// * GET (verification of intent): echoes hub.challenge with 200 only for a token we gave, the topic
//   we asked for (either form), and mode subscribe after we asked (or unsubscribe while we are ending
//   the subscription: the record goes); `hub.mode=denied` is recorded (the channel falls back to
//   polling) and answered 200; anything else is a 404.
// * POST (notification, Atom, at most 1 MB; an unknown token is a 404 before its body is read): a missing or wrong X-Hub-Signature is acknowledged
//   (2xx, as WebSub requires) and ignored with a WARNING; a valid one is a ping: its videos become
//   due for the crawler, its at:deleted-entry videos leave the feeds.

import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { XMLParser } from 'fast-xml-parser';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { PushedVideoInput, Store, WebSubRecord } from '../../shared/store/types';
import { ApiError } from '../errors';
import { empty, field, text } from '../http/answer';

const PLAIN = 'text/plain; charset=utf-8';

/** The most a notification may weigh (the hub's own are a few KB). */
export const NOTIFICATION_LIMIT_BYTES = 1024 * 1024;
/** What a verification without hub.lease_seconds is taken to grant: what the crawler asks. */
const DEFAULT_LEASE_SECONDS = 5 * 24 * 3600;
/** A granted lease is held to this range (docs/api.md): shorter ones would make renewal storms, longer ones overflow dates. */
export const LEASE_SECONDS_RANGE = { min: 3600, max: 10 * 24 * 3600 } as const;

/** The lease a verification grants: a positive integer clamped to the range, anything else the default. */
export function grantedLease(asked: string | null, min: number = LEASE_SECONDS_RANGE.min): number {
  const n = Number(asked);
  if (asked === null || asked === '' || !Number.isInteger(n) || n <= 0) return DEFAULT_LEASE_SECONDS;
  return Math.min(LEASE_SECONDS_RANGE.max, Math.max(min, n));
}

const VIDEO_ID_RE = /^[A-Za-z0-9_-]{11}$/;
const TOKEN_RE = /^[A-Za-z0-9_-]{16,128}$/;

export interface WebSubDeps {
  store: Store;
  logger: Logger;
  clock: () => Date;
  /** When a verified lease is renewed (the crawler's rule, crawler/push-schedule.ts). */
  renewAt: (verifiedMs: number, leaseSeconds: number) => number;
  /** The shortest lease granted; LEASE_SECONDS_RANGE.min unless a test shortens it. */
  minLeaseSeconds?: number;
}

/** The topic in either form the platform uses (with `/xml` or without), reduced to its channel id. */
export function topicChannel(topic: string): string | null {
  const m = /^https:\/\/www\.youtube\.com\/(?:xml\/)?feeds\/videos\.xml\?channel_id=(UC[A-Za-z0-9_-]{22})$/.exec(topic);
  return m ? m[1]! : null;
}

const first = (v: unknown): string | null => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : null);
const notFound = (): ApiError => new ApiError('pathNotFound');

/** The signature is compared in constant time; anything malformed is simply not a match. */
export function signatureMatches(header: string | undefined, secret: string, body: Buffer): boolean {
  const m = /^sha1=([0-9a-f]{40})$/i.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha1', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(m[1]!.toLowerCase(), 'hex'));
}

interface Notification {
  videos: PushedVideoInput[];
  deleted: string[];
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', processEntities: true, htmlEntities: false, isArray: (name) => name === 'entry' || name === 'at:deleted-entry' });

/** The videos and deletions of a hub notification for `channelId`; entries of other channels are left out. Null when it is not a feed. */
export function parseNotification(xml: string, channelId: string): Notification | null {
  // Never expanded, never fetched: a document that declares anything is not the hub's.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    return null;
  }
  const feed = (doc as { feed?: unknown } | null)?.feed;
  if (typeof feed !== 'object' || feed === null) return null;
  const f = feed as { entry?: unknown[]; 'at:deleted-entry'?: unknown[] };
  const videos: PushedVideoInput[] = [];
  for (const e of f.entry ?? []) {
    const entry = e as Record<string, unknown>;
    const videoId = String(entry['yt:videoId'] ?? '');
    if (!VIDEO_ID_RE.test(videoId) || String(entry['yt:channelId'] ?? '') !== channelId) continue;
    const published = new Date(String(entry.published ?? ''));
    const title = typeof entry.title === 'string' ? entry.title.slice(0, 500) : String(entry.title ?? '').slice(0, 500);
    videos.push({ videoId, channelId, title, publishedAt: Number.isNaN(published.getTime()) ? null : published });
  }
  const deleted: string[] = [];
  for (const d of f['at:deleted-entry'] ?? []) {
    const ref = String((d as Record<string, unknown>)['@_ref'] ?? '');
    const m = /^yt:video:([A-Za-z0-9_-]{11})$/.exec(ref);
    if (m) deleted.push(m[1]!);
  }
  return { videos, deleted };
}

export function webSubRoutes(deps: WebSubDeps): { verify: RequestHandler; notify: RequestHandler[] } {
  const log = categoryLogger(deps.logger, 'api.websub');
  const lookUp = async (token: unknown): Promise<WebSubRecord | null> =>
    typeof token === 'string' && TOKEN_RE.test(token) ? deps.store.webSubByToken(token) : null;

  const verify: RequestHandler = async (req, res) => {
    const record = await lookUp(req.params.token);
    const mode = first(req.query['hub.mode']);
    const topic = first(req.query['hub.topic']) ?? '';
    const challenge = first(req.query['hub.challenge']);
    if (record === null || record.requestedAt === null || topicChannel(topic) !== record.channelId) throw notFound();
    const now = deps.clock();
    if (mode === 'denied') {
      const reason = (first(req.query['hub.reason']) ?? 'denied by the hub').slice(0, 200);
      await deps.store.putWebSub({ ...record, status: 'denied', lastError: `hub denied: ${reason}`, failures: record.failures + 1, updatedAt: now, nextActionAt: new Date(now.getTime() + 3_600_000) });
      await deps.store.pollChannelNow(record.channelId, now);
      log.warning({ channelId: record.channelId, reason }, 'the hub denied the push subscription; the channel is polled');
      text(res, 200, PLAIN, '');
      return;
    }
    const challengeOk = challenge !== null && challenge !== '' && challenge.length <= 1024;
    if (mode === 'unsubscribe' && record.status === 'unsubscribing' && challengeOk) {
      await deps.store.deleteWebSub(record.channelId, record.token);
      log.info({ channelId: record.channelId }, 'push subscription ended: the hub verified the unsubscribe');
      text(res, 200, PLAIN, challenge);
      return;
    }
    if (mode !== 'subscribe' || record.status === 'unsubscribing' || !challengeOk) throw notFound();
    const leaseSeconds = grantedLease(first(req.query['hub.lease_seconds']), deps.minLeaseSeconds);
    await deps.store.putWebSub({
      ...record, status: 'verified', verifiedAt: now, leaseSeconds, leaseExpiresAt: new Date(now.getTime() + leaseSeconds * 1000),
      nextActionAt: new Date(deps.renewAt(now.getTime(), leaseSeconds)), failures: 0, lastError: null, updatedAt: now,
    });
    log.info({ channelId: record.channelId, leaseSeconds }, 'push subscription verified');
    text(res, 200, PLAIN, challenge);
  };

  const body = express.raw({ type: () => true, limit: NOTIFICATION_LIMIT_BYTES });
  const tooLarge = (err: unknown, _req: Request, _res: Response, next: NextFunction): void => {
    const type = (err as { type?: unknown } | null)?.type;
    next(type === 'entity.too.large' ? new ApiError('notificationTooLarge', {}, { cause: err }) : err);
  };
  // The token is looked up before the body is read: a post for a token we never gave costs no memory
  // (it is answered 404 and its body dropped with the connection).
  const known: RequestHandler = async (req, res, next) => {
    const record = await lookUp(req.params.token);
    if (record === null) {
      field(res, 'connection', 'close');
      throw notFound();
    }
    res.locals.webSub = record;
    next();
  };
  const notify: RequestHandler = async (req, res) => {
    const record = res.locals.webSub as WebSubRecord;
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    // A bad one is acknowledged like a good one (WebSub): the sender learns nothing from the answer.
    if (!signatureMatches(req.get('x-hub-signature'), record.secret, raw)) {
      log.warning({ channelId: record.channelId, bytes: raw.length }, 'push notification with a missing or wrong signature ignored');
      empty(res);
      return;
    }
    if (record.status === 'unsubscribing') {
      // Nobody follows the channel any more: acknowledged, and no work made of it.
      empty(res);
      return;
    }
    const n = parseNotification(raw.toString('utf8'), record.channelId);
    if (n === null) {
      log.warning({ channelId: record.channelId, bytes: raw.length }, 'push notification that is not the hub\'s feed ignored');
      empty(res);
      return;
    }
    const now = deps.clock();
    if (n.videos.length > 0) await deps.store.pushVideos(n.videos, now);
    const removed = n.deleted.length > 0 ? await deps.store.removeFromFeeds(n.deleted, now) : 0;
    // Answered only once stored: a store that cannot write is a 500, and the hub delivers again.
    empty(res);
    log.info({ channelId: record.channelId, videos: n.videos.map((v) => v.videoId), deleted: n.deleted, removed }, 'push notification');
  };
  return { verify, notify: [known, body as RequestHandler, tooLarge as unknown as RequestHandler, notify] };
}
