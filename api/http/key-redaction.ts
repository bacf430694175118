// The one redaction of a request URL that the access log, the error log and anything else printing
// a URL uses (withoutApiKey): parameters named like a key go by name, and a configured API key's
// value is found anywhere in the text (withoutKeyValues), in whatever parameter or path segment
// carries it and however it is percent-encoded. The live key
// sets register here; each key contributes its length and a short hash (shared/config/
// key-fingerprint.ts), so one rolling pass per key length finds every candidate window, and a
// candidate is confirmed against the key's SHA-256 digest. The process never holds the key text.

import { sha256, type ApiKey } from '../../shared/config/security';
import { eachCandidate } from '../../shared/config/key-fingerprint';
import type { KeySource } from './key-source';

interface Index {
  /** key length → hashes of the keys of that length */
  readonly byLength: ReadonlyMap<number, ReadonlySet<number>>;
  /** SHA-256 (hex) of every configured key, enabled or not */
  readonly digests: ReadonlySet<string>;
}

/** Key sources of the apps in this process (one in production; tests start several). */
const sources = new Set<WeakRef<KeySource>>();
const indexes = new WeakMap<readonly ApiKey[], Index>();

/** Every key `source` holds, now and after reloads, is redacted from logged URLs in this process. */
export function redactKeysOf(source: KeySource): void {
  for (const ref of sources) if (ref.deref() === source) return;
  sources.add(new WeakRef(source));
}

function indexOf(keys: readonly ApiKey[]): Index {
  let index = indexes.get(keys);
  if (!index) {
    const byLength = new Map<number, Set<number>>();
    for (const k of keys) {
      if (!k.fingerprint) continue;
      let set = byLength.get(k.fingerprint.length);
      if (!set) byLength.set(k.fingerprint.length, (set = new Set()));
      set.add(k.fingerprint.hash);
    }
    index = { byLength, digests: new Set(keys.map((k) => k.digest.toString('hex'))) };
    indexes.set(keys, index);
  }
  return index;
}

function liveIndexes(): Index[] {
  const out: Index[] = [];
  for (const ref of sources) {
    const source = ref.deref();
    if (source === undefined) sources.delete(ref);
    else if (source.keys.length > 0) out.push(indexOf(source.keys));
  }
  return out;
}

/** Percent-escapes decoded one level, byte by byte; invalid escapes and `+` left as they are. */
const decodeOnce = (s: string): string => s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The text and each deeper percent-decoding of it (`%254B` → `%4B` → `K`), at most five forms. */
function forms(text: string): string[] {
  const out = [text];
  for (let s = text; out.length < 5 && s.includes('%'); ) {
    const next = decodeOnce(s);
    if (next === s) break;
    out.push((s = next));
  }
  return out;
}

function holdsKey(text: string, index: Index): boolean {
  for (const [length, hashes] of index.byLength) {
    let hit = false;
    eachCandidate(text, length, hashes, (start) => {
      if (!hit && index.digests.has(sha256(text.slice(start, start + length)).toString('hex'))) hit = true;
    });
    if (hit) return true;
  }
  return false;
}

/** True when any configured key's value occurs in `text`, raw or percent-encoded. */
export function containsKey(text: string, indexes: Index[] = liveIndexes()): boolean {
  if (indexes.length === 0) return false;
  for (const form of forms(text)) for (const index of indexes) if (holdsKey(form, index)) return true;
  return false;
}

export const REDACTED = '[redacted]';

/**
 * The URL with every path segment and query pair that holds a key's value replaced by
 * `[redacted]`; when a key spans pieces (an unescaped `&` or `/` inside it), the whole URL is.
 */
export function withoutKeyValues(url: string): string {
  const indexes = liveIndexes();
  if (!containsKey(url, indexes)) return url;
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).split('/').map((seg) => (containsKey(seg, indexes) ? REDACTED : seg)).join('/');
  const query = q < 0 ? null : url.slice(q + 1).split('&').map((pair) => (containsKey(pair, indexes) ? REDACTED : pair)).join('&');
  const out = query === null ? path : `${path}?${query}`;
  return containsKey(out, indexes) ? REDACTED : out;
}

// ── redaction ──────────────────────────────────────────────────────────────
// A request URL without any parameter that could carry an API key, and without any configured
// key's value wherever else it appears (another parameter, a path segment): what every log line
// records. A name is compared after percent-decoding (repeatedly, so `%2561pi_key` is caught too),
// without case, bracket suffixes (`api_key[]`, `api_key[0]`) or anything but letters and digits,
// so `%61pi_key`, `ap%69_key`, `API-KEY`, `apikey`, `x-api-key` and `api_key%00` are all dropped:
// Express decodes `%61pi_key` to `api_key` and accepts the key, and any other spelling may still be
// a key a client meant to send. The value check (withoutKeyValues) catches the rest: a key sent
// under a name nobody thought of, or as a path segment, is found by its value.

const KEY_NAME = /^x?apikey$/;

function decodedName(pair: string): string {
  const eq = pair.indexOf('=');
  let name = (eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
  for (let i = 0; i < 4 && name.includes('%'); i++) {
    try {
      const next = decodeURIComponent(name);
      if (next === name) break;
      name = next;
    } catch {
      // Not valid percent-encoding as a whole: decode what is decodable, leave the rest.
      name = name.replace(/%[0-9A-Fa-f]{2}/g, (h) => String.fromCharCode(parseInt(h.slice(1), 16)));
    }
  }
  return name;
}

/** True when a parameter name, however spelled, names an API key. */
export function isKeyParameter(pair: string): boolean {
  const name = decodedName(pair)
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[^a-z0-9]/g, '');
  return KEY_NAME.test(name);
}

export function withoutApiKey(url: string): string {
  const q = url.indexOf('?');
  let named = url;
  // Cheap exit for the common case: no "api" and no percent-encoding anywhere in the query.
  if (q >= 0 && /api|%/i.test(url.slice(q + 1))) {
    const kept = url.slice(q + 1).split('&').filter((pair) => !isKeyParameter(pair));
    named = kept.length === 0 ? url.slice(0, q) : `${url.slice(0, q)}?${kept.join('&')}`;
  }
  return withoutKeyValues(named);
}
