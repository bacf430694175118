// The platform's WebSub hub (docs/crawler.md §8), faked on its own loopback server: subscribe and
// unsubscribe (form-encoded, hub.verify=async) answered 202 and followed by the verification of
// intent (a GET to the callback that must echo hub.challenge), leases (granted and lapsing),
// secrets and X-Hub-Signature (sha1 HMAC of the body), notifications of uploads, edits and
// deletions (at:deleted-entry), and switches to drop a share of notifications, to deny, to answer
// 503 with Retry-After, and to answer slowly.

import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { feedDate } from './texts';
import { escapeXml } from './http';

/** The topic forms a subscriber may name: with `/xml` (what notifications' self link says) or without. */
const TOPIC_RE = /^https:\/\/www\.youtube\.com\/(?:xml\/)?feeds\/videos\.xml\?channel_id=(UC[A-Za-z0-9_-]{22})$/;
/** The longest lease the hub grants (about 10 days is the most reported). */
export const HUB_MAX_LEASE_SECONDS = 10 * 24 * 3600;

export interface HubSubscription {
  channelId: string;
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number;
  /** Epoch ms when the lease lapses (real clock). */
  expiresAt: number;
}

/** One subscribe/unsubscribe request as the hub received it. */
export interface HubRequest {
  mode: string;
  topic: string;
  callback: string;
  secret: string | null;
  leaseSeconds: number | null;
  verify: string | null;
  contentType: string;
  /** What the hub answered. */
  status: number;
}

export interface HubCounters {
  subscribeRequests: number;
  verified: number;
  verifyFailed: number;
  denied: number;
  notified: number;
  dropped: number;
  refused: number;
}

export interface NotifiedVideo {
  videoId: string;
  channelId: string;
  title: string;
  publishedAt: Date;
  /** An edit: `updated` later than `published`. Default: the publish time. */
  updatedAt?: Date;
  author?: string;
}

