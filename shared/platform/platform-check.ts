// "Which player clients can fetch transcripts from this address right now?" One known video is asked
// for with every player client the crawler knows, each in a fresh session exactly as the crawler
// would ask (visitor_id, the masked player call, the timed text of the track it would choose), so
// that what this reports is what the crawler would meet. Used by `npm run doctor` and, through the
// store, by the crawler for POST /admin/platform-check (the API never asks the platform).

import type { ClientIdentity } from '../config/client-identities';
import type { PlatformHttp } from './http-client';
import { fetchPlayer } from './player';
import { fetchSpokenCues } from './timed-text-fetch';
import { captionTracks, chooseTrack, plainTimedTextUrl } from './tracks';
import { PlatformError } from './types';
import { VisitorSessions } from './visitor';
import { adviceFor, type LeftOutClient } from './client-exclusions';
import { fetchEmbedFlags } from './embed-page';
import { asString, dig } from './page-data';

export interface ClientCheck {
  client: string;
  version: string;
  /** In PLAYER_CLIENTS: the crawler asks it. */
  configured: boolean;
  /** A visitor_id session was had for it. */
  visitorData: boolean;
  /** The player's playabilityStatus.status, or what stopped the call (`HTTP 429`, `network error`…). */
  playability: string;
  captionTracks: number;
  /** Tracks whose URL needs a proof-of-origin token (exp=xpe/xpv). */
  tokenBound: number;
  /** Cues read from the chosen track; null when no timed text was fetched. */
  cues: number | null;
  ms: number;
  /** It gave a transcript. */
  works: boolean;
  /** One line: what happened and what it means. */
  verdict: string;
}

export interface PlatformCheckReport {
  videoId: string;
  checkedAt: string;
  baseUrl: string;
  /** Outbound proxies in use (0 = direct). */
  proxies: number;
  clients: ClientCheck[];
  /** Clients that gave a transcript, in the order checked. */
  working: string[];
  /** Any client works. */
  ok: boolean;
  /**
   * Clients the asking process has left out after answers about themselves (a retired version, a
   * client's own fault; client-exclusions.ts). The crawler's own list for /admin/platform-check;
   * empty from `npm run doctor`, whose rows say the same of each client it asks.
   */
  leftOut: LeftOutEntry[];
  /** One line for the operator: what works, and what to change when nothing does. */
  verdict: string;
}

/** A left-out client as the stored report carries it (times as ISO text). */
export type LeftOutEntry = Omit<LeftOutClient, 'since' | 'retryAt'> & { since: string; retryAt: string | null };

export interface CheckTarget {
  http: PlatformHttp;
  /** Every known client, configured ones at their configured version. */
  identities: readonly ClientIdentity[];
  /** Names in PLAYER_CLIENTS, in order. */
  configured: readonly string[];
  languages: readonly string[];
  proxies: number;
  now?: () => Date;
  /** The asking process's left-out clients (the crawler's); none when left out. */
  leftOut?: readonly LeftOutClient[];
}

const elapsed = (t0: number): number => Math.round(performance.now() - t0);

