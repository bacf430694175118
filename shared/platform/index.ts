// The platform client as the API and the crawler get it: createPlatformClient() wires the HTTP
// client, the session (cookies + pinned user agent) and the flows behind the PlatformClient
// interface; createChallengeProxy() builds the proxy unblocker. The browser unblocker lives in
// crawler/browser-fallback.ts so that only the crawler ever loads Playwright.

import type { Config } from '../config/load';
import { isVideoId } from '../ids';
import { categoryLogger, type Logger } from '../logger';
import { ChallengeProxy } from './challenge-proxy';
import { CookieJar, DEFAULT_PIN_MS, type SessionInput, type SessionSink } from './cookie-jar';
import { PlatformHttp, type PlatformObserver } from './http-client';
import { createProxyRotation, type ProxyRotation } from './proxies';
import { listFeed, listVideos, type ListVideosOptions } from './listing';
import { listPlaylist } from './playlist';
import { resolveHandle } from './resolve';
import { identityFor, KNOWN_CLIENTS, type ClientIdentity } from '../config/client-identities';
import { fetchTranscript } from './transcript';
import { VisitorSessions } from './visitor';
import { ClientExclusions, type LeftOutClient } from './client-exclusions';
import { PlatformError, type ChannelListing, type PlatformClient, type PlaylistListing, type Unblocker } from './types';
import type { Transcript } from '../transcript/types';
import { fetchPublishedAt } from './publish-date';
import { checkPlatform, type PlatformCheckReport } from './platform-check';

export { AllClientsRefusedError, PlatformError, PlaylistUnavailableError, TokenRequiredError } from './types';
export type { ChannelListing, ListedVideo, PlatformClient, PlatformOutcome, PlaylistListing, Unblocker } from './types';
export type { AdoptedCookie, SessionInput, SessionSink } from './cookie-jar';
export type { LeftOutClient } from './client-exclusions';
export { watchPath } from '../video-links';

/** The settings the platform client reads. */
export type PlatformConfig = Pick<Config, 'platformBaseUrl' | 'transcriptLanguages' | 'playerClients' | 'platformTimeoutMs'>
  & Partial<Pick<Config, 'platformProxyUrls' | 'playerClientIdentities' | 'platformTimedTextTimeoutMs'>>;

export interface PlatformClientOptions {
  /** [0, 1) source for the user-agent rotation (tests make it deterministic). */
  random?: () => number;
  /** Clock for cookie expiry and the user-agent pin. */
  now?: () => number;
  maxBodyBytes?: number;
  /** How long a harvested user agent overrides rotation when its cookies state no expiry. */
  userAgentPinMs?: number;
  /** Send SOCS=CAI from the first request (default true; tests of the consent wall turn it off). */
  consentUpFront?: boolean;
  /** Told of every request (the crawler's metrics). */
  observer?: PlatformObserver;
}

/** PlatformClient plus what the crawler needs to run the blocked path. */
export interface PlatformSession extends PlatformClient, SessionSink {
  readonly baseUrl: string;
  readonly jar: CookieJar;
  /** Platform requests sent by this client so far. */
  requestCount(): number;
  /** The outbound proxies (PLATFORM_PROXY_URLS) the blocked path rotates; null when direct. */
  readonly egress: ProxyRotation | null;
  /** Asks `videoId` of every known player client, each in a fresh session (platform-check.ts). */
  checkPlatform(videoId: string): Promise<PlatformCheckReport>;
  /** Player clients this process has left out after answers about themselves (client-exclusions.ts). */
  leftOutClients(): LeftOutClient[];
}