export interface FakeHub {
  /** The hub's subscribe endpoint: use as WEBSUB_HUB_URL. */
  readonly url: string;
  readonly counters: HubCounters;
  readonly requests: readonly HubRequest[];
  /** Subscriptions verified and not lapsed. */
  subscriptions(): HubSubscription[];
  /** Notifies every active subscriber of the channel (the hub's own body, signed with each secret); resolves to how many got it. */
  notifyUpload(video: NotifiedVideo): Promise<number>;
  /** The same with `updated` after `published`, as the platform sends for title and description edits. */
  notifyEdit(video: NotifiedVideo): Promise<number>;
  notifyDeletion(channelId: string, videoId: string, when?: Date): Promise<number>;
  /** A body of the test's choosing, signed with `signWith` instead of the subscriber's secret when given (forgeries). */
  notifyRaw(channelId: string, body: string, signWith?: string | null): Promise<number>;
  /** Makes the channel's leases lapse now, as if the subscriber had not renewed in time. */
  lapse(channelId: string): void;
  // Switches; setting one again replaces it, 0/false/null turns it off.
  /** Deny the next n subscriptions (true: every one until turned off): 202, then a `hub.mode=denied` GET to the callback. */
  deny(n: number | boolean): void;
  /** The next n subscribe requests get 503 with `Retry-After: retryAfterSeconds`. */
  unavailable(n: number, retryAfterSeconds?: number): void;
  /** Every subscribe answer held back `ms`. */
  slow(ms: number): void;
  /** Drops this share (0–1) of notifications, evenly spread. */
  dropShare(share: number): void;
  /** Grants leases of this many seconds whatever is asked (null: what is asked, at most HUB_MAX_LEASE_SECONDS). */
  grantLease(seconds: number | null): void;
  /** Resolves once every verification and notification under way has finished. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const topicOf = (channelId: string): string => `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId}`;

function uploadBody(v: NotifiedVideo): string {
  const author = escapeXml(v.author ?? 'Fake Channel');
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="https://pubsubhubbub.appspot.com"/><link rel="self" href="${topicOf(v.channelId)}"/><title>YouTube video feed</title><updated>${feedDate(v.updatedAt ?? v.publishedAt)}</updated>
<entry>
  <id>yt:video:${v.videoId}</id>
  <yt:videoId>${v.videoId}</yt:videoId>
  <yt:channelId>${v.channelId}</yt:channelId>
  <title>${escapeXml(v.title)}</title>
  <link rel="alternate" href="https://www.youtube.com/watch?v=${v.videoId}"/>
  <author>
   <name>${author}</name>
   <uri>https://www.youtube.com/channel/${v.channelId}</uri>
  </author>
  <published>${feedDate(v.publishedAt)}</published>
  <updated>${feedDate(v.updatedAt ?? v.publishedAt)}</updated>
 </entry>
</feed>
`;
}

function deletionBody(channelId: string, videoId: string, when: Date): string {
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:at="http://purl.org/atompub/tombstones/1.0" xmlns="http://www.w3.org/2005/Atom"><at:deleted-entry ref="yt:video:${videoId}" when="${feedDate(when)}">
  <link href="https://www.youtube.com/watch?v=${videoId}"/>
  <at:by>
   <name>Fake Channel</name>
   <uri>https://www.youtube.com/channel/${channelId}</uri>
  </at:by>
 </at:deleted-entry></feed>
`;
}

export async function startFakeHub(): Promise<FakeHub> {
  const active = new Map<string, HubSubscription>(); // by topic (normalized) + callback
  const requests: HubRequest[] = [];
  const counters: HubCounters = { subscribeRequests: 0, verified: 0, verifyFailed: 0, denied: 0, notified: 0, dropped: 0, refused: 0 };
  const pending = new Set<Promise<unknown>>();
  let denyLeft: number | boolean = 0;
  let unavailableLeft = 0;
  let retryAfter = 120;
  let slowMs = 0;
  let drop = 0;
  let dropCarry = 0;
  let grant: number | null = null;

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };
  const keyOf = (channelId: string, callback: string): string => `${channelId} ${callback}`;

  /** The verification of intent: the callback must answer 2xx with exactly the challenge. */
  async function verify(mode: string, channelId: string, topic: string, callback: string, secret: string | null, lease: number): Promise<void> {
    const challenge = randomBytes(12).toString('hex');
    const url = new URL(callback);
    url.searchParams.set('hub.mode', mode);
    url.searchParams.set('hub.topic', topic);
    url.searchParams.set('hub.challenge', challenge);
    if (mode === 'subscribe') url.searchParams.set('hub.lease_seconds', String(lease));
    try {
      const res = await fetch(url);
      const body = await res.text();
      if (!res.ok || body !== challenge) {
        counters.verifyFailed += 1;
        return;
      }
    } catch {
      counters.verifyFailed += 1;
      return;
    }
    counters.verified += 1;
    const key = keyOf(channelId, callback);
    if (mode === 'unsubscribe') active.delete(key);
    else active.set(key, { channelId, topic, callback, secret, leaseSeconds: lease, expiresAt: Date.now() + lease * 1000 });
  }