async function checkClient(t: CheckTarget, identity: ClientIdentity, videoId: string): Promise<ClientCheck> {
  const t0 = performance.now();
  const row: ClientCheck = {
    client: identity.key, version: identity.version, configured: t.configured.includes(identity.key),
    visitorData: false, playability: '-', captionTracks: 0, tokenBound: 0, cues: null, ms: 0, works: false, verdict: '',
  };
  const done = (verdict: string): ClientCheck => ({ ...row, ms: elapsed(t0), verdict });
  // A session of its own: a visitorData cached from an earlier check would hide a broken visitor_id.
  const sessions = new VisitorSessions(t.http);
  let visitorData: string | null = null;
  let visitorFailure: string | null = null;
  try {
    visitorData = await sessions.get(identity);
    row.visitorData = true;
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    visitorFailure = err.reason;
  }
  const withoutVisitor = visitorFailure === null ? '' : ` (asked without a visitorData: ${visitorFailure})`;
  let player: unknown;
  try {
    const encryptedHostFlags = identity.name === 'WEB_EMBEDDED_PLAYER' ? await fetchEmbedFlags(t.http, videoId) : null;
    const answer = await fetchPlayer(t.http, videoId, identity, { visitorData, encryptedHostFlags });
    player = answer.json;
    row.playability = asString(dig(player, 'playabilityStatus', 'status')) ?? 'none';
    const tracks = captionTracks(player);
    row.captionTracks = tracks.length;
    row.tokenBound = tracks.filter((x) => x.needsToken).length;
    if (answer.verdict.outcome !== 'ok' && answer.verdict.outcome !== 'consent' && answer.verdict.signal === 'client_fault') {
      return done(`${CLIENT_FAULT}: ${answer.verdict.reason}; ${adviceFor(identity, 'client_fault')}`);
    }
    if (answer.verdict.outcome !== 'ok') return done(`${answer.verdict.outcome}: ${answer.verdict.reason}${withoutVisitor}`);
    const track = chooseTrack(tracks, t.languages);
    if (!track) return done(`every caption URL needs a proof-of-origin token (exp=xpe/xpv): only the browser fallback can fetch these${withoutVisitor}`);
    const cues = await fetchSpokenCues(t.http, videoId, plainTimedTextUrl(track.baseUrl), track.languageCode);
    row.cues = cues.length;
    row.works = true;
    return done(`fetches transcripts (${track.languageCode}, ${track.kind}, ${cues.length} cues)`);
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.signal === 'client_retired') {
      row.playability = 'retired';
      return done(`${RETIRED}: ${err.reason}; ${adviceFor(identity, 'retired')}`);
    }
    if (row.playability === '-') row.playability = err.outcome;
    return done(`${err.outcome}: ${err.reason}${withoutVisitor}`);
  }
}

/**
 * The network failure that stopped a row (`network error (ENOTFOUND)`, `timed out after 20000 ms`,
 * as http-client.ts words them), or null when the platform answered: only the row's own reason
 * counts, not a visitor_id failure it went on without.
 */
export function networkFailureOf(row: Pick<ClientCheck, 'verdict' | 'works'>): string | null {
  if (row.works || !row.verdict.startsWith('transient: ')) return null;
  const own = row.verdict.split(' (asked without a visitorData')[0]!;
  return /network error \([^)]*\)|timed out after \d+ ms|no outbound proxy could be used \(.*\)$/.exec(own)?.[0] ?? null;
}

/** What kind of network failure an error names, for the operator: DNS, refused, timeout, TLS. */
function networkKind(error: string): string {
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return 'DNS: the host name could not be resolved';
  if (/ECONNREFUSED/.test(error)) return 'the connection was refused';
  if (/timed out|ETIMEDOUT/.test(error)) return 'no answer in time';
  if (/CERT|TLS|SSL|SELF_SIGNED/i.test(error)) return 'TLS: the secure connection failed';
  if (/EHOSTUNREACH|ENETUNREACH|ENETDOWN/.test(error)) return 'no route to the host';
  if (/ECONNRESET|EPIPE|UND_ERR_SOCKET/.test(error)) return 'the connection was cut';
  if (/proxy/.test(error)) return 'no outbound proxy could be used';
  return 'the network failed';
}

/** How a row's verdict starts for a client the crawler would leave out (client-exclusions.ts). */
const RETIRED = 'retired version';
const CLIENT_FAULT = "the client's own fault";
const leftOutRow = (r: ClientCheck): boolean => r.verdict.startsWith(RETIRED) || r.verdict.startsWith(CLIENT_FAULT);

/** The operator's one line: which clients to use, or what to change when none can; configured clients left out are named first. */
export function overallVerdict(rows: readonly ClientCheck[], configured: readonly string[], baseUrl?: string): string {
  const network = rows.map(networkFailureOf);
  if (rows.length > 0 && network.every((n) => n !== null)) {
    // Nothing was learnt about any client: the network is the finding, with the exact errors.
    const errors = [...new Set(network)].map((e) => `${networkKind(e!)} (${e})`);
    return `the platform${baseUrl ? ` at ${baseUrl}` : ''} could not be reached: every client failed for a network reason, ${errors.join('; ')}; check this machine's network connection, DNS, firewall or outbound proxy (PLATFORM_BASE_URL, PLATFORM_PROXY_URLS) before the player clients`;
  }
  const out = rows.filter((r) => r.configured && leftOutRow(r));
  const named = out.map((r) => `${r.client} ${r.version} (${r.verdict.startsWith(RETIRED) ? 'a retired version: set a newer one in PLAYER_CLIENTS or drop it' : 'its own fault: drop it from PLAYER_CLIENTS'})`);
  const rest = verdictOfWorking(rows, configured);
  return named.length === 0 ? rest : `configured player clients the crawler leaves out: ${named.join('; ')}. ${rest}`;
}

