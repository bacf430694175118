// The header set of one plain request (docs/crawler.md §6). What a real browser sends differs by what
// it is doing: a page navigation, a same-origin XHR (the player fetching captions), or an InnerTube
// POST from the web app; a header set that does not fit the request is a bot signal. An app
// client's call (`app`) is not a browser's at all: the app's own User-Agent and API headers, and
// none of Sec-Fetch-*, Origin, sec-ch-ua or Referer, which an app never sends (docs/crawler.md §3).

import type { BrowserIdentity } from './user-agents';

export type RequestKind = 'page' | 'xhr' | 'innertube' | 'app';

/** Who an app client's call says it is. */
export interface AppHeaders {
  readonly userAgent: string;
  /** X-Goog-Visitor-Id: the session's visitorData once the visitor_id call gave one. */
  readonly visitorData: string | null;
}

export interface InnertubeClientHeaders {
  /** Numeric id of the client, e.g. 3 for ANDROID, 101 for VISIONOS. */
  readonly id: number;
  readonly version: string;
  /** X-Goog-Visitor-Id, when this client session has one. */
  readonly visitorData?: string | null;
}

export interface HeaderInput {
  readonly kind: RequestKind;
  readonly identity: BrowserIdentity;
  /** Platform base URL without trailing slash, e.g. https://www.youtube.com. */
  readonly base: string;
  /** Page the request appears to come from; defaults to the home page. */
  readonly referer?: string;
  readonly cookie?: string;
  /** Only for `innertube`: must match the client in the JSON body. */
  readonly client?: InnertubeClientHeaders;
  /** Only for `app`: the app's identity (the browser identity is then not used). */
  readonly app?: AppHeaders;
}

/** An app's InnerTube call, as NewPipe's recorded 2026 requests send it. */
function appHeaders(app: AppHeaders, cookie: string | undefined): Record<string, string> {
  const h: Record<string, string> = {
    'User-Agent': app.userAgent,
    'X-Goog-Api-Format-Version': '2',
    'Content-Type': 'application/json',
    'Accept-Language': 'en-US, en;q=0.9',
    'Accept-Encoding': 'gzip',
  };
  if (app.visitorData) h['X-Goog-Visitor-Id'] = app.visitorData;
  if (cookie) h.Cookie = cookie;
  return h;
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export function buildHeaders(input: HeaderInput): Record<string, string> {
  const { kind, identity, base } = input;
  if (kind === 'app') {
    if (!input.app) throw new Error('an app request needs its app identity');
    return appHeaders(input.app, input.cookie);
  }
  const h: Record<string, string> = {
    'User-Agent': identity.userAgent,
    Accept: kind === 'page' ? HTML_ACCEPT : '*/*',
    'Accept-Language': 'en-US,en;q=0.9',
    'Accept-Encoding': 'gzip, deflate, br',
    Referer: input.referer ?? `${base}/`,
  };
  if (identity.secChUa !== null) {
    h['sec-ch-ua'] = identity.secChUa;
    h['sec-ch-ua-mobile'] = '?0';
    h['sec-ch-ua-platform'] = `"${identity.platform}"`;
  }
  if (kind === 'page') {
    h['Sec-Fetch-Dest'] = 'document';
    h['Sec-Fetch-Mode'] = 'navigate';
    h['Sec-Fetch-Site'] = 'same-origin';
    h['Sec-Fetch-User'] = '?1';
    h['Upgrade-Insecure-Requests'] = '1';
  } else {
    h['Sec-Fetch-Dest'] = 'empty';
    h['Sec-Fetch-Mode'] = kind === 'innertube' ? 'same-origin' : 'cors';
    h['Sec-Fetch-Site'] = 'same-origin';
  }
  if (kind === 'innertube') {
    h['Content-Type'] = 'application/json';
    h.Origin = base;
    if (input.client) {
      h['X-YouTube-Client-Name'] = String(input.client.id);
      h['X-YouTube-Client-Version'] = input.client.version;
      if (input.client.visitorData) h['X-Goog-Visitor-Id'] = input.client.visitorData;
    }
  }
  if (input.cookie) h.Cookie = input.cookie;
  return h;
}
