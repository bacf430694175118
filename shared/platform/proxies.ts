// Outbound proxies for every platform request (PLATFORM_PROXY_URLS; docs/crawler.md §4): what users
// of youtube-transcript-api and yt-dlp do against IP blocks. undici's ProxyAgent does the proxying
// (CONNECT tunnels, Basic proxy auth from the URL's user:pass); this module only decides which proxy
// the next request uses:
// * one proxy at a time, in the configured order;
// * a block moves the next attempt to the next proxy, on a fresh connection, so that with one
//   rotating-residential URL a retry gets a new exit IP by itself (the platform judges the exit IP,
//   and a kept-alive tunnel would keep the old one);
// * a proxy that cannot be reached (or refuses its credentials) is a WARNING and the next is used;
// * credentials never leave this module: logs and reasons name a proxy by scheme, host and port.

import { ProxyAgent, type Dispatcher } from 'undici';
import type { Logger } from '../logger';

/** What the HTTP client needs to send one request through the current proxy. */
export interface ProxyHop {
  /** `http://host:port`, safe to log. */
  readonly label: string;
  /** The proxy's dispatcher, which the exact-headers wire (exact-wire.ts) sends the request through. */
  readonly dispatcher: Dispatcher;
}

/** What the blocked path asks of the egress after a block (crawler/blocked-path.ts). */
export interface Egress {
  /**
   * Moves the next attempt to the next proxy (a fresh connection). True while a retry that way is
   * worth making before any blocked wait: not every proxy has been blocked since the last success.
   */
  nextOnBlock(reason: string): boolean;
  /** A request got through: the next block starts a new round over the proxies. */
  succeeded(): void;
}

interface Entry {
  readonly url: string;
  readonly label: string;
  agent: ProxyAgent;
  /** Why the rotation last moved away from it (blocked, unreachable), until a request gets through it. */
  trouble: string | null;
}

/** Connection failures that are the proxy's, not the platform's. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** `scheme://host:port` of a proxy URL, without user, password, path or query. */
export function proxyLabel(raw: string): string {
  try {
    const u = new URL(raw);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${u.protocol}//${u.hostname}:${port}`;
  } catch {
    return '(unparsable proxy URL)';
  }
}

/**
 * Why a failed exchange was the proxy's fault (unreachable, or it refused the tunnel: a 407 for wrong
 * credentials, a 5xx when it cannot reach the platform), or null when it was not.
 */
export function proxyFailure(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e !== null && e !== undefined && depth < 5; depth += 1) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof message === 'string') {
      const refused = /Proxy response \((\d+)\)/.exec(message);
      if (refused) return refused[1] === '407' ? 'HTTP 407 (proxy refused the credentials)' : `HTTP ${refused[1]} from the proxy`;
    }
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return code;
    e = cause;
  }
  return null;
}

export class ProxyRotation implements Egress {
  private readonly entries: Entry[];
  private index = 0;
  /** Proxies moved away from because of a block since the last success. */
  private blockedInRound = 0;
  private readonly secrets: string[];

  constructor(urls: readonly string[], private readonly logger: Logger) {
    if (urls.length === 0) throw new Error('ProxyRotation needs at least one proxy URL');
    this.entries = urls.map((url) => ({ url, label: proxyLabel(url), agent: new ProxyAgent(url), trouble: null }));
    // Every spelling a credential may take in a message: as written and URL-decoded.
    this.secrets = urls.flatMap((url) => {
      const u = new URL(url);
      return [u.username, u.password, safeDecode(u.username), safeDecode(u.password)];
    }).filter((s) => s.length >= 3);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Each proxy (label only, never credentials) and how the rotation sees it, for the heartbeat. */
  states(): { proxy: string; state: string }[] {
    return this.entries.map((e, i) => ({ proxy: e.label, state: i === this.index ? (e.trouble ? `in use (last: ${e.trouble})` : 'in use') : (e.trouble ?? 'standby') }));
  }

  /** The proxy the next request goes through. */
  current(): ProxyHop {
    const entry = this.entries[this.index]!;
    return { label: entry.label, dispatcher: entry.agent };
  }

  /**
   * The current proxy as Playwright's context `proxy` option wants it, for the browser fallback.
   * `<-loopback>` removes Chromium's implicit bypass of localhost, so nothing goes around it.
   */
  currentForBrowser(): { server: string; username?: string; password?: string; bypass: string } {
    const u = new URL(this.entries[this.index]!.url);
    const creds = u.username ? { username: safeDecode(u.username), password: safeDecode(u.password) } : {};
    return { server: proxyLabel(u.href), ...creds, bypass: '<-loopback>' };
  }

  /** The current proxy failed as a proxy: WARNING, and the next request uses the next one. */
  skipUnreachable(hop: ProxyHop, why: string): void {
    this.logger.warning({ proxy: hop.label, reason: this.scrub(why) }, 'outbound proxy unreachable; using the next one');
    const entry = this.entries.find((e) => e.label === hop.label);
    if (entry) entry.trouble = `unreachable at ${clock()}`;
    if (this.entries[this.index]!.label === hop.label) this.advance();
  }

  nextOnBlock(reason: string): boolean {
    const from = this.entries[this.index]!.label;
    this.entries[this.index]!.trouble = `blocked at ${clock()}`;
    this.blockedInRound += 1;
    this.advance();
    // With several proxies each gets its chance before the blocked wait; a single (rotating) URL
    // gets one retry on a fresh connection, i.e. a new exit IP.
    const worthRetrying = this.blockedInRound < Math.max(2, this.entries.length);
    this.logger.info(
      { from, to: this.entries[this.index]!.label, reason: this.scrub(reason), retryNow: worthRetrying },
      worthRetrying ? 'blocked through this proxy; the next attempt goes through the next one' : 'blocked through every proxy; waiting before the next attempt',
    );
    if (!worthRetrying) this.blockedInRound = 0;
    return worthRetrying;
  }

  succeeded(): void {
    this.blockedInRound = 0;
    this.entries[this.index]!.trouble = null;
  }

  /** `text` with every proxy credential replaced, for logs and stored reasons. */
  scrub(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join('***');
    return out;
  }

  async close(): Promise<void> {
    await Promise.all(this.entries.map((e) => e.agent.close().catch(() => undefined)));
  }

  /** Next proxy, on a fresh agent: the old tunnels are closed so no request reuses an old exit IP. */
  private advance(): void {
    const left = this.entries[this.index]!;
    const old = left.agent;
    left.agent = new ProxyAgent(left.url);
    void old.close().catch(() => undefined);
    this.index = (this.index + 1) % this.entries.length;
  }
}

/** HH:MM UTC, how the heartbeat's proxy states say when something happened. */
const clock = (): string => `${new Date().toISOString().slice(11, 16)} UTC`;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The rotation for PLATFORM_PROXY_URLS, or null when none is configured. */
export function createProxyRotation(urls: readonly string[] | undefined, logger: Logger): ProxyRotation | null {
  if (!urls || urls.length === 0) return null;
  const rotation = new ProxyRotation(urls, logger);
  logger.info({ proxies: urls.map(proxyLabel) }, 'platform requests go through outbound proxies');
  return rotation;
}
