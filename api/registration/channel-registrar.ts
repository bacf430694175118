// Every feed request (api/routes/feed.ts, playlist-feed.ts) registers (or refreshes) the channel's work item. registerChannel only
// changes the record when the channel is new or `wanted` grows, so repeating it with a wanted
// already registered is a no-op: this process remembers what it registered for a few seconds and
// skips those no-op writes. Another process raising `wanted` meanwhile changes nothing here: a
// larger wanted always goes to the store, and the store keeps the maximum.

import type { ChannelRecord, RegisterChannelInput, RegistrationStore } from '../../shared/store/types';
import { withinTtl } from '../../shared/ttl-memo';
import { ApiCache, type CacheSlot } from '../cache';
import { ApiError } from '../errors';

/** How long a registration is trusted without asking the store; also bounds a stale channel title (a rename). */
export const REGISTRATION_TTL_MS = 5_000;

const HOUR_MS = 3_600_000;

interface Registration {
  record: ChannelRecord;
  wanted: number;
  at: number;
}

export class ChannelRegistrar {
  private readonly recent: CacheSlot<Registration>;
  private readonly asked: CacheSlot<number>;

  constructor(
    private readonly store: RegistrationStore,
    cache: ApiCache = new ApiCache(),
    /** New channels (work items the store does not know) one key may register in any hour; undefined: no bound. */
    private readonly newPerKeyHour?: number,
  ) {
    this.recent = cache.slot('registration');
    this.asked = cache.slot('languages-asked');
  }

  /**
   * Tell the crawler which languages readers want on the channel, as `register` tells
   * it the wanted count; the same list again within the TTL is not written again.
   */
  async askLanguages(channelId: string, languages: readonly string[], now: Date, keyId: string | null = null): Promise<void> {
    const key = `${channelId}\n${keyId ?? ''}\n${languages.join(',')}`;
    const at = this.asked.get(key);
    const t = now.getTime();
    if (at !== undefined && withinTtl(at, t, REGISTRATION_TTL_MS)) return;
    await this.store.askLanguages(channelId, languages, now, keyId);
    this.asked.set(key, t);
  }

  /**
   * A key's share of the crawler's new work: a channel the store does not know counts against the
   * key's CRAWL_NEW_CHANNELS_PER_KEY_HOUR; beyond it 429 with the seconds until the oldest of the
   * hour's new channels leaves the window, before anything is written. Concurrent requests of one
   * key can pass the check together, so the bound can be passed by the key's answers in progress
   * (API_MAX_CONNECTIONS_PER_KEY) at most.
   */
  private async checkNewChannelShare(channelId: string, keyId: string, now: Date): Promise<void> {
    if ((await this.store.getChannel(channelId)) !== null) return;
    const limit = this.newPerKeyHour!;
    const { count, oldest } = await this.store.newChannelsOfKey(keyId, new Date(now.getTime() - HOUR_MS));
    if (count < limit) return;
    const retryAfter = oldest === null ? 3600 : Math.min(3600, Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000)));
    throw new ApiError('newChannelsLimited', { limit, retryAfter, channelId });
  }

  async register(input: RegisterChannelInput, now: Date): Promise<ChannelRecord> {
    const seen = this.recent.get(input.channelId);
    const t = now.getTime();
    if (seen && seen.wanted >= input.wanted && withinTtl(seen.at, t, REGISTRATION_TTL_MS) && (input.handle == null || seen.record.handle !== null)) {
      return seen.record;
    }
    if (this.newPerKeyHour !== undefined && input.keyId != null && seen === undefined) {
      await this.checkNewChannelShare(input.channelId, input.keyId, now);
    }
    const record = await this.store.registerChannel(input, now);
    this.recent.set(input.channelId, { record, wanted: record.wanted, at: t });
    return record;
  }
}