export function createPlatformClient(config: PlatformConfig, logger: Logger, opts: PlatformClientOptions = {}): PlatformSession {
  const base = new URL(config.platformBaseUrl);
  const jar = new CookieJar(base.hostname, opts.now);
  // Sending the consent cookie up front avoids most consent walls (docs/crawler.md §4).
  if (opts.consentUpFront !== false) jar.set('SOCS', 'CAI');
  const egress = createProxyRotation(config.platformProxyUrls, categoryLogger(logger, 'platform.egress'));
  const http = new PlatformHttp({
    baseUrl: config.platformBaseUrl,
    timeoutMs: config.platformTimeoutMs,
    timedTextTimeoutMs: config.platformTimedTextTimeoutMs,
    jar,
    logger: categoryLogger(logger, 'platform.http'),
    random: opts.random,
    maxBodyBytes: opts.maxBodyBytes,
    proxies: egress,
    observer: opts.observer,
  });
  const log = categoryLogger(logger, 'platform');
  const clients = playerIdentities(config);
  const kidsFallback = kidsFallbackIdentities(config);
  const visitors = new VisitorSessions(http, opts.now);
  const exclusions = new ClientExclusions(log, opts.now);
  const pinMs = opts.userAgentPinMs ?? DEFAULT_PIN_MS;
  return {
    baseUrl: http.baseUrl,
    jar,
    egress,
    requestCount: () => http.requestCount,
    resolveHandle: (handle: string): Promise<string | null> => resolveHandle(http, handle),
    listFeed: (channelId: string): Promise<ChannelListing | null> => listFeed(http, channelId, log),
    listVideos: (channelId: string, limit: number, feed?: ChannelListing | null, options?: ListVideosOptions): Promise<ChannelListing> =>
      listVideos(http, channelId, limit, log, feed, options),
    listPlaylist: (playlistId: string, limit: number): Promise<PlaylistListing> => listPlaylist(http, playlistId, limit, log),
    fetchPublishedAt: async (videoId: string): Promise<Date | null> => fetchPublishedAt(http, checkedVideoId(videoId, log)),
    fetchTranscript: async (videoId: string, otherLanguages: readonly string[] = []): Promise<Transcript> =>
      fetchTranscript(http, checkedVideoId(videoId, log), { languages: config.transcriptLanguages, clients, visitors, log, otherLanguages, exclusions, kidsFallback }),
    checkPlatform: (videoId: string): Promise<PlatformCheckReport> =>
      checkPlatform({
        http, identities: knownIdentities(config), configured: clients.map((c) => c.key),
        languages: config.transcriptLanguages, proxies: egress?.size ?? 0, now: opts.now && (() => new Date(opts.now!())),
        leftOut: exclusions.list(),
      }, checkedVideoId(videoId, log)),
    leftOutClients: () => exclusions.list(),
    adoptSession(session: SessionInput): void {
      jar.adopt(session, pinMs);
      log.info({ cookies: session.cookies.length, pinnedUserAgent: session.userAgent !== null }, 'adopted a harvested session');
    },
  };
}

/** One identity record per configured player client (PLAYER_CLIENTS, PLAYER_CLIENT_IDENTITIES). */
export function playerIdentities(config: Pick<PlatformConfig, 'playerClients' | 'playerClientIdentities'>): ClientIdentity[] {
  return config.playerClients.map((c) => {
    const identity = identityFor(c.name, c.version, config.playerClientIdentities ?? {});
    if (!identity) throw new Error(`PLAYER_CLIENTS: no identity record for client "${c.name}"`);
    return identity;
  });
}

/**
 * The made-for-kids fallback (docs/crawler.md §3, yt-dlp's): the embedded player, then the
 * downgraded TV client, at their configured version when PLAYER_CLIENTS names them.
 */
export const KIDS_FALLBACK_CLIENTS = ['WEB_EMBEDDED_PLAYER', 'TVHTML5_DOWNGRADED'] as const;

export function kidsFallbackIdentities(config: Pick<PlatformConfig, 'playerClients' | 'playerClientIdentities'>): ClientIdentity[] {
  const configured = playerIdentities(config);
  return KIDS_FALLBACK_CLIENTS.map((key) => configured.find((c) => c.key === key) ?? identityFor(key, null, config.playerClientIdentities ?? {})!);
}

/** Every client the crawler knows: the configured ones at their configured version first, then the rest. */
export function knownIdentities(config: Pick<PlatformConfig, 'playerClients' | 'playerClientIdentities'>): ClientIdentity[] {
  const configured = playerIdentities(config);
  const others = KNOWN_CLIENTS.filter((key) => !configured.some((c) => c.key === key))
    .map((key) => identityFor(key, null, config.playerClientIdentities ?? {})!);
  return [...configured, ...others];
}

/** Only a real video id is ever put into a platform request; anything else is refused and logged. */
function checkedVideoId(videoId: string, log: Logger): string {
  if (isVideoId(videoId)) return videoId;
  log.warning({ videoId: videoId.slice(0, 40) }, 'not a video id; no platform request made');
  throw new PlatformError('unavailable', 'not a video id');
}

/** The challenge-solving proxy unblocker, or null when CHALLENGE_PROXY_URL is not set. */
export function createChallengeProxy(
  config: Pick<Config, 'challengeProxyUrl' | 'platformBaseUrl'>,
  sink: SessionSink,
  logger: Logger,
): Unblocker | null {
  if (!config.challengeProxyUrl) return null;
  return new ChallengeProxy({
    proxyUrl: config.challengeProxyUrl,
    baseUrl: config.platformBaseUrl,
    sink,
    logger: categoryLogger(logger, 'platform.proxy'),
  });
}
