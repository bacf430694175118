// Every plain request to the platform goes through here: one host only (absolute caption URLs are
// mapped onto PLATFORM_BASE_URL, anything else is refused), a browser identity per request, the
// session's cookies, a timeout over the whole exchange, a cap on the body, and the consent wall
// handled on the spot (set the cookie, retry once). Every request leaves on the exact-headers wire
// (exact-wire.ts): fetch() would overwrite Sec-Fetch-Mode (docs/crawler.md §6). With
// PLATFORM_PROXY_URLS every request goes through the current outbound proxy (proxies.ts); a proxy
// that fails as a proxy is skipped for the next one within the same request.

import type { Logger } from '../logger';
import { classifyAnswer, type RawAnswer, type Verdict } from './classify';
import type { CookieJar } from './cookie-jar';
import { AnswerTooLarge, sendExact, type WireAnswer, type WireRequest } from './exact-wire';
import { buildHeaders, type AppHeaders, type InnertubeClientHeaders, type RequestKind } from './headers';
import type { ProxyHop, ProxyRotation } from './proxies';
import { proxyFailure } from './proxies';
import { PlatformError } from './types';
import { identityOf, pickIdentity } from './user-agents';

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** A path on the platform (`/watch?v=…`) or an absolute URL the platform handed out. */
  target: string;
  kind: RequestKind;
  /** JSON body (InnerTube). */
  body?: unknown;
  /** Path or URL of the page this request appears to come from. */
  referer?: string;
  client?: InnertubeClientHeaders;
  /** For `app` requests: the app's User-Agent and visitorData (no browser identity, no cookies). */
  app?: AppHeaders;
  /** Short name for reasons and logs: "player", "timed text", "channel feed"… */
  what: string;
  /** The InnerTube client this request speaks as (for metrics), when it is one. */
  clientName?: string;
  /**
   * A shorter wait, for an endpoint the platform stalls instead of refusing outright (timed text
   * since August 2026: an empty 200 after about 8 s). Running out of it is that refusal, `blocked`,
   * not a network failure to retry video after video.
   */
  stallAfterMs?: number;
}

/** One request's end, for metrics: the endpoint (a fixed name), client, how it was judged, body size. */
export interface PlatformRequestEvent {
  endpoint: string;
  client?: string;
  /** The answer's verdict (`ok`, `blocked`, …) or, when none came, `error`. */
  outcome: string;
  bytes: number;
}

/** Told of every request the client sends (the crawler's metrics); optional. */
export interface PlatformObserver {
  request(e: PlatformRequestEvent): void;
  /** An outbound proxy failed as a proxy and the next one carries the request. */
  proxySkipped?(): void;
}

/** The endpoint a platform URL names, from a fixed set (never a path with an id in it). */
export function endpointOf(url: URL): string {
  const p = url.pathname;
  if (p.startsWith('/youtubei/v1/')) {
    const name = p.slice('/youtubei/v1/'.length);
    return ['player', 'browse', 'next', 'visitor_id', 'navigation/resolve_url', 'reel/reel_item_watch'].includes(name) ? name : 'innertube_other';
  }
  if (p === '/api/timedtext') return 'timedtext';
  if (p === '/feeds/videos.xml') return 'feed';
  if (p === '/watch') return 'watch';
  if (p.startsWith('/embed/')) return 'embed';
  if (p.startsWith('/@') || p.startsWith('/channel/') || p.startsWith('/c/') || p.startsWith('/user/')) return 'channel_page';
  return 'other';
}

export interface HttpAnswer extends RawAnswer {
  /** Final URL (after same-host redirects). */
  url: string;
  verdict: Verdict;
}

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs: number;
  jar: CookieJar;
  logger: Logger;
  /** [0, 1) source for the user-agent choice; injectable for tests. */
  random?: () => number;
  /** Largest decompressed body accepted (a watch page is ~1.5 MB). */
  maxBodyBytes?: number;
  /** Outbound proxies every request goes through (PLATFORM_PROXY_URLS); null = direct. */
  proxies?: ProxyRotation | null;
  observer?: PlatformObserver;
  /** The longest wait for a timed-text answer (PLATFORM_TIMED_TEXT_TIMEOUT_MS); default timeoutMs. */
  timedTextTimeoutMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Hosts whose URLs the platform hands out (caption baseUrls, resolve_url redirects) and that we map
 * onto the base URL.
 */
