// Who each InnerTube client says it is (docs/crawler.md §3). An app client (ANDROID, VISIONOS, the
// TV app) is presented as that app: its own User-Agent, repeated in `context.client.userAgent`, its
// OS/device fields, and none of a browser's headers; a browser client (WEB, the embedded player)
// goes out with the rotating desktop browser identities instead. The records are the requests the
// maintained clients sent as of August 2026 (NewPipe's recorded June 2026 traffic, yt-dlp 2026.08.19,
// YouTube.js; each record's date and source are in docs/crawler.md §3 "Client identities"); they age,
// so PLAYER_CLIENTS picks the clients and their versions and PLAYER_CLIENT_IDENTITIES can replace any
// field without a release. `{version}` in a user agent stands for the configured version.

/** `app`: the app's own headers; `browser`: the rotating desktop browser header set. */
export type Presentation = 'app' | 'browser';

export interface ClientIdentity {
  /**
   * The record's name in PLAYER_CLIENTS and PLAYER_CLIENT_IDENTITIES, in logs and the doctor's
   * table: the client name, or a variant of it (`TVHTML5_DOWNGRADED` is TVHTML5 at an old version).
   */
  readonly key: string;
  /** `context.client.clientName`. */
  readonly name: string;
  /** `context.client.clientVersion`. */
  readonly version: string;
  /** X-YouTube-Client-Name number. */
  readonly id: number;
  readonly presents: Presentation;
  /** The app's User-Agent (also sent as `context.client.userAgent`); null for browser clients. */
  readonly userAgent: string | null;
  /** Further `context.client` fields: platform, OS and device. */
  readonly context: Readonly<Record<string, string | number>>;
  /** Extra top-level `context` members (the embedded player names the page that embeds it). */
  readonly thirdParty?: Readonly<Record<string, string>>;
}

/** What PLAYER_CLIENT_IDENTITIES may replace for one client. */
export type IdentityOverride = Partial<Pick<ClientIdentity, 'userAgent' | 'context' | 'id'>>;

type Template = Omit<ClientIdentity, 'version' | 'key'> & { readonly key?: string; readonly defaultVersion: string };

/**
 * The built-in records, each dated with its source (docs/crawler.md §3 "Client identities" has the
 * same table with the references). ANDROID and VISIONOS are byte for byte what NewPipe sent in June
 * 2026 (the recorded requests in test/fixtures/platform-captures/requests-2026.json). TVHTML5, its
 * downgraded variant and WEB_EMBEDDED_PLAYER are yt-dlp 2026.08.19's `tv`, `tv_downgraded` and
 * `web_embedded`. Retired versions (HTTP 400 FAILED_PRECONDITION) seen by 2026-09: ANDROID 19.44.38,
 * VISIONOS 0.1.
 */
const TEMPLATES: readonly Template[] = [
  // 2026-07/08, NewPipe's June 2026 traffic and yt-dlp 2026.08.19 `visionos` (its first signed-out
  // default since 2026-07-20), YouTube.js 2026-08: 1.02 in all three. yt-dlp sends RealityDevice17,1 /
  // osVersion 26.5.23O471 with a macOS Safari agent (PLAYER_CLIENT_IDENTITIES switches to it).
  // Cannot play made-for-kids videos (UNPLAYABLE, since July 2026 also ERROR).
  {
    name: 'VISIONOS', defaultVersion: '1.02', id: 101, presents: 'app',
    userAgent: 'com.google.visionos.youtube/{version}(RealityDevice14,1; U; CPU visionOS 25_6_0 like Mac OS X; GB)',
    context: { clientScreen: 'WATCH', platform: 'MOBILE', deviceMake: 'Apple', deviceModel: 'RealityDevice14,1', osName: 'visionOS', osVersion: '25.6.0.23O471' },
  },
  // 2026-06/08, NewPipe's June 2026 traffic and YouTube.js 2026-08: 21.03.36 (yt-dlp 2026.08.19:
  // 21.26.364, not a default: GVS PO token). NewPipe removed it in PR #1529 (opened 2026-08-06);
  // clean caption URLs in a September 2026 report. Not a default any more; one setting away.
  {
    name: 'ANDROID', defaultVersion: '21.03.36', id: 3, presents: 'app',
    userAgent: 'com.google.android.youtube/{version} (Linux; U; Android 15; GB) gzip',
    context: { clientScreen: 'WATCH', platform: 'MOBILE', osName: 'Android', osVersion: '16', androidSdkVersion: 36 },
  },
  // 2026-08, yt-dlp 2026.08.19 `web_embedded` (pull request #16177, March 2026, for embedUrl):
  // embeddable videos only, no token; yt-dlp's first made-for-kids fallback, asked after
  // /embed/<id>?html5=1 for its encryptedHostFlags. NewPipe removed it (PR #1529).
  {
    name: 'WEB_EMBEDDED_PLAYER', defaultVersion: '2.20260708.00.00', id: 56, presents: 'browser', userAgent: null,
    context: { clientScreen: 'EMBED', platform: 'DESKTOP' },
    // The page that embeds the player. Since March 2026 the platform refuses an embed whose host
    // page is the platform itself ("Error code: 152"); yt-dlp names a common embedding site, and
    // any page outside the platform serves.
    thirdParty: { embedUrl: 'https://www.reddit.com/' },
  },
  // 2026-08 / 2026-09, yt-dlp 2026.08.19 `tv` (YouTube.js: 7.20260311.12.00): out of yt-dlp's
  // default lists; no caption tracks without a guest session (September 2026 report); "The page
  // needs to be reloaded." (yt-dlp #17389, 2026-08-22) is left out as the client's own fault.
  {
    name: 'TVHTML5', defaultVersion: '7.20260707.07.00', id: 7, presents: 'app',
    userAgent: 'Mozilla/5.0 (ChromiumStylePlatform) Cobalt/25.lts.30.1034943-gold (unlike Gecko), Unknown_TV_Unknown_0/Unknown (Unknown, Unknown)',
    context: { clientScreen: 'WATCH', platform: 'TV' },
  },
  // 2026-08, yt-dlp 2026.08.19 `tv_downgraded`: its last made-for-kids fallback, after the embedded player.
  {
    key: 'TVHTML5_DOWNGRADED', name: 'TVHTML5', defaultVersion: '5.20260707', id: 7, presents: 'app',
    userAgent: 'Mozilla/5.0 (ChromiumStylePlatform) Cobalt/Version',
    context: { clientScreen: 'WATCH', platform: 'TV' },
  },
  // 2026-08, yt-dlp 2026.08.19 `web` (its second signed-out default): caption URLs need a PO token,
  // so it gives transcripts only through the browser fallback; also resolve, browse and dates.
  {
    name: 'WEB', defaultVersion: '2.20260708.00.00', id: 1, presents: 'browser', userAgent: null,
    context: { clientScreen: 'WATCH', platform: 'DESKTOP' },
  },
];

