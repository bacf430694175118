// The address this service is reached at, for the links answers carry (feeds' self links, the
// transcript files', subscription lists'): PUBLIC_BASE_URL when set, else the request's scheme and
// host, X-Forwarded-* counted only from a peer TRUST_PROXY trusts.

import type { IncomingMessage } from 'node:http';

/** What the origin needs of the app's settings. */
export interface OriginDeps {
  /** Express's compiled `trust proxy` (TRUST_PROXY): whether X-Forwarded-* from this peer count. */
  trustProxy: (address: string, hop: number) => boolean;
  /** PUBLIC_BASE_URL, or null: then the scheme and host come from the request. */
  publicBaseUrl: string | null;
}

const HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

/** First value of a header that proxies may repeat or list. */
function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const comma = v.indexOf(',');
  return (comma < 0 ? v : v.slice(0, comma)).trim();
}
/** The address this service is reached at: PUBLIC_BASE_URL, else what the request says. */
export function originOf(req: IncomingMessage, deps: OriginDeps): string {
  return deps.publicBaseUrl ?? requestOrigin(req, deps.trustProxy);
}
/** scheme://host the request was sent to, as far as this process can tell. */
export function requestOrigin(req: IncomingMessage, trust: OriginDeps['trustProxy']): string {
  const trusted = trust(req.socket.remoteAddress ?? '', 0);
  const forwardedProto = trusted ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const forwardedHost = trusted ? first(req.headers['x-forwarded-host']) : undefined;
  const claimed = forwardedHost || req.headers.host;
  const host = claimed !== undefined && HOST.test(claimed) ? claimed : 'localhost';
  return `${proto}://${host}`;
}