export const PLATFORM_HOSTS: ReadonlySet<string> = new Set(['www.youtube.com', 'youtube.com', 'm.youtube.com']);

/** Query parameters safe to log; the rest (signatures, tokens, keys) stay out of logs. */
const LOGGABLE_PARAMS = new Set(['v', 'channel_id', 'lang', 'kind', 'tlang']);

export function loggablePath(url: URL): string {
  const kept = [...url.searchParams].filter(([k]) => LOGGABLE_PARAMS.has(k));
  return kept.length === 0 ? url.pathname : `${url.pathname}?${new URLSearchParams(kept).toString()}`;
}

export class PlatformHttp {
  readonly base: URL;
  /** Requests sent so far (each retry and redirect counts). */
  requestCount = 0;
  private readonly random: () => number;
  private readonly maxBody: number;

  constructor(private readonly opts: HttpClientOptions) {
    this.base = new URL(opts.baseUrl);
    this.random = opts.random ?? Math.random;
    this.maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  get baseUrl(): string {
    return this.base.origin;
  }

  /** How long a timed-text request may take before it counts as the platform's stall. */
  get timedTextTimeoutMs(): number {
    return Math.min(this.opts.timedTextTimeoutMs ?? this.opts.timeoutMs, this.opts.timeoutMs);
  }

  get jar(): CookieJar {
    return this.opts.jar;
  }

  /**
   * The URL a target stands for, always on the platform base host: paths are joined to the base,
   * platform URLs are moved onto it, and any other host is refused.
   */
  platformUrl(target: string): URL {
    const url = new URL(target, this.base);
    if (url.host === this.base.host && url.protocol === this.base.protocol) return url;
    if ((url.protocol === 'https:' || url.protocol === 'http:') && PLATFORM_HOSTS.has(url.hostname)) {
      return new URL(`${url.pathname}${url.search}`, this.base);
    }
    throw new PlatformError('transient', `refusing a URL outside the platform host (${url.host})`);
  }

  /** Sends the request; a consent wall is answered with the consent cookie and one retry. */
  async send(req: HttpRequest): Promise<HttpAnswer> {
    const first = await this.exchange(req);
    if (first.verdict.outcome !== 'consent') return first;
    this.acceptConsent(first.verdict.consentValue);
    this.opts.logger.info({ what: req.what, reason: first.verdict.reason }, 'consent wall: consent cookie set, retrying once');
    const second = await this.exchange(req);
    if (second.verdict.outcome === 'consent') {
      throw new PlatformError('consent', `${req.what}: consent wall persists after setting the consent cookie`);
    }
    return second;
  }

  /** SOCS=CAI is the current consent cookie; CONSENT=YES+<v> the older form some walls still ask for. */
  acceptConsent(formValue: string | null): void {
    this.jar.set('SOCS', 'CAI');
    if (formValue) this.jar.set('CONSENT', `YES+${formValue}`);
  }

  private async exchange(req: HttpRequest): Promise<HttpAnswer> {
    let url = this.platformUrl(req.target);
    let method = req.method;
    for (let hop = 0; ; hop++) {
      const answer = await this.once(req, method, url);
      if (answer.location === null || hop >= MAX_REDIRECTS) return answer;
      const next = new URL(answer.location, url);
      if (next.host !== this.base.host) return answer; // off-host: the classifier judges it
      url = next;
      method = 'GET';
    }
  }

  private async once(req: HttpRequest, method: 'GET' | 'POST', url: URL): Promise<HttpAnswer> {
    const pinned = this.jar.pinnedUserAgent();
    const identity = pinned !== null ? identityOf(pinned) : pickIdentity(this.random);
    const referer = req.referer === undefined ? undefined : this.platformUrl(req.referer).href;
    // An app sends no browser cookies, except a clearance an unblocker won for this IP (docs/crawler.md §3).
    const cookie = req.kind === 'app' && pinned === null ? undefined : this.jar.header();
    const headers = buildHeaders({
      kind: req.kind, identity, base: this.baseUrl, referer, cookie, client: req.client, app: req.app,
    });
    const path = loggablePath(url);
    const started = performance.now();
    const waitMs = req.stallAfterMs ?? this.opts.timeoutMs;
    const signal = AbortSignal.timeout(waitMs);
    let proxy: string | undefined;
    try {
      const { res, via } = await this.sendVia(url, {
        method,
        headers,
        body: method === 'POST' && req.body !== undefined ? JSON.stringify(req.body) : undefined,
        signal,
        maxBytes: this.maxBody,
      });
      proxy = via;
      this.jar.takeSetCookie(res.headers.getSetCookie());
      const body = res.body.toString('utf8');
      const isRedirect = res.status >= 300 && res.status < 400 && res.headers.has('location');
      const raw: RawAnswer = {
        status: res.status,
        contentType: res.headers.get('content-type') ?? '',
        body,
        location: isRedirect ? res.headers.get('location') : null,
      };
      const ms = Math.round(performance.now() - started);
      this.opts.logger.debug({ method, path, status: res.status, ms, bytes: body.length, browser: req.kind === 'app' ? 'app' : identity.family, proxy }, `${method} ${path} ${res.status}`);
      const verdict = classifyAnswer(raw);
      this.opts.observer?.request({ endpoint: endpointOf(url), client: req.clientName, outcome: verdict.outcome, bytes: res.body.length });
      return { ...raw, url: url.href, verdict };
    } catch (err) {
      const ms = Math.round(performance.now() - started);
      this.opts.observer?.request({ endpoint: endpointOf(url), client: req.clientName, outcome: err instanceof PlatformError ? err.outcome : 'error', bytes: 0 });
      if (err instanceof PlatformError) {
        this.opts.logger.debug({ method, path, ms, outcome: err.outcome }, `${method} ${path} failed: ${err.reason}`);
        throw err;
      }
      if (err instanceof AnswerTooLarge) {
        this.opts.logger.debug({ method, path, ms, outcome: 'transient' }, `${method} ${path} failed: ${err.message}`);
        throw new PlatformError('transient', `${req.what}: ${err.message}`, { cause: err });
      }
      if (signal.aborted && req.stallAfterMs !== undefined) {
        this.opts.logger.debug({ method, path, ms, outcome: 'blocked' }, `${method} ${path} stalled past ${waitMs} ms`);
        throw new PlatformError('blocked', `${req.what} stalled: no answer within ${waitMs} ms`, { cause: err, block: 'stalled' });
      }
      const reason = signal.aborted
        ? `timed out after ${waitMs} ms`
        : `network error (${this.scrub(networkCode(err))})`;
      this.opts.logger.debug({ method, path, ms, outcome: 'transient' }, `${method} ${path} failed: ${reason}`);
      throw new PlatformError('transient', `${req.what}: ${reason}`, { cause: err });
    }
  }

  /**
   * One exchange, direct or through the current proxy. A proxy that fails as a proxy (unreachable,
   * credentials refused) is skipped with a WARNING and the next one carries the same request; each
   * proxy is tried at most once per request.
   */
  private async sendVia(url: URL, wire: WireRequest): Promise<{ res: WireAnswer; via: string | undefined }> {
    const proxies = this.opts.proxies;
    if (!proxies) {
      this.requestCount += 1;
      return { res: await sendExact(url, wire), via: undefined };
    }
    for (let tried = 1; ; tried += 1) {
      const hop: ProxyHop = proxies.current();
      this.requestCount += 1;
      try {
        return { res: await sendExact(url, { ...wire, dispatcher: hop.dispatcher }), via: hop.label };
      } catch (err) {
        const why = proxyFailure(err);
        if (why === null || wire.signal.aborted) throw err;
        proxies.skipUnreachable(hop, why);
        this.opts.observer?.proxySkipped?.();
        if (tried >= proxies.size) {
          throw new PlatformError('transient', `no outbound proxy could be used (last: ${hop.label}, ${why})`, { cause: err });
        }
      }
    }
  }

  /** Proxy credentials out of a text that may quote a proxy's error. */
  private scrub(text: string): string {
    return this.opts.proxies ? this.opts.proxies.scrub(text) : text;
  }
}

/** The error code of a failed exchange: request() rejects with it, fetch-style errors carry it as the cause. */
function networkCode(err: unknown): string {
  const own = (err as { code?: unknown }).code;
  if (typeof own === 'string') return own;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message : 'unknown';
}
