// Channel reference → channel id. An id is used as is; a handle is looked up in the store's cache
// and, on a miss, costs exactly one platform request whose answer is cached (an unknown handle for
// UNKNOWN_HANDLE_TTL_MS). Concurrent requests for the same uncached handle share that one request.
//
// That request is the platform's guest quota, the one the crawler paces itself under, so a lookup
// (handleLookupLimits) is made only when: the key has asked for fewer than `perKeyPerMinute` new
// handles this minute (counted in the store, so across API processes; 429 with retry_after beyond);
// no "try again later" cool-down is in force (the crawler's, or one a lookup started, read from the
// store); and the hourly budget every process shares (CRAWL_REQUESTS_PER_HOUR) has room. Each
// lookup is counted into that budget. Refused, the request gets 429 at once and nothing is sent. Only a
// lookup that is sent uses one of the key's: asking while none may be sent (below) counts nothing.
//
// A lookup the platform cannot answer (no network, a refused connection, a timeout, or a block)
// says nothing about the handle: the request gets the channel_id form's 404 with a message naming
// the cause and the next try (errors.ts handleNotReached), and the feed route queues the handle for
// the crawler as an import does. While a cool-down is in force, or for UNREACHABLE_RETRY_MS after
// the platform could not be reached, new handles get that 404 without a lookup: a dead network is
// not asked again for every reader's poll.

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

/**
 * How long after an unreachable platform new handles are not looked up by this process: the
 * crawler's round of queued handles comes about as often (crawler/scheduler.ts HANDLE_ROUND_EVERY_MS).
 */
export const UNREACHABLE_RETRY_MS = 60_000;

/** The 404 for a handle the platform could not be asked about, and when it is asked again. */
function notReached(handle: string, state: 'blocked' | 'unreachable', nextTryAt: Date, now: Date): ApiError {
  return new ApiError('handleNotReached', { handle, crawl: { state, nextTryAt, now } });
}

/** The per-key lookup counter's id: its own domain, never equal to a key's request counter. */
const lookupCounterId = (keyId: string): string => `handle-lookups:${keyId}`;

export class ChannelResolver {
  private readonly pending = new SingleFlight<string, string | null>();
  /** Until when (ms) this process does not look up new handles: the platform could not be reached. */
  private unreachableUntil = Number.NEGATIVE_INFINITY;

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
    if (cached === null && !this.pending.has(handle)) await this.mayLookUp(ref.handle, now, keyId);
    const channelId = cached ?? (await this.lookup(ref.handle, handle, now));
    if (channelId === null) throw new ApiError('unknownHandle', { handle: ref.handle });
    return { channelId, handle };
  }

  /** Throws the catalogue's 429 when a new lookup may not be sent now (see the top of the file). */
  private async mayLookUp(asGiven: string, now: Date, keyId: string | undefined): Promise<void> {
    const coolDown = await this.store.platformCoolDown(now);
    if (coolDown !== null) throw notReached(asGiven, 'blocked', coolDown.until, now);
    if (now.getTime() < this.unreachableUntil) throw notReached(asGiven, 'unreachable', new Date(this.unreachableUntil), now);
    if (this.limits.perHour > 0 && (await this.store.platformRequestsInHour(now)) >= this.limits.perHour) throw new ApiError('platformBusy');
    // Counted last, so only a lookup that is then sent uses one of the key's: a reader polling its
    // feed while no lookup may be sent gets the 404 each time, not 429 after its tenth poll.
    if (keyId !== undefined) {
      const hit = await this.store.hitRateLimit(lookupCounterId(keyId), this.limits.perKeyPerMinute, now);
      if (!hit.allowed) throw new ApiError('handleLookupsLimited', { limit: this.limits.perKeyPerMinute });
    }
  }

  private lookup(asGiven: string, handle: string, now: Date): Promise<string | null> {
    return this.pending.run(handle, () => this.ask(asGiven, handle, now));
  }

  private async ask(asGiven: string, handle: string, now: Date): Promise<string | null> {
    let channelId: string | null;
    await this.store.addPlatformRequests('api', 1, now);
    try {
      channelId = await this.platform.resolveHandle(asGiven);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw new ApiError('server', { detail: 'kanal adı çözümlenemedi (platform: error)', channelId: '' }, { cause: err });
      if (err.outcome === 'not_found') {
        await this.store.putUnknownHandle(handle, now);
        return null;
      }
      if (err.outcome === 'blocked') {
        // Every process stays away from the platform for a while, the crawler included.
        const until = new Date(now.getTime() + this.limits.coolDownMs);
        await this.store.setPlatformCoolDown(until, `handle lookup refused: ${err.message}`, now);
        throw notReached(asGiven, 'blocked', until, now);
      }
      // No answer about the handle (network, timeout, a platform error page): not asked again for a while.
      this.unreachableUntil = now.getTime() + UNREACHABLE_RETRY_MS;
      throw notReached(asGiven, 'unreachable', new Date(this.unreachableUntil), now);
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
