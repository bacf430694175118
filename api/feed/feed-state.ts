// What a feed request needs to know before rendering: the channel's feed version (newest stored
// change, one indexed read), how many entries the feed has and a fingerprint of which entries
// (ids and write times). Count and fingerprint per (channel, max_items) are remembered with the
// version they were taken at, so a cache-warm request reads one number from the store instead of
// every transcript. A new version (a stored batch) makes the next request list again; a short TTL
// bounds anything a version cannot see (an older entry rewritten), and since the fingerprint
// enters the ETag, such a change still reaches clients.

import { createHash } from 'node:crypto';
import type { Store, VideoRecord } from '../../shared/store/types';

export const STATE_TTL_MS = 5_000;
const MAX_REMEMBERED = 10_000;

export interface FeedState {
  /** Newest fetchedAt among the channel's feed entries (feedVersion). */
  readonly version: Date;
  /** Entries the feed shows (<= max_items). */
  readonly count: number;
  /** Digest of the shown entries' ids and write times. */
  readonly fingerprint: string;
  /** The entries, when this request had to list them anyway. */
  readonly videos: readonly VideoRecord[] | null;
}

export function fingerprintOf(videos: readonly VideoRecord[]): string {
  const h = createHash('sha256');
  for (const v of videos) h.update(`${v.videoId}:${v.fetchedAt.getTime()}\n`);
  return h.digest('base64url').slice(0, 16);
}

export class FeedStateReader {
  private readonly known = new Map<string, { version: number; count: number; fingerprint: string; at: number }>();

  constructor(private readonly store: Pick<Store, 'feedVersion' | 'listFeedEntries'>) {}

  /** Null when nothing is stored for the channel yet (the spec's 404). */
  async read(channelId: string, maxItems: number, now: Date): Promise<FeedState | null> {
    // Version first, entries second: a batch stored in between shows up under the older version
    // and is re-rendered on the next request, never hidden behind a newer version.
    const version = await this.store.feedVersion(channelId);
    if (version === null) return null;
    const seen = this.known.get(`${channelId}\n${maxItems}`);
    const age = now.getTime() - (seen?.at ?? Number.NEGATIVE_INFINITY);
    if (seen && seen.version === version.getTime() && age >= 0 && age < STATE_TTL_MS) {
      return { version, count: seen.count, fingerprint: seen.fingerprint, videos: null };
    }
    return this.list(channelId, maxItems, version, now);
  }

  /** List the entries now (a render-cache miss needs them) and remember what was seen. */
  async list(channelId: string, maxItems: number, version: Date, now: Date): Promise<FeedState | null> {
    const videos = await this.store.listFeedEntries(channelId, maxItems);
    if (videos.length === 0) return null;
    const state = { version, count: videos.length, fingerprint: fingerprintOf(videos), videos };
    if (this.known.size >= MAX_REMEMBERED) this.known.clear();
    this.known.set(`${channelId}\n${maxItems}`, { version: version.getTime(), count: state.count, fingerprint: state.fingerprint, at: now.getTime() });
    return state;
  }
}
