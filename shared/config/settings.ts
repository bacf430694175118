// Every setting of the service, declared once: name, default, how to parse and validate it, and
// whether it is secret. The environment wins over config/settings.yaml; see README "Configuration".

import { DEFAULT_PLAYER_CLIENTS, identityFor, KNOWN_CLIENTS, parseIdentityOverrides, type IdentityOverride } from './client-identities';
import { isLanguageCode } from '../transcript/languages';
import { isVideoId } from '../ids';
import { messageOf } from '../error-text';

import { ConfigError, parseInteger, setting, type Setting } from './setting-kit';
import { SUMMARY_SETTINGS } from './summary-settings';

export { ConfigError, parseInteger, type Setting };

const fail = (message: string): never => {
  throw new ConfigError(message);
};

function parseOneOf<T extends string>(...values: T[]) {
  return (raw: string): T => {
    const v = raw.trim().toLowerCase() as T;
    return values.includes(v) ? v : fail(`must be one of ${values.join(', ')}, got "${raw}"`);
  };
}

/** "10-20" or "15" (seconds, decimals allowed) → [minMs, maxMs]. */
export function parseSecondsRange(raw: string): readonly [number, number] {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?))?\s*$/.exec(raw);
  if (!m) return fail(`must be seconds like "10" or a range like "10-20", got "${raw}"`);
  const lo = Math.round(Number(m[1]) * 1000);
  const hi = m[2] === undefined ? lo : Math.round(Number(m[2]) * 1000);
  if (hi < lo) fail(`range "${raw}" has its maximum below its minimum`);
  return [lo, hi] as const;
}

function parseUrl(protocols: string[]) {
  return (raw: string): string => {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      // Not echoed: a URL setting may carry credentials.
      return fail('must be a URL like https://host[:port][/path]');
    }
    if (!protocols.includes(u.protocol)) fail(`must use ${protocols.join(' or ')}, got "${u.protocol}"`);
    return raw.trim().replace(/\/+$/, '');
  };
}

/**
 * The address readers use: scheme, host, port and path only. Whatever else it held (user:password,
 * a query, a fragment) would be written into every feed's self link.
 */
function parsePublicBaseUrl(raw: string): string | null {
  if (raw.trim() === '') return null;
  const u = new URL(parseUrl(['http:', 'https:'])(raw));
  if (u.username || u.password || u.search || u.hash) fail('must be scheme://host[:port][/path], without user:password, query or fragment');
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

function parseDatabaseUrl(raw: string): string {
  const v = raw.trim();
  if (/^sqlite:.+/.test(v) || /^mongodb(\+srv)?:\/\/.+/.test(v)) return v;
  return fail('must be sqlite:<path>, mongodb://… or mongodb+srv://…, got an unknown scheme');
}

function parseListingInterval(raw: string): { readonly minMs: number; readonly maxMs: number } {
  const [minMs, maxMs] = parseSecondsRange(raw);
  if (minMs < 1000) fail(`the shortest interval must be at least 1 second, got "${raw}"`);
  return { minMs, maxMs };
}

/**
 * Settings the service no longer reads, with what replaced them: accepted (a settings file from an
 * older version still loads) and named in a WARNING at start.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  CRAWL_REFRESH_CRON: 'no cron re-lists every channel any more: each channel is listed by its own upload rhythm within CRAWL_LISTING_INTERVAL',
};

function parseLanguages(raw: string): readonly string[] {
  const langs = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (langs.length === 0 || !langs.every(isLanguageCode)) {
    fail(`must be a comma-separated list of language codes like "en,de", got "${raw}"`);
  }
  return langs;
}

/** "ANDROID:20.10.38,VISIONOS:1.02" → ordered player clients to try. */
function parsePlayerClients(raw: string): readonly { name: string; version: string }[] {
  const clients = raw.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^([A-Z_0-9]+)(?::([\w.]+))?$/.exec(s);
    if (!m) return fail(`entry "${s}" is not NAME or NAME:VERSION`);
    // Every client must have an identity record (client-identities.ts).
    const identity = identityFor(m[1]!, m[2] ?? null);
    if (!identity) return fail(`unknown client "${m[1]}" (known: ${KNOWN_CLIENTS.join(', ')})`);
    return { name: identity.key, version: identity.version };
  });
  if (clients.length === 0) fail('must name at least one client');
  return clients;
}

