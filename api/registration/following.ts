// What a feed request does before it reads anything: GET / (a channel's feed or a playlist's)
// registers the work item, within the key's new-channel budget, and makes the key follow it. The
// web app's Add box (api/webapp/follow-routes.ts) does exactly this too, so the two never differ
// in refusals, budget or what the crawler is given.

import { categoryLogger, type Logger } from '../../shared/logger';
import type { PlatformClient } from '../../shared/platform/types';
import type { ChannelRecord, FollowStore, HandleLookupStore, RegistrationStore } from '../../shared/store/types';
import { normalizeHandle, type ChannelRef } from '../../shared/channel-ref';
import type { ApiCache } from '../cache';
import { ApiError } from '../errors';
import { ChannelResolver, type HandleLookupLimits, type ResolvedChannel } from '../resolve-channel';
import { ChannelRegistrar } from './channel-registrar';
import { FollowRecorder } from './follow-recorder';

export interface PlaylistFollowingDeps {
  store: RegistrationStore & FollowStore;
  cache: ApiCache;
  /** CRAWL_NEW_CHANNELS_PER_KEY_HOUR; left out: no bound. */
  newChannelsPerKeyHour?: number;
}

export interface FollowingDeps extends PlaylistFollowingDeps {
  store: RegistrationStore & FollowStore & HandleLookupStore;
  platform: Pick<PlatformClient, 'resolveHandle'>;
  handleLookups?: HandleLookupLimits;
  logger: Logger;
}

/** Registering and following a playlist, as its feed request does. */
export class PlaylistFollowing {
  readonly registrar: ChannelRegistrar;
  protected readonly follows: FollowRecorder;

  constructor(protected readonly deps: PlaylistFollowingDeps) {
    this.registrar = new ChannelRegistrar(deps.store, deps.cache, deps.newChannelsPerKeyHour);
    this.follows = new FollowRecorder(deps.store, deps.cache);
  }

  async playlist(playlistId: string, keyId: string, wanted: number, now: Date): Promise<ChannelRecord> {
    const work = await this.registrar.register({ channelId: playlistId, kind: 'playlist', wanted, keyId }, now);
    await this.follows.record(keyId, playlistId, wanted, now, 'playlist');
    return work;
  }
}

/** …and a channel: its reference resolved first (a handle by the store's cache or one platform lookup). */
export class ChannelFollowing extends PlaylistFollowing {
  private readonly resolver: ChannelResolver;
  private readonly log: Logger;

  constructor(private readonly channelDeps: FollowingDeps) {
    super(channelDeps);
    this.resolver = new ChannelResolver(channelDeps.store, channelDeps.platform, channelDeps.handleLookups);
    this.log = categoryLogger(channelDeps.logger, 'api.feed');
  }

  /**
   * The channel a reference names. A handle the platform could not be asked about is followed by
   * the key as an import follows it, so the crawler resolves it when the platform answers again;
   * the 404 is thrown on.
   */
  async resolve(ref: ChannelRef, keyId: string, wanted: number, now: Date): Promise<ResolvedChannel> {
    try {
      return await this.resolver.resolve(ref, now, keyId);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'handleNotReached' && ref.kind === 'handle') {
        await this.channelDeps.store.follow(keyId, [{ handle: ref.handle }], 'feed', wanted, now);
        this.log.info({ handle: normalizeHandle(ref.handle) }, 'handle not resolved (platform unreachable or blocking); queued for the crawler');
      }
      throw err;
    }
  }

  /** The resolved channel's work item registered (the key's new-channel budget first) and followed by the key. */
  async channel(resolved: ResolvedChannel, keyId: string, wanted: number, now: Date): Promise<ChannelRecord> {
    const record = await this.registrar.register({ channelId: resolved.channelId, wanted, handle: resolved.handle, keyId }, now);
    await this.follows.record(keyId, resolved.channelId, wanted, now);
    return record;
  }
}
