// The request/answer values route handlers work with: handlers are plain functions from a parsed
// request to an answer, so the server can apply scenario switches (malformed, slow…) to any answer.

import type { IncomingHttpHeaders } from 'node:http';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  cookies: Map<string, string>;
  userAgent: string;
  /** Raw request body (InnerTube POSTs carry JSON). */
  body: string;
}

/** What kind of body an answer carries; decides how a "malformed" answer is spoiled. */
export type BodyKind = 'json' | 'html' | 'xml' | 'empty';

export interface FakeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  kind: BodyKind;
  /** Held this long before it is sent (the platform stalling; a client may give up first). */
  stallMs?: number;
}

export const HTML_TYPE = 'text/html; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=UTF-8';
export const XML_TYPE = 'text/xml; charset=UTF-8';

export function json(value: unknown, status = 200): FakeResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value), kind: 'json' };
}

export function html(body: string, status = 200): FakeResponse {
  return { status, headers: { 'content-type': HTML_TYPE }, body, kind: 'html' };
}

export function xml(body: string, status = 200, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers: { 'content-type': XML_TYPE, ...headers }, body, kind: 'xml' };
}

/** The platform's refusal: HTTP 200 with nothing in it. */
export function empty(): FakeResponse {
  return { status: 200, headers: { 'content-type': HTML_TYPE }, body: '', kind: 'empty' };
}

export function redirect(location: string): FakeResponse {
  return { status: 302, headers: { location, 'content-type': HTML_TYPE }, body: '', kind: 'empty' };
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

/** The JSON body of an InnerTube POST, or null when it is not a JSON object. */
export function jsonBody(req: FakeRequest): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(req.body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Read `a.b.c` out of parsed JSON without trusting its shape. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** XML escaping with the predefined entities only (`'` as `&apos;` is legal but rare on the platform). */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON that is safe inside an inline <script> (the platform escapes `<` the same way). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
