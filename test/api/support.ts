// Shared set-up of the API integration tests: the real app from createApp on port 0, a real SQLite
// store and a real security.yaml (KeyRing) in a temp dir, a stub platform for handle resolution,
// a controllable clock, and every log line captured.

import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { createApp, type App } from '../../api/create-app';
import { listen, type Listening, type ServerOptions } from '../../api/server';
import { KeyRing } from '../../api/key-ring';
import type { HandleLookupLimits } from '../../api/resolve-channel';
import type { SearchLimits } from '../../api/routes/search';
import type { OpenStoreOptions } from '../../shared/store';
import type { Store } from '../../shared/store/types';
import { captureLogs, type LogLine } from '../support/logs';
import { videoFactory } from '../support/factories';
import { tempStore } from '../support/temp-store';

export const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
export const OTHER_CHANNEL = 'UC0123456789abcdefghij_-';
export const KEY = 'test-key-unlimited-0001';
export const LIMITED_KEY = 'test-key-limited-0002';
export const DISABLED_KEY = 'test-key-disabled-0003';
export const LIMIT = 3;
export const ADMIN_KEY = 'test-key-admin-0004';
export const DISABLED_ADMIN_KEY = 'test-key-admin-disabled-0005';

export const NASTY_TITLE = 'Tom & Jerry <live> "quoted" ]]> çğıöşü İ 😀';
/** Transcript text that escaping, CDATA and encodings must all carry through unchanged. */
export const NASTY_PARAGRAPHS = [{ startMs: 0, text: '5 < 6 & a ]]> b "q" \'s' }, { startMs: 65_000, text: 'Türkçe: çğıöşü İĞÜŞÖÇ 🎉' }];

export function securityYaml(keys: Record<string, { name: string; rate_limit?: number; enabled: boolean; role?: 'reader' | 'admin' }>): string {
  const lines = ['security:', '  api_keys:'];
  for (const [k, r] of Object.entries(keys)) {
    lines.push(`    ${k}:`, `      name: ${JSON.stringify(r.name)}`);
    if (r.rate_limit !== undefined) lines.push(`      rate_limit: ${r.rate_limit}`);
    lines.push(`      enabled: ${r.enabled}`);
    if (r.role !== undefined) lines.push(`      role: ${r.role}`);
  }
  return `${lines.join('\n')}\n`;
}

export const DEFAULT_KEYS = {
  [KEY]: { name: 'unlimited', rate_limit: 1_000_000, enabled: true },
  [LIMITED_KEY]: { name: 'limited', rate_limit: LIMIT, enabled: true },
  [DISABLED_KEY]: { name: 'disabled', rate_limit: 100, enabled: false },
  [ADMIN_KEY]: { name: 'operator', rate_limit: 1_000_000, enabled: true, role: 'admin' as const },
  [DISABLED_ADMIN_KEY]: { name: 'old operator', rate_limit: 100, enabled: false, role: 'admin' as const },
};

export class StubPlatform {
  calls: string[] = [];
  failWith: Error | null = null;
  constructor(private readonly known: Record<string, string> = {}) {}
  async resolveHandle(handle: string): Promise<string | null> {
    this.calls.push(handle);
    await new Promise((r) => setImmediate(r));
    if (this.failWith) throw this.failWith;
    return this.known[handle.toLowerCase()] ?? null;
  }
}

