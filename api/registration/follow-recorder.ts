// A feed request for a channel (or a playlist) also makes the key follow it. Following is idempotent, so this
// process remembers the (key, channel) pairs it recorded for a while and skips the store after the
// first request: a reader polling a feed costs no write. Unfollowing through this process forgets
// the pair at once, so the next feed request follows again; through another process, within
// FOLLOW_TTL_MS.

import type { WorkKind, FollowStore } from '../../shared/store/types';
import { withinTtl } from '../../shared/ttl-memo';
import { ApiCache, type CacheSlot } from '../cache';

export const FOLLOW_TTL_MS = 10 * 60_000;

export class FollowRecorder {
  private readonly recorded: CacheSlot<number>;

  constructor(
    private readonly store: FollowStore,
    cache: ApiCache = new ApiCache(),
  ) {
    this.recorded = cache.slot('follow');
  }

  async record(keyId: string, channelId: string, wanted: number, now: Date, kind: WorkKind = 'channel'): Promise<void> {
    const key = `${keyId}\n${channelId}`;
    const at = this.recorded.get(key);
    const t = now.getTime();
    if (at !== undefined && withinTtl(at, t, FOLLOW_TTL_MS)) return;
    await this.store.follow(keyId, [{ channelId, kind }], 'feed', wanted, now);
    this.recorded.set(key, t);
  }

  /** The key no longer follows the channel: the next feed request records the follow again. */
  forget(keyId: string, ref: string): void {
    this.recorded.set(`${keyId}\n${ref}`, Number.NEGATIVE_INFINITY);
  }
}