  async function sendDenial(topic: string, callback: string): Promise<void> {
    const url = new URL(callback);
    url.searchParams.set('hub.mode', 'denied');
    url.searchParams.set('hub.topic', topic);
    url.searchParams.set('hub.reason', 'The topic is not allowed for this callback.');
    counters.denied += 1;
    await fetch(url).then((r) => r.arrayBuffer()).catch(() => undefined);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://hub');
    const body = await readBody(req);
    if (slowMs > 0) await new Promise((r) => setTimeout(r, slowMs));
    const reply = (status: number, text = '', headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(text);
    };
    if (req.method !== 'POST' || url.pathname !== '/subscribe') return reply(404, 'Not found');
    counters.subscribeRequests += 1;
    const contentType = String(req.headers['content-type'] ?? '');
    const form = new URLSearchParams(body);
    const record: HubRequest = {
      mode: form.get('hub.mode') ?? '', topic: form.get('hub.topic') ?? '', callback: form.get('hub.callback') ?? '',
      secret: form.get('hub.secret'), leaseSeconds: form.has('hub.lease_seconds') ? Number(form.get('hub.lease_seconds')) : null,
      verify: form.get('hub.verify'), contentType, status: 0,
    };
    requests.push(record);
    const answer = (status: number, text = '', headers: Record<string, string> = {}): void => {
      record.status = status;
      reply(status, text, headers);
    };
    if (unavailableLeft > 0) {
      unavailableLeft -= 1;
      counters.refused += 1;
      return answer(503, 'Service Unavailable', { 'retry-after': String(retryAfter) });
    }
    if (!contentType.startsWith('application/x-www-form-urlencoded')) return answer(400, 'Invalid request: not form-encoded');
    const topic = TOPIC_RE.exec(record.topic);
    if (!topic) return answer(400, 'Invalid value for hub.topic');
    let callback: URL;
    try {
      callback = new URL(record.callback);
    } catch {
      return answer(400, 'Invalid value for hub.callback');
    }
    if (!/^https?:$/.test(callback.protocol)) return answer(400, 'Invalid value for hub.callback');
    if (record.mode !== 'subscribe' && record.mode !== 'unsubscribe') return answer(400, 'Invalid value for hub.mode');
    if (record.secret !== null && Buffer.byteLength(record.secret) >= 200) return answer(400, 'Invalid value for hub.secret');
    const channelId = topic[1]!;
    const asked = record.leaseSeconds !== null && Number.isFinite(record.leaseSeconds) && record.leaseSeconds > 0 ? record.leaseSeconds : HUB_MAX_LEASE_SECONDS;
    const lease = grant ?? Math.min(asked, HUB_MAX_LEASE_SECONDS);
    answer(202);
    if (record.mode === 'subscribe' && (denyLeft === true || (typeof denyLeft === 'number' && denyLeft > 0))) {
      if (typeof denyLeft === 'number') denyLeft -= 1;
      void track(sendDenial(record.topic, record.callback));
      return;
    }
    void track(verify(record.mode, channelId, record.topic, record.callback, record.secret, lease));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('fake hub: handler failed', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const live = (channelId: string): HubSubscription[] =>
    [...active.values()].filter((s) => s.channelId === channelId && s.expiresAt > Date.now());

  /** Sends `body` to every live subscriber of the channel; resolves to how many 2xx answers came. */
  function deliver(channelId: string, body: string, signWith?: string | null): Promise<number> {
    return track(
      (async () => {
        let delivered = 0;
        for (const sub of live(channelId)) {
          dropCarry += drop;
          if (dropCarry >= 1) {
            dropCarry -= 1;
            counters.dropped += 1;
            continue;
          }
          const secret = signWith === undefined ? sub.secret : signWith;
          const headers: Record<string, string> = { 'content-type': 'application/atom+xml' };
          if (secret) headers['x-hub-signature'] = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
          try {
            const res = await fetch(sub.callback, { method: 'POST', headers, body });
            await res.arrayBuffer();
            counters.notified += 1;
            if (res.ok) delivered += 1;
          } catch {
            // The hub retries later in reality; here the test sees 0 deliveries.
          }
        }
        return delivered;
      })(),
    );
  }

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/subscribe`,
    counters,
    requests,
    subscriptions: () => [...active.values()].filter((s) => s.expiresAt > Date.now()),
    notifyUpload: (v) => deliver(v.channelId, uploadBody(v)),
    notifyEdit: (v) => deliver(v.channelId, uploadBody({ ...v, updatedAt: v.updatedAt ?? new Date() })),
    notifyDeletion: (channelId, videoId, when = new Date()) => deliver(channelId, deletionBody(channelId, videoId, when)),
    notifyRaw: (channelId, body, signWith) => deliver(channelId, body, signWith),
    lapse: (channelId) => {
      for (const s of active.values()) if (s.channelId === channelId) s.expiresAt = Date.now() - 1;
    },
    deny: (n) => void (denyLeft = n),
    unavailable: (n, seconds = 120) => {
      unavailableLeft = n;
      retryAfter = seconds;
    },
    slow: (ms) => void (slowMs = ms),
    dropShare: (share) => {
      drop = Math.min(1, Math.max(0, share));
      dropCarry = 0;
    },
    grantLease: (seconds) => void (grant = seconds),
    settle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