const keyOf = (t: Template): string => t.key ?? t.name;

export const KNOWN_CLIENTS: readonly string[] = TEMPLATES.map(keyOf);

/**
 * The default PLAYER_CLIENTS (as of 2026-09), the maintained clients' signed-out default: yt-dlp's
 * `visionos`, `web` (2026.08.19), which is also what NewPipe keeps after removing ANDROID, IOS and
 * the embedded player (PR #1529). VISIONOS serves most videos (every track, no `fmt`, no token);
 * WEB's token-bound tracks tell a video with captions from one without, for the browser fallback.
 * Made-for-kids videos, which VISIONOS cannot play, go to the embedded player and then the
 * downgraded TV client whether listed or not (KIDS_FALLBACK_CLIENTS in shared/platform/index.ts).
 */
export const DEFAULT_PLAYER_CLIENTS = 'VISIONOS:1.02,WEB:2.20260708.00.00';

/** The identity of record `key` at `version`, with any configured override applied; null for an unknown record. */
export function identityFor(key: string, version: string | null, overrides: Readonly<Record<string, IdentityOverride>> = {}): ClientIdentity | null {
  const t = TEMPLATES.find((x) => keyOf(x) === key);
  if (!t) return null;
  const { defaultVersion, key: _key, ...rest } = t;
  const v = version ?? defaultVersion;
  const o = overrides[key] ?? {};
  const ua = o.userAgent !== undefined ? o.userAgent : rest.userAgent;
  return {
    ...rest,
    key,
    version: v,
    id: o.id ?? rest.id,
    userAgent: ua === null ? null : ua.replaceAll('{version}', v),
    context: { ...rest.context, ...o.context },
  };
}

/** The web app's own client: resolve_url, browse and the field-masked date call (§1, §2). */
export const WEB_IDENTITY: ClientIdentity = identityFor('WEB', null)!;

/**
 * PLAYER_CLIENT_IDENTITIES: a JSON object of overrides by client name, e.g.
 * `{"ANDROID":{"userAgent":"com.google.android.youtube/{version} (Linux; U; Android 16) gzip","context":{"osVersion":"16"}}}`.
 * Throws an Error naming what is wrong; the caller reports it as a configuration error.
 */
export function parseIdentityOverrides(raw: string): Record<string, IdentityOverride> {
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON object of client name → {userAgent?, context?, id?}');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('must be a JSON object');
  const out: Record<string, IdentityOverride> = {};
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!KNOWN_CLIENTS.includes(name)) throw new Error(`unknown client "${name}" (known: ${KNOWN_CLIENTS.join(', ')})`);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`"${name}" must be an object`);
    const v = value as Record<string, unknown>;
    const o: { userAgent?: string; context?: Record<string, string | number>; id?: number } = {};
    for (const key of Object.keys(v)) {
      if (!['userAgent', 'context', 'id'].includes(key)) throw new Error(`"${name}.${key}" is not userAgent, context or id`);
    }
    if (v.userAgent !== undefined) {
      if (typeof v.userAgent !== 'string' || !/^[\x20-\x7e]{1,300}$/.test(v.userAgent)) throw new Error(`"${name}.userAgent" must be printable ASCII`);
      o.userAgent = v.userAgent;
    }
    if (v.id !== undefined) {
      if (typeof v.id !== 'number' || !Number.isInteger(v.id) || v.id < 1) throw new Error(`"${name}.id" must be a positive whole number`);
      o.id = v.id;
    }
    if (v.context !== undefined) {
      if (v.context === null || typeof v.context !== 'object' || Array.isArray(v.context)) throw new Error(`"${name}.context" must be an object`);
      const ctx: Record<string, string | number> = {};
      for (const [k, cv] of Object.entries(v.context as Record<string, unknown>)) {
        if (typeof cv !== 'string' && typeof cv !== 'number') throw new Error(`"${name}.context.${k}" must be a string or a number`);
        ctx[k] = cv;
      }
      o.context = ctx;
    }
    out[name] = o;
  }
  return out;
}
