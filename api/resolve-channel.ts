// Channel reference → channel id. An id is used as is; a handle is looked up in the store's cache
// and, on a miss, costs exactly one platform request whose answer is cached (an unknown handle for
// UNKNOWN_HANDLE_TTL_MS). Concurrent requests for the same uncached handle share that one request.

import type { PlatformClient } from '../shared/platform/types';
import { PlatformError } from '../shared/platform/types';
import type { Store } from '../shared/store/types';
import { ApiError } from './errors';
import type { ChannelRef } from '../shared/channel-ref';
import { CHANNEL_ID } from '../shared/ids';

export interface ResolvedChannel {
  readonly channelId: string;
  /** Lower-cased handle without `@` when the request named one. */
  readonly handle: string | null;
}

export class ChannelResolver {
  private readonly pending = new Map<string, Promise<string | null>>();

  constructor(
    private readonly store: Pick<Store, 'getHandle' | 'putHandle' | 'putUnknownHandle' | 'isUnknownHandle'>,
    private readonly platform: Pick<PlatformClient, 'resolveHandle'>,
  ) {}

  async resolve(ref: ChannelRef, now: Date): Promise<ResolvedChannel> {
    if (ref.kind === 'id') return { channelId: ref.channelId, handle: null };
    const handle = ref.handle.toLowerCase();
    const cached = await this.store.getHandle(handle);
    // A handle the platform said does not exist is not asked about again for a while (store/rules.ts).
    if (cached === null && (await this.store.isUnknownHandle(handle, now))) throw new ApiError('channelNotFound');
    const channelId = cached ?? (await this.lookup(ref.handle, handle, now));
    if (channelId === null) throw new ApiError('channelNotFound');
    return { channelId, handle };
  }

  private lookup(asGiven: string, handle: string, now: Date): Promise<string | null> {
    let p = this.pending.get(handle);
    if (!p) {
      p = this.ask(asGiven, handle, now).finally(() => this.pending.delete(handle));
      this.pending.set(handle, p);
    }
    return p;
  }

  private async ask(asGiven: string, handle: string, now: Date): Promise<string | null> {
    let channelId: string | null;
    try {
      channelId = await this.platform.resolveHandle(asGiven);
    } catch (err) {
      if (err instanceof PlatformError && err.outcome === 'not_found') {
        await this.store.putUnknownHandle(handle, now);
        return null;
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
