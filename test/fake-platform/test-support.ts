// Helpers for the fake platform's own tests: speaking to it over HTTP the way clients do, reading
// the real captures, and comparing shapes as sets of key paths.

import { readFileSync } from 'node:fs';
import path from 'node:path';

export const WEB_CONTEXT = { client: { clientName: 'WEB', clientVersion: '2.20260708.00.00', hl: 'en', gl: 'US' } };
export const ANDROID_CONTEXT = { client: { clientName: 'ANDROID', clientVersion: '20.10.38' } };
export const VISIONOS_CONTEXT = { client: { clientName: 'VISIONOS', clientVersion: '1.02' } };
export const VIDEOS_TAB = 'EgZ2aWRlb3PyBgQKAjoA';

export async function postJson(base: string, endpoint: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/youtubei/v1/${endpoint}?prettyPrint=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** POST and parse; fails the test with the body when the answer is not JSON. */
export async function innertube(base: string, endpoint: string, body: unknown): Promise<{ status: number; json: Json }> {
  const res = await postJson(base, endpoint, body);
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) as Json };
  } catch {
    throw new Error(`${endpoint} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

/** Parsed JSON: its shape is exactly what these tests check, so it is read through `at`. */
export type Json = unknown;

/**
 * The value at a key path (`a.b[0].c`, or `a.b.0.c`), undefined when any step is missing: the
 * tests read deep InnerTube structures without trusting them.
 */
export function at(value: Json, keyPath: string): Json {
  let current = value;
  for (const key of keyPath.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function arr(value: Json): Json[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)?.slice(0, 100)}`);
  return value as Json[];
}

export function str(value: Json): string {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)?.slice(0, 100)}`);
  return value;
}

/** The real captures, as the repository carries them. */
const CAPTURE_DIR = path.resolve(__dirname, '../fixtures/platform-captures');

export function captureText(name: string): string {
  return readFileSync(path.join(CAPTURE_DIR, name), 'utf8');
}

export function capture(name: string): Json {
  return JSON.parse(captureText(name)) as Json;
}

/** Every key path of a JSON value, array elements merged as `[]` (`a.b[].c`). */
export function keyPaths(value: unknown, prefix = ''): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, p: string) => {
    if (Array.isArray(v)) {
      if (v.length === 0) out.add(`${p}[]`);
      for (const item of v) walk(item, `${p}[]`);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, child] of Object.entries(v)) walk(child, p ? `${p}.${k}` : k);
    } else {
      out.add(p);
    }
  };
  walk(value, prefix);
  return out;
}

/** Paths of `expected` (optionally only those matching `keep`) that `actual` lacks. */
export function missingPaths(expected: unknown, actual: unknown, keep: RegExp = /./): string[] {
  const have = keyPaths(actual);
  return [...keyPaths(expected)].filter((p) => keep.test(p) && !have.has(p));
}

/** The JSON assigned to `var <name> = …;` in a page. */
export function embeddedJson(page: string, name: string): Json {
  const start = page.indexOf(`var ${name} = `);
  if (start < 0) throw new Error(`no ${name} in page`);
  const from = start + `var ${name} = `.length;
  const end = page.indexOf(';</script>', from);
  const candidate = page.slice(from, end);
  // The watch page's player response is followed by more statements in the same script.
  const cut = candidate.indexOf(';var ');
  return JSON.parse(cut >= 0 ? candidate.slice(0, cut) : candidate) as Json;
}
