// Conditional GET, a step of its own: the validators of one rendered representation and the
// RFC 9110 decision whether the client's copy is still good (then 304, no body).

import { createHash } from 'node:crypto';
import type { VideoRecord } from '../../shared/store/types';

export interface Validators {
  /** Strong ETag, quoted. */
  readonly etag: string;
  /** HTTP date of the newest stored change among the entries shown. */
  readonly lastModified: string;
  readonly lastModifiedMs: number;
}

export interface RepresentationKey {
  channelId: string;
  format: string;
  maxItems: number;
  /** Entries exactly as they will be shown, newest first. */
  videos: readonly VideoRecord[];
  /** Everything else the body depends on: author name and the self link. */
  author: string;
  selfUrl: string;
}

/** Newest fetchedAt among the entries shown: the feed's version as this representation sees it. */
export function feedVersionOf(videos: readonly VideoRecord[]): Date {
  let newest = 0;
  for (const v of videos) newest = Math.max(newest, v.fetchedAt.getTime());
  return new Date(newest);
}

/**
 * Strong, because equal tags mean byte-equal bodies: the digest covers every input of the body
 * (channel, format, max_items, feed version, entry count, each entry's id and write time, author,
 * self link).
 */
export function validatorsFor(k: RepresentationKey): Validators {
  const version = feedVersionOf(k.videos).getTime();
  const h = createHash('sha256');
  h.update(`${k.channelId}\n${k.format}\n${k.maxItems}\n${version}\n${k.videos.length}\n${k.author}\n${k.selfUrl}\n`);
  for (const v of k.videos) h.update(`${v.videoId}:${v.fetchedAt.getTime()}\n`);
  return {
    etag: `"${h.digest('base64url').slice(0, 27)}"`,
    lastModified: new Date(version).toUTCString(),
    lastModifiedMs: version,
  };
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
  return Math.floor(v.lastModifiedMs / 1000) <= Math.floor(since / 1000);
}