function parseClientIdentities(raw: string): Readonly<Record<string, IdentityOverride>> {
  try {
    return parseIdentityOverrides(raw);
  } catch (err) {
    return fail(messageOf(err));
  }
}

/**
 * "http://user:pass@host:port, https://host:port" → the outbound proxies, in order. Messages name a
 * bad entry by its position and host only: the value holds credentials.
 */
function parseProxyUrls(raw: string): readonly string[] {
  const urls = raw.split(/[\s,]+/).filter(Boolean);
  urls.forEach((s, i) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      return fail(`entry ${i + 1} is not a URL like http://user:pass@host:port`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(`entry ${i + 1} (${u.hostname}) must use http: or https:, got "${u.protocol}"`);
    if (u.hostname === '' || (u.pathname !== '/' && u.pathname !== '') || u.search !== '') fail(`entry ${i + 1} (${u.hostname}) must be scheme://[user:pass@]host:port and nothing more`);
  });
  return urls;
}

const str = (raw: string): string => raw;

/**
 * Express's `trust proxy`: off, `true`, a hop count, or addresses/subnets/names such as
 * `loopback` or `10.0.0.0/8` (comma-separated). Decides whether X-Forwarded-Proto/Host are believed.
 */
function parseTrustProxy(raw: string): boolean | number | string {
  const v = raw.trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return parseInteger(0, 100)(v);
  if (!/^[\w.:/,\s-]+$/.test(v)) fail(`must be true, false, a hop count, or addresses like "loopback, 10.0.0.0/8", got "${raw}"`);
  return v;
}
const optionalPath = (raw: string): string | null => (raw.trim() === '' ? null : raw.trim());

