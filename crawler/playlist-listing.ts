// A playlist run's first step, in place of the channel listing: list the playlist's first `wanted`
// available entries in its own order (one feed request, browse pages only for more), store that
// listing (the feed's order, title and owner), and hand on the entries that need work. Videos are
// shared with every channel and playlist: one already stored is never fetched again for the
// playlist. A private or deleted playlist is stored as such (the API answers its own 404) and the
// run ends as not found, which backs off and finally retires it like a channel that does not exist.

import type { Logger } from '../shared/logger';
import { PlaylistUnavailableError, type PlatformClient } from '../shared/platform/types';
import type { ChannelRecord, Store } from '../shared/store/types';
import type { ChannelWork } from './channel-listing';
import type { RequestContext } from './blocked-path';
import type { PlatformCall } from './video-fetch';

export interface PlaylistListingDeps {
  readonly store: Store;
  readonly platform: PlatformClient;
  readonly call: PlatformCall;
  readonly logger: Logger;
  readonly now: () => Date;
}

/** Platform failures propagate like the channel listing's; PlaylistUnavailableError after the store has recorded it. */
export async function listPlaylistWork(deps: PlaylistListingDeps, work: ChannelRecord): Promise<ChannelWork> {
  const { store, platform, call } = deps;
  const playlistId = work.channelId;
  const ctx: RequestContext = { channelId: playlistId, path: `/playlist?list=${playlistId}` };
  let listing;
  try {
    listing = await call(ctx, () => platform.listPlaylist(playlistId, work.wanted));
  } catch (err) {
    if (err instanceof PlaylistUnavailableError) {
      const previous = await store.getPlaylist(playlistId);
      await store.putPlaylist({ playlistId, title: previous?.title ?? null, owner: previous?.owner ?? null, ownerChannelId: previous?.ownerChannelId ?? null, state: err.state, videoIds: [] }, deps.now());
      deps.logger.warning({ channelId: playlistId, state: err.state, reason: err.reason }, 'playlist is not available on the platform');
    }
    throw err;
  }
  // A video whose uploader the listing does not name is filed under the playlist's owner, else the
  // playlist itself, so it is never shown in a channel feed it does not belong to.
  const fallbackChannel = listing.ownerChannelId ?? playlistId;
  const listed = listing.videos.map((v) => ({ ...v, channelId: v.channelId ?? fallbackChannel }));
  await store.putPlaylist(
    { playlistId, title: listing.title, owner: listing.owner, ownerChannelId: listing.ownerChannelId, state: 'listed', videoIds: listed.map((v) => v.videoId) },
    deps.now(),
  );
  const needingWork = new Set(await store.videosNeedingWork(listed.map((v) => v.videoId), deps.now()));
  deps.logger.debug({ channelId: playlistId, listed: listed.length, unavailable: listing.unavailable, pending: needingWork.size }, 'playlist listed');
  return {
    title: listing.title,
    mode: listing.mode,
    listed,
    pending: listed.filter((v) => needingWork.has(v.videoId)),
    coverage: listed.length,
    fresh: needingWork.size,
  };
}