export interface TestApi {
  base: string;
  store: Store;
  ring: KeyRing;
  platform: StubPlatform;
  dir: string;
  securityFile: string;
  /** Every log line, raw JSON text. */
  logs: string[];
  /** The same lines, parsed. */
  logLines: LogLine[];
  /** The listening server (connection bound, timeouts). */
  server: Listening;
  /** The app it serves (its Express half as `app.express`). */
  app: App;
  /** The app's clock reads this. */
  now: Date;
  get(pathAndQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** A fixed point in time, one second into a minute, so that rate-limit windows never roll mid-test. */
export const T0 = new Date(Date.UTC(2030, 0, 1, 12, 0, 1));

export interface StartApiOptions {
  /** The shortest WebSub lease the API grants (createApp minLeaseSeconds). */
  minLeaseSeconds?: number;
  keys?: Parameters<typeof securityYaml>[0];
  known?: Record<string, string>;
  trustProxy?: boolean | number | string;
  server?: Omit<ServerOptions, 'logger'>;
  maxRenders?: number;
  publicBaseUrl?: string;
  /** PLAYER_EMBED_URL (e.g. the fake embed page's). */
  playerEmbedUrl?: string;
  /** The API's handle-lookup limits (default: the built-in defaults). */
  handleLookups?: HandleLookupLimits;
  /** The SQLite file to use instead of api.db in the temp dir (e.g. one on a fault-injecting mount). */
  databaseFile?: string;
  /** Extra openStore options, e.g. the API's store waits from storeWaits('api', ...). */
  store?: Omit<OpenStoreOptions, 'logger' | 'rootDir'>;
  /** METRICS_LOOPBACK_ONLY. */
  metricsLoopbackOnly?: boolean;
  /** API_MAX_SEARCHES, API_MAX_SEARCHES_PER_KEY, API_SEARCH_BUDGET_MS. */
  search?: SearchLimits;
  /** The store as the app sees it (e.g. one that counts calls); `api.store` stays the store itself. */
  appStore?: (store: Store) => Store;
  /** The app's cache budget, rendered feeds included (API_CACHE_BYTES; default 32 MiB). */
  renderCacheBytes?: number;
  /** CRAWL_NEW_CHANNELS_PER_KEY_HOUR (default: no bound). */
  newChannelsPerKeyHour?: number;
}

export async function startApi(opts: StartApiOptions = {}): Promise<TestApi> {
  const { logger, lines: logLines, raw: logs } = captureLogs();
  const ts = await tempStore('tf-api-', { logger, file: opts.databaseFile ?? 'api.db', store: opts.store });
  const { dir, store } = ts;
  const securityFile = path.join(dir, 'security.yaml');
  writeFileSync(securityFile, securityYaml(opts.keys ?? DEFAULT_KEYS));
  const ring = KeyRing.open(securityFile, { defaultRateLimit: 60, logger, debounceMs: 20, pollMs: 100 });
  const platform = new StubPlatform(opts.known ?? {});
  const api: TestApi = {
    base: '',
    store,
    ring,
    platform,
    dir,
    securityFile,
    logs,
    logLines,
    server: undefined as unknown as Listening,
    app: undefined as unknown as App,
    now: T0,
    get: (p, init = {}) => {
      const headers = new Headers(init.headers);
      const key = init.key === undefined ? KEY : init.key;
      if (key !== null) headers.set('X-API-Key', key);
      return fetch(`${api.base}${p}`, { ...init, headers });
    },
    close: async () => {
      await server.close();
      ring.close();
      await ts.cleanup();
    },
  };
  const app = createApp({ store: opts.appStore?.(store) ?? store, search: opts.search, keys: ring, platform, logger, clock: () => api.now, trustProxy: opts.trustProxy, maxRenders: opts.maxRenders, publicBaseUrl: opts.publicBaseUrl, playerEmbedUrl: opts.playerEmbedUrl, handleLookups: opts.handleLookups, metricsLoopbackOnly: opts.metricsLoopbackOnly, renderCacheBytes: opts.renderCacheBytes, minLeaseSeconds: opts.minLeaseSeconds, newChannelsPerKeyHour: opts.newChannelsPerKeyHour });
  const server: Listening = await listen(app, 0, '127.0.0.1', { logger, ...opts.server });
  api.base = `http://127.0.0.1:${server.port}`;
  api.server = server;
  api.app = app;
  return api;
}

/**
 * Raw bytes on a fresh connection, for requests no HTTP client would send; resolves with everything
 * the server sent once it closes the connection. The client does not half-close: closing is the
 * server's job here (a refused connection, a parse error, Connection: close).
 */
export function rawSocket(base: string, bytes: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(bytes);
  });
}

/** Video n of the test channel: published an hour apart from 2024-01-01 down, fetched a second apart. */
export const video = videoFactory({
  channelId: CHANNEL,
  publishedAt: (n) => new Date(Date.UTC(2024, 0, 1) + (1000 - n) * 3_600_000),
  fetchedAt: (n) => new Date(Date.UTC(2024, 5, 1, 0, 0, 0) + n * 1000),
});

export const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * A feed body with the reader's `key` cut out of its transcript-file links, and only there: those
 * links carry the key on purpose (a podcast app fetches them without headers; docs/api.md). Only the
 * exact `api_key=<key>` parameter that ends a `/transcripts/<video id>.vtt` link is cut, so a check
 * that the key is nowhere else still sees it anywhere else: the self link, ids, other parameters,
 * text, or a second copy inside the link.
 */
export function outsideTranscriptLinks(body: string, key: string): string {
  const encodedKey = new URLSearchParams({ k: key }).toString().slice(2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`(/transcripts/[A-Za-z0-9_-]{11}\\.vtt\\?(?:lang=[^&"<\\s]*&(?:amp;)?)?api_key=)${encodedKey}(?=["<\\s])`, 'g');
  return body.replace(link, '$1');
}
