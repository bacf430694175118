// The browser-like header set of one plain request (platform.md §6). What a real browser sends
// differs by what it is doing: a page navigation, a same-origin XHR (the player fetching captions),
// or an InnerTube POST from the web app; a header set that does not fit the request is a bot signal.

import type { BrowserIdentity } from './user-agents';

export type RequestKind = 'page' | 'xhr' | 'innertube';

export interface InnertubeClientHeaders {
  /** Numeric id of the client, e.g. 3 for ANDROID, 101 for VISIONOS. */
  readonly id: number;
  readonly version: string;
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
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export function buildHeaders(input: HeaderInput): Record<string, string> {
  const { kind, identity, base } = input;
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
    }
  }
  if (input.cookie) h.Cookie = input.cookie;
  return h;
}
