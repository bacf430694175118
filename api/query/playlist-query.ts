// Validation of a playlist feed's query (GET /?playlist_id=… or ?playlist_url=…): the playlist, then
// format, max_items, include and lang exactly as for channel feeds (feed-query.ts). A request names
// a playlist only when it names no channel: channel_id, channel and channel_url win, in that order,
// then playlist_id, then playlist_url (README "Decisions").

import { isPlaylistId, parsePlaylistUrl } from '../../shared/playlist-ref';
import { validateFeedOptions, type Checked, type FeedOptions, type RawQuery } from './feed-query';

export interface PlaylistFeedQuery extends FeedOptions {
  readonly playlistId: string;
}

const CHANNEL_PARAMS = ['channel_id', 'channel', 'channel_url'] as const;
const PLAYLIST_PARAMS = ['playlist_id', 'playlist_url'] as const;

const given = (query: RawQuery, name: string): boolean => {
  const v = Object.prototype.hasOwnProperty.call(query, name) ? query[name] : undefined;
  return v !== undefined && v !== '';
};

/** Whether GET / is asked for a playlist's feed rather than a channel's. */
export function isPlaylistQuery(query: RawQuery): boolean {
  return !CHANNEL_PARAMS.some((p) => given(query, p)) && PLAYLIST_PARAMS.some((p) => given(query, p));
}

export function validatePlaylistQuery(query: RawQuery): Checked<PlaylistFeedQuery> {
  for (const name of PLAYLIST_PARAMS) {
    if (given(query, name) && typeof query[name] !== 'string') return { ok: false, error: 'repeatedParameter', context: { param: name } };
  }
  let playlistId: string;
  if (given(query, 'playlist_id')) {
    const id = query.playlist_id as string;
    if (!isPlaylistId(id)) return { ok: false, error: 'invalidPlaylistId' };
    playlistId = id;
  } else {
    const id = parsePlaylistUrl(query.playlist_url as string);
    if (id === null) return { ok: false, error: 'invalidPlaylistUrl' };
    playlistId = id;
  }
  const options = validateFeedOptions(query);
  return options.ok ? { ok: true, value: { ...options.value, playlistId } } : options;
}
