// Playlists: what the crawler last listed of each followed or asked-for playlist.

/** What the crawler last saw of a playlist: listed, or the platform's private / does-not-exist answer. */
export type PlaylistState = 'listed' | 'private' | 'deleted';

/**
 * A playlist as the crawler last listed it. Its work item (leases, wanted, backoff) is a
 * ChannelRecord of kind `playlist` with the same id; its videos are ordinary video records, shared
 * with every channel and playlist that lists them.
 */
export interface PlaylistRecord {
  playlistId: string;
  title: string | null;
  /** The owner's channel name: the feed's author. */
  owner: string | null;
  ownerChannelId: string | null;
  state: PlaylistState;
  /** Video ids in the playlist's own order (its first entries, unavailable ones left out). */
  videoIds: string[];
  /** When the crawler stored this listing. */
  listedAt: Date;
  /** When title, owner, state or entries last changed (a listing that changes nothing keeps it). */
  changedAt: Date;
}

/** Playlist listings. */
export interface PlaylistStore {
  /**
   * Store the crawler's listing of a playlist (replacing the previous one); `changedAt` becomes
   * `now` when anything differs from what was stored, else it stays. Returns what is stored.
   */
  putPlaylist(playlist: Omit<PlaylistRecord, 'changedAt' | 'listedAt'>, now: Date): Promise<PlaylistRecord>;
  getPlaylist(playlistId: string): Promise<PlaylistRecord | null>;
}
