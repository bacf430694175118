// Conditional GET, a step of its own: the validators of one rendered representation and the
// RFC 9110 decision whether the client's copy is still good (then 304, no body).

import { createHash } from 'node:crypto';

export interface Validators {
  /** Strong ETag, quoted. */
  readonly etag: string;
  /** HTTP date of the feed version. */
  readonly lastModified: string;
}

export interface RepresentationKey {
  channelId: string;
  format: string;
  maxItems: number;
  /** feedVersion: newest stored change. */
  version: Date;
  count: number;
  /** Which entries (ids and write times), from FeedStateReader. */
  fingerprint: string;
  /** Everything else the body depends on: author name and the self link. */
  author: string;
  selfUrl: string;
}

/** Validators by their inputs: a cache-warm request computes no digest. */
const known = new Map<string, Validators>();
const MAX_KNOWN = 10_000;

/** Strong, because equal tags mean byte-equal bodies: the digest covers every input of the body. */
export function validatorsFor(k: RepresentationKey): Validators {
  const input = `${k.channelId}\n${k.format}\n${k.maxItems}\n${k.version.getTime()}\n${k.count}\n${k.fingerprint}\n${k.author}\n${k.selfUrl}`;
  let v = known.get(input);
  if (v === undefined) {
    const digest = createHash('sha256').update(input).digest('base64url');
    v = { etag: `"${digest.slice(0, 27)}"`, lastModified: k.version.toUTCString() };
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(input, v);
  }
  return v;
}

/** True when the client's cached copy matches: If-None-Match first; If-Modified-Since only without it. */
export function notModified(headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined }, v: Validators): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    if (inm.trim() === '*') return true;
    // If-None-Match uses the weak comparison: W/"x" matches "x".
    return inm.split(',').some((t) => t.trim().replace(/^W\//, '') === v.etag);
  }
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  // HTTP dates have whole seconds; the version keeps milliseconds.
  return Math.floor(Date.parse(v.lastModified) / 1000) <= Math.floor(since / 1000);
}
