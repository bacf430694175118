// What every app page and form shares for safety: the strict headers, the session cookie, and the
// refusal of a state-changing request from another site (Origin) or without its CSRF token.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Fields } from '../http/answer';

/** Scripts and styles only from the app itself, no frames of ours anywhere, forms only to us. */
export const APP_CSP = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** APP_CSP, and for a page that embeds the platform's player, frame-src that one origin only. */
export const pageCsp = (frameOrigin: string | null): string => (frameOrigin === null ? APP_CSP : `${APP_CSP}; frame-src ${frameOrigin}`);

/** A page's (and its downloads') security fields, written by the one writer (api/http/answer.ts) over the API's; never cached. */
export const pageFields = (frameOrigin: string | null = null): Fields => ['Content-Security-Policy', pageCsp(frameOrigin), 'X-Frame-Options', 'DENY', 'Referrer-Policy', 'same-origin', 'X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store'];

export const SESSION_COOKIE = 'tf_session';
/** Before sign-in: the token the sign-in form echoes (double submit), so no other site signs a browser in. */
export const PRE_COOKIE = 'tf_pre';

export function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** `Secure` when the app is reached over HTTPS (as the origin says it is). */
export function cookie(name: string, value: string, secure: boolean, maxAgeSeconds: number | null): string {
  const parts = [`${name}=${value}`, 'Path=/app', 'HttpOnly', 'SameSite=Lax'];
  if (maxAgeSeconds !== null) parts.push(`Max-Age=${maxAgeSeconds}`);
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function sameToken(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** A request another site sent: its Origin (or, without one, its Sec-Fetch-Site) says so. */
export function crossSite(req: IncomingMessage, ownOrigin: string): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string') return origin !== ownOrigin;
  const site = req.headers['sec-fetch-site'];
  return typeof site === 'string' && site !== 'same-origin' && site !== 'none';
}
