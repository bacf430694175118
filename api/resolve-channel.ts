// Channel reference → channel id. An id is used as is; a handle is looked up in the store's cache
// and, on a miss, costs exactly one platform request whose answer is cached (an unknown handle for
// UNKNOWN_HANDLE_TTL_MS). Concurrent requests for the same uncached handle share that one request.
//
// That request is the platform's guest quota, the one the crawler paces itself under, so a lookup
// (handleLookupLimits) is made only when: the key has asked for fewer than `perKeyPerMinute` new
// handles this minute (counted in the store, so across API processes; 429 with retry_after beyond);
// no "try again later" cool-down is in force (the crawler's, or one a lookup started, read from the
// store); and the hourly budget every process shares (CRAWL_REQUESTS_PER_HOUR) has room. Each
// lookup is counted into that budget. Refused, the request gets 429 at once and nothing is sent.

import type { PlatformClient } from '../shared/platform/types';
import { PlatformError } from '../shared/platform/types';
import type { HandleLookupStore } from '../shared/store/types';
import { ApiError } from './errors';
import { SingleFlight } from './single-flight';
import { normalizeHandle, type ChannelRef } from '../shared/channel-ref';
import { CHANNEL_ID } from '../shared/ids';

export interface ResolvedChannel {
  readonly channelId: string;
  /** Lower-cased handle without `@` when the request named one. */
  readonly handle: string | null;
}

export interface HandleLookupLimits {
  /** New handles one key may have looked up per minute. */
  readonly perKeyPerMinute: number;
  /** Platform requests in any hour, every process together (CRAWL_REQUESTS_PER_HOUR); 0 = no limit. */
  readonly perHour: number;
  /** The cool-down a lookup starts when the platform refuses it as blocked (CRAWL_COOL_DOWN's shortest). */
  readonly coolDownMs: number;
}

export const DEFAULT_HANDLE_LOOKUP_LIMITS: HandleLookupLimits = { perKeyPerMinute: 10, perHour: 500, coolDownMs: 1_800_000 };

/** The per-key lookup counter's id: its own domain, never equal to a key's request counter. */
const lookupCounterId = (keyId: string): string => `handle-lookups:${keyId}`;

export class ChannelResolver {
  private readonly pending = new SingleFlight<string, string | null>();

  constructor(
    private readonly store: HandleLookupStore,
    private readonly platform: Pick<PlatformClient, 'resolveHandle'>,
    private readonly limits: HandleLookupLimits = DEFAULT_HANDLE_LOOKUP_LIMITS,
  ) {}

  /** `keyId`: the key asking, whose new handles per minute are limited. */
  async resolve(ref: ChannelRef, now: Date, keyId?: string): Promise<ResolvedChannel> {
    if (ref.kind === 'id') return { channelId: ref.channelId, handle: null };
    const handle = normalizeHandle(ref.handle);
    const cached = await this.store.getHandle(handle);
    // A handle the platform said does not exist is not asked about again for a while (store/rules.ts).
    if (cached === null && (await this.store.isUnknownHandle(handle, now))) throw new ApiError('unknownHandle', { handle: ref.handle });
    if (cached === null && !this.pending.has(handle)) await this.mayLookUp(now, keyId);
    const channelId = cached ?? (await this.lookup(ref.handle, handle, now));
    if (channelId === null) throw new ApiError('unknownHandle', { handle: ref.handle });
    return { channelId, handle };
  }

  /** Throws the catalogue's 429 when a new lookup may not be sent now (see the top of the file). */
  private async mayLookUp(now: Date, keyId: string | undefined): Promise<void> {
    if (keyId !== undefined) {
      const hit = await this.store.hitRateLimit(lookupCounterId(keyId), this.limits.perKeyPerMinute, now);
      if (!hit.allowed) throw new ApiError('handleLookupsLimited', { limit: this.limits.perKeyPerMinute });
    }
    if ((await this.store.platformCoolDown(now)) !== null) throw new ApiError('platformBusy');
    if (this.limits.perHour > 0 && (await this.store.platformRequestsInHour(now)) >= this.limits.perHour) throw new ApiError('platformBusy');
  }

  private lookup(asGiven: string, handle: string, now: Date): Promise<string | null> {
    return this.pending.run(handle, () => this.ask(asGiven, handle, now));
  }

  private async ask(asGiven: string, handle: string, now: Date): Promise<string | null> {
    let channelId: string | null;
    try {
      await this.store.addPlatformRequests('api', 1, now);
      channelId = await this.platform.resolveHandle(asGiven);
    } catch (err) {
      if (err instanceof PlatformError && err.outcome === 'not_found') {
        await this.store.putUnknownHandle(handle, now);
        return null;
      }
      if (err instanceof PlatformError && err.outcome === 'blocked') {
        // Every process stays away from the platform for a while, the crawler included.
        await this.store.setPlatformCoolDown(new Date(now.getTime() + this.limits.coolDownMs), `handle lookup refused: ${err.message}`, now);
      }
      const why = err instanceof PlatformError ? err.outcome : 'error';
      throw new ApiError('server', { detail: `kanal adı çözümlenemedi (platform: ${why})`, channelId: '' }, { cause: err });
    }
    if (channelId === null) {
      await this.store.putUnknownHandle(handle, now);
      return null;
    }
    if (!CHANNEL_ID.test(channelId)) {
      throw new ApiError('server', { detail: 'kanal adı çözümlenemedi (platform: beklenmeyen yanıt)', channelId: '' });
    }
    await this.store.putHandle(handle, channelId, now);
    return channelId;
  }
}