export const SETTINGS = {
  configFile: setting({
    name: 'CONFIG_FILE', default: 'config/settings.yaml', secret: false, envOnly: true,
    help: 'the settings file (VARIABLE: value per line); environment only; a missing default file is fine, a missing named one is an error', parse: str,
  }),
  port: setting({ name: 'PORT', default: '5000', secret: false, help: 'API listen port; 0 = a free port the system picks, named by the "API listening" line', parse: parseInteger(0, 65535) }),
  host: setting({ name: 'HOST', default: '0.0.0.0', secret: false, help: 'API listen address', parse: str }),
  databaseUrl: setting({
    name: 'DATABASE_URL', default: 'sqlite:data/transcript-feed.db', secret: true,
    help: 'sqlite:<path> (embedded) or mongodb://… / mongodb+srv://… (scale out)', parse: parseDatabaseUrl,
  }),
  securityConfig: setting({ name: 'SECURITY_CONFIG', default: 'config/security.yaml', secret: false, help: 'API key file, reloaded on change', parse: str }),
  platformBaseUrl: setting({
    name: 'PLATFORM_BASE_URL', default: 'https://www.youtube.com', secret: false,
    help: 'where platform requests go (tests point it at the fake platform)', parse: parseUrl(['http:', 'https:']),
  }),
  challengeProxyUrl: setting({
    name: 'CHALLENGE_PROXY_URL', default: '', secret: false,
    help: 'FlareSolverr-compatible endpoint, e.g. http://localhost:8191/v1; empty = none',
    parse: (raw: string) => (raw.trim() === '' ? null : parseUrl(['http:', 'https:'])(raw)),
  }),
  platformProxyUrls: setting({
    name: 'PLATFORM_PROXY_URLS', default: '', secret: true,
    help: 'outbound proxies for every platform request, http://[user:pass@]host:port or https://…, comma-separated; a block moves to the next; empty = direct',
    parse: parseProxyUrls,
  }),
  crawlProfile: setting({ name: 'CRAWL_PROFILE', default: 'gentle', secret: false, help: 'fast (spec configuration A) or gentle (configuration B)', parse: parseOneOf('fast', 'gentle') }),
  crawlBatchSize: setting({ name: 'CRAWL_BATCH_SIZE', default: '', secret: false, help: 'videos per batch; empty = the profile\'s (20 fast, 5 gentle)', parse: (raw: string) => (raw.trim() === '' ? null : parseInteger(1, 100)(raw)) }),
  crawlBatchWait: setting({ name: 'CRAWL_BATCH_WAIT', default: '', secret: false, help: 'seconds between batches, "2" or "60-90"; empty = the profile\'s', parse: (raw: string) => (raw.trim() === '' ? null : parseSecondsRange(raw)) }),
  crawlRequestWait: setting({ name: 'CRAWL_REQUEST_WAIT', default: '', secret: false, help: 'seconds between platform requests, "0" or "10-20"; empty = the profile\'s', parse: (raw: string) => (raw.trim() === '' ? null : parseSecondsRange(raw)) }),
  crawlBlockedWait: setting({ name: 'CRAWL_BLOCKED_WAIT', default: '', secret: false, help: 'seconds to wait after a block, "30-60"; empty = the profile\'s', parse: (raw: string) => (raw.trim() === '' ? null : parseSecondsRange(raw)) }),
  crawlRequestsPerHour: setting({ name: 'CRAWL_REQUESTS_PER_HOUR', default: '500', secret: false, help: 'platform requests the crawler makes in any hour, all channels together; 0 = no limit (the guest quota is ~1,000 page/player requests an hour)', parse: parseInteger(0, 1000000) }),
  crawlNewChannelsPerKeyHour: setting({ name: 'CRAWL_NEW_CHANNELS_PER_KEY_HOUR', default: '20', secret: false, help: 'channels one API key may add as new work for the crawler in any hour (feed requests for channels or playlists the store does not know); beyond it 429 with retry_after, and nothing is registered', parse: parseInteger(1, 100000) }),
  crawlImportChannelsPerKeyHour: setting({ name: 'CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR', default: '100', secret: false, help: 'channels (and playlists) the store does not know that one API key\'s imports give the crawler in any hour, counted with its feed requests\' new channels; the rest wait in the key\'s own queue, shown in the import\'s answer and on the status page', parse: parseInteger(1, 100000) }),
  crawlImportHandlesPerKeyHour: setting({ name: 'CRAWL_IMPORT_HANDLES_PER_KEY_HOUR', default: '25', secret: false, help: 'platform requests the crawler spends in any hour resolving the handles one API key imported (keys take turns); the rest wait for the next hour', parse: parseInteger(1, 100000) }),
  crawlCoolDown: setting({ name: 'CRAWL_COOL_DOWN', default: '1800', secret: false, help: 'seconds without platform requests after "try again later" (the session rate limit lasts up to an hour), "1800" or "1500-2100"', parse: parseSecondsRange }),
  crawlPollSeconds: setting({ name: 'CRAWL_POLL_SECONDS', default: '5', secret: false, help: 'how often the crawler looks for due work', parse: parseInteger(1, 3600) }),
  crawlListingInterval: setting({ name: 'CRAWL_LISTING_INTERVAL', default: '1800-86400', secret: false, help: 'seconds between two listings of a polled channel, "min-max": each channel\'s own upload rhythm picks within them (30 min to 24 h)', parse: parseListingInterval }),
  crawlLeaseSeconds: setting({ name: 'CRAWL_LEASE_SECONDS', default: '300', secret: false, help: 'how long a claimed channel stays reserved without renewal', parse: parseInteger(10, 86400) }),
  crawlerId: setting({ name: 'CRAWLER_ID', default: '', secret: false, help: 'lease owner name, unique per running crawler (under PM2 :crawler-<instance> is appended); empty = hostname-<machine id>:crawler-<PM2 instance> under PM2 (a restart takes its own leases back at once), else hostname-<machine id>:pid', parse: str }),
  transcriptLanguages: setting({ name: 'TRANSCRIPT_LANGUAGES', default: 'en', secret: false, help: 'preferred caption languages, in order', parse: parseLanguages }),
  playerClients: setting({ name: 'PLAYER_CLIENTS', default: DEFAULT_PLAYER_CLIENTS, secret: false, help: 'InnerTube player clients asked in order, NAME or NAME:VERSION (VISIONOS, ANDROID, TVHTML5, WEB_EMBEDDED_PLAYER, WEB)', parse: parsePlayerClients }),
  playerClientIdentities: setting({ name: 'PLAYER_CLIENT_IDENTITIES', default: '', secret: false, help: 'JSON overrides of the built-in client identities, e.g. {"ANDROID":{"userAgent":"…/{version} …","context":{"osVersion":"16"}}}; empty = built-in', parse: parseClientIdentities }),
  platformCheckVideo: setting({
    name: 'PLATFORM_CHECK_VIDEO', default: 'M4gD1WSo5mA', secret: false,
    help: 'the video `npm run doctor` and POST /admin/platform-check ask every player client about: a long-lived public video with manual captions',
    parse: (raw) => (isVideoId(raw) ? raw : fail('must be an 11-character video id')),
  }),
  platformTimeoutMs: setting({ name: 'PLATFORM_TIMEOUT_MS', default: '20000', secret: false, help: 'timeout of one platform request', parse: parseInteger(100, 600000) }),
  platformTimedTextTimeoutMs: setting({ name: 'PLATFORM_TIMED_TEXT_TIMEOUT_MS', default: '5000', secret: false, help: 'longest wait for a timed-text answer (at most PLATFORM_TIMEOUT_MS); beyond it the platform is stalling, a refusal', parse: parseInteger(100, 600000) }),
  browserExecutablePath: setting({ name: 'BROWSER_EXECUTABLE_PATH', default: '', secret: false, help: 'Chromium for the browser fallback; empty = auto-detect, "off" = disabled', parse: optionalPath }),
  publicBaseUrl: setting({
    name: 'PUBLIC_BASE_URL', default: '', secret: false,
    help: 'the address readers use, e.g. https://feeds.example.org: feeds\' self links use it and ignore Host / X-Forwarded-Host; empty = taken from each request',
    parse: parsePublicBaseUrl,
  }),
  playerEmbedUrl: setting({
    name: 'PLAYER_EMBED_URL', default: 'https://www.youtube.com/embed', secret: false,
    help: 'the platform\'s embedded player, <PLAYER_EMBED_URL>/<video id>: the web app\'s transcript page shows it and its time links seek it; the only origin the page may frame',
    parse: parseUrl(['http:', 'https:']),
  }),
  webSubHubUrl: setting({
    name: 'WEBSUB_HUB_URL', default: 'https://pubsubhubbub.appspot.com/subscribe', secret: false,
    help: 'the platform\'s WebSub hub; push is on when PUBLIC_BASE_URL is set too (the hub calls <PUBLIC_BASE_URL>/websub/<token>); empty = push off',
    parse: (raw: string) => (raw.trim() === '' ? null : parseUrl(['http:', 'https:'])(raw)),
  }),
  webSubSafetyPoll: setting({ name: 'WEBSUB_SAFETY_POLL', default: '86400', secret: false, help: 'seconds between two safety listings of a channel whose push is on (hubs lose notifications; premieres are not notified again)', parse: parseInteger(3600, 604800) }),
  trustProxy: setting({ name: 'TRUST_PROXY', default: '', secret: false, help: 'reverse proxies whose X-Forwarded-* headers are believed (Express trust proxy): empty = none', parse: parseTrustProxy }),
  apiStoreBusyTimeoutMs: setting({
    name: 'API_STORE_BUSY_TIMEOUT_MS', default: '', secret: false,
    help: 'the most an API request waits for the store before it fails with 500: SQLite, for another process\'s write lock (the wait blocks the API process; the crawler waits 5000); MongoDB, for any answer while the server is unreachable or failing over; empty = 100 on SQLite, 1000 on MongoDB',
    parse: (raw: string) => (raw.trim() === '' ? null : parseInteger(0, 5000)(raw)),
  }),
  defaultRateLimit: setting({ name: 'DEFAULT_RATE_LIMIT', default: '60', secret: false, help: 'requests per minute for a key whose rate_limit is omitted', parse: parseInteger(1, 1000000) }),
  // API hardening (README "Hardening"): connection bound, timeouts, render concurrency.
  apiMaxConnections: setting({ name: 'API_MAX_CONNECTIONS', default: '', secret: false, help: 'open connections the API accepts at once; empty = derived from the open-file limit (80% of it, minus a reserve)', parse: (raw: string) => (raw.trim() === '' ? null : parseInteger(1, 1000000)(raw)) }),
  apiHeadersTimeoutMs: setting({ name: 'API_HEADERS_TIMEOUT_MS', default: '10000', secret: false, help: 'time a client has to send the request headers', parse: parseInteger(100, 600000) }),
  apiRequestTimeoutMs: setting({ name: 'API_REQUEST_TIMEOUT_MS', default: '30000', secret: false, help: 'time a client has to send the whole request', parse: parseInteger(100, 600000) }),
  apiSendTimeoutMs: setting({ name: 'API_SEND_TIMEOUT_MS', default: '30000', secret: false, help: 'an answer its client has not taken whole this long after the request is cut (a client reading too slowly or not at all) and logged as cut', parse: parseInteger(100, 3600000) }),
  apiCacheBytes: setting({ name: 'API_CACHE_BYTES', default: '33554432', secret: false, help: 'byte budget of the API process\'s one in-process cache (rendered feeds and their gzip/br forms, validators, feed states); a feed larger than it is rendered every time', parse: parseInteger(1048576, 4294967296) }),
  apiMaxConnectionsPerKey: setting({ name: 'API_MAX_CONNECTIONS_PER_KEY', default: '6', secret: false, help: 'answers one API key may have in progress at once in one API process (until its client has taken each whole); beyond it a request gets 429 at once', parse: parseInteger(1, 10000) }),
  apiHandleLookupsPerKeyMinute: setting({ name: 'API_HANDLE_LOOKUPS_PER_KEY_MINUTE', default: '10', secret: false, help: 'new @handles one API key may have looked up on the platform per minute; beyond it 429 with retry_after (lookups also share CRAWL_REQUESTS_PER_HOUR and stop during the platform cool-down)', parse: parseInteger(1, 10000) }),
  apiMaxRenders: setting({ name: 'API_MAX_RENDERS', default: '2', secret: false, help: 'feeds listed and rendered at once; further cache misses wait their turn', parse: parseInteger(1, 64) }),
  apiRenderBytes: setting({ name: 'API_RENDER_BYTES', default: '67108864', secret: false, help: 'memory the channel feeds being listed and rendered may hold together (estimated from each feed\'s size as last listed); further cache misses wait their turn, and a feed larger than it renders alone', parse: parseInteger(1048576, 17179869184) }),
  apiMaxSearches: setting({ name: 'API_MAX_SEARCHES', default: '2', secret: false, help: 'GET /search searches running at once in one API process; further searches wait their turn (within their time budget)', parse: parseInteger(1, 64) }),
  apiMaxSearchesPerKey: setting({ name: 'API_MAX_SEARCHES_PER_KEY', default: '1', secret: false, help: 'GET /search searches one API key may have running at once in one API process; its further searches wait while other keys\' searches go first', parse: parseInteger(1, 64) }),
  apiSearchBudgetMs: setting({ name: 'API_SEARCH_BUDGET_MS', default: '5000', secret: false, help: 'the most one GET /search may take from its arrival, its wait for a turn included; past it 429 with retry_after, and the same search answers the same for a minute', parse: parseInteger(1, 600000) }),
  // Metrics (docs/operations.md "Metrics").
  metricsLoopbackOnly: setting({
    name: 'METRICS_LOOPBACK_ONLY', default: 'false', secret: false,
    help: 'true: the API\'s GET /metrics answers without a key, but only to loopback clients (a Prometheus on the same host); false: an admin key is needed',
    parse: (raw: string) => parseOneOf('true', 'false')(raw) === 'true',
  }),
  crawlerMetricsPort: setting({ name: 'CRAWLER_METRICS_PORT', default: '', secret: false, help: 'port of the crawler\'s own GET /metrics; empty = off; 0 = a free port the system picks, named by the "crawler metrics at" line', parse: (raw: string) => (raw.trim() === '' ? null : parseInteger(0, 65535)(raw)) }),
  crawlerMetricsHost: setting({ name: 'CRAWLER_METRICS_HOST', default: '127.0.0.1', secret: false, help: 'address the crawler\'s metrics listener binds to (it needs no key: keep it on loopback or a private network)', parse: (raw: string) => (/^[A-Za-z0-9.:-]{1,255}$/.test(raw.trim()) ? raw.trim() : fail(`must be a host name or IP address, got "${raw}"`)) }),
  logLevel: setting({ name: 'LOG_LEVEL', default: 'info', secret: false, help: 'debug, info, warning or error', parse: parseOneOf('debug', 'info', 'warning', 'error') }),
  ...SUMMARY_SETTINGS,
  logFormat: setting({ name: 'LOG_FORMAT', default: '', secret: false, help: 'pretty or json; empty = pretty on a terminal, else json', parse: (raw: string) => (raw.trim() === '' ? null : parseOneOf('pretty', 'json')(raw)) }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
type ParsedOf<S> = S extends Setting<infer T> ? T : never;
export type RawSettings = { readonly [K in SettingKey]: ParsedOf<(typeof SETTINGS)[K]> };