function verdictOfWorking(rows: readonly ClientCheck[], configured: readonly string[]): string {
  const working = rows.filter((r) => r.works).map((r) => r.client);
  if (working.length === 0) {
    const blocked = rows.filter((r) => /^blocked/.test(r.verdict)).length;
    const tokens = rows.filter((r) => r.tokenBound > 0 && r.tokenBound === r.captionTracks).length;
    const advice: string[] = [];
    if (blocked > 0) advice.push('this address is refused: set PLATFORM_PROXY_URLS (another egress IP) or CHALLENGE_PROXY_URL, or wait out the block');
    if (tokens > 0) advice.push('caption URLs need a token: keep BROWSER_EXECUTABLE_PATH pointing at Chromium so the browser fallback fetches them');
    if (rows.some((r) => !r.visitorData)) advice.push('visitor_id gave no session for some clients');
    advice.push('check PLAYER_CLIENTS and PLAYER_CLIENT_IDENTITIES against the maintained clients (docs/crawler.md)');
    return `no player client can fetch transcripts from this address: ${advice.join('; ')}`;
  }
  const useful = working.filter((c) => configured.includes(c));
  if (useful.length === 0) return `the configured clients (${configured.join(', ')}) cannot fetch transcripts, but ${working.join(', ')} can: put ${working[0]} first in PLAYER_CLIENTS`;
  const first = configured[0];
  if (first !== undefined && !working.includes(first)) return `${useful.join(', ')} can fetch transcripts; ${first}, asked first, cannot: put ${useful[0]} first in PLAYER_CLIENTS to save a request per video`;
  return `${working.join(', ')} can fetch transcripts from this address`;
}

/** Every client in turn (never at once: a burst would look like what gets an address refused). */
export async function checkPlatform(t: CheckTarget, videoId: string): Promise<PlatformCheckReport> {
  const clients: ClientCheck[] = [];
  for (const identity of t.identities) clients.push(await checkClient(t, identity, videoId));
  const working = clients.filter((c) => c.works).map((c) => c.client);
  return {
    videoId, checkedAt: (t.now?.() ?? new Date()).toISOString(), baseUrl: t.http.baseUrl, proxies: t.proxies,
    clients, working, ok: working.length > 0, verdict: overallVerdict(clients, t.configured, t.http.baseUrl), leftOut: (t.leftOut ?? []).map((c) => ({ ...c, since: c.since.toISOString(), retryAt: c.retryAt?.toISOString() ?? null })),
  };
}

/** The report as the fixed-width table `npm run doctor` prints. */
export function reportTable(r: PlatformCheckReport): string {
  const head = ['client', 'version', 'asked', 'visitorData', 'playability', 'tracks', 'token-bound', 'timed text', 'ms', 'verdict'];
  const rows = r.clients.map((c) => [
    c.client, c.version, c.configured ? 'yes' : 'no', c.visitorData ? 'yes' : 'no', c.playability, String(c.captionTracks),
    String(c.tokenBound), c.cues === null ? 'no' : `${c.cues} cues`, String(c.ms), c.verdict,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.slice(0).map((row) => (i === head.length - 1 ? 0 : row[i]!.length))));
  const line = (cells: string[]): string => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  return [
    `platform check of video ${r.videoId} at ${r.baseUrl} (${r.proxies === 0 ? 'direct' : `${r.proxies} outbound proxies`}), ${r.checkedAt}`,
    line(head),
    ...rows.map(line),
    '',
    ...(r.leftOut ?? []).map((c) => `left out by the crawler: ${c.client} ${c.version} since ${c.since} (${c.reason}); ${c.advice}`),
    `verdict: ${r.verdict}`,
  ].join('\n');
}
