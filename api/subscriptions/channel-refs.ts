// A channel reference as import files write it, reduced to a channel id or a handle: everything
// GET / accepts (a channel id, a handle with or without `@`, the channel URL forms of the spec),
// plus what feed readers and the apps put in their exports: the platform's own channel feed URL
// (`…/feeds/videos.xml?channel_id=UC…`, http or https, with or without www), `http://` channel URLs
// (the platform's Takeout writes those), NewPipe's `m.` / `youtube.com` variants, and an Invidious
// instance's `/feed/channel/UC…` or `/channel/UC…`. A playlist is named by a URL only (a bare
// playlist id can read as a handle): its page (`…/playlist?list=…`), the platform's playlist feed
// (`…/feeds/videos.xml?playlist_id=…`) or this service's own playlist feed (`…/?playlist_id=…`, as
// GET /subscriptions exports it). Only a channel id, handle or playlist id is taken from a URL: no
// URL from a file is ever fetched.

import { parseChannelUrl, parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID } from '../../shared/ids';
import { PLAYLIST_ID } from '../../shared/playlist-ref';

/** What a key can follow: a channel (by id or handle) or a playlist. */
export type FollowRef = ChannelRef | { readonly kind: 'playlist'; readonly playlistId: string };

const ID = CHANNEL_ID.source.slice(1, -1);
/** The platform's channel feed: `channel_id` anywhere in its query. */
const PLATFORM_FEED = new RegExp(`^https?://(?:www\\.)?youtube\\.com/feeds/videos\\.xml\\?(?:[^#]*&)?channel_id=(${ID})(?:[&#].*)?$`, 'i');
/** A platform channel page on the hosts the apps write (http or https; www, m or bare). */
const PLATFORM_PAGE = /^https?:\/\/(?:www\.|m\.)?youtube\.com(\/(?:channel\/[^/?#]+|@[^/?#]+)\/?)(?:[?#].*)?$/i;
/** A front-end instance's channel feed or page (Invidious exports `<instance>/feed/channel/UC…`). */
const FRONT_END = new RegExp(`^https?://[A-Za-z0-9.-]+(?::\\d{1,5})?/(?:feed/)?channel/(${ID})/?(?:[?#].*)?$`);

const LIST = PLAYLIST_ID.source.slice(1, -1);
/** A playlist's page on the platform (http or https; www, m or bare), `list` anywhere in its query. */
const PLAYLIST_PAGE = new RegExp(`^https?://(?:www\\.|m\\.)?youtube\\.com/playlist\\?(?:[^#]*&)?list=(${LIST})(?:[&#].*)?$`, 'i');
/** A playlist feed: the platform's (`/feeds/videos.xml`) or a transcript feed's (`/`), `playlist_id` anywhere in its query. */
const PLAYLIST_FEED = new RegExp(`^https?://[A-Za-z0-9.-]+(?::\\d{1,5})?(?:/[^?#]*)?/(?:feeds/videos\\.xml)?\\?(?:[^#]*&)?playlist_id=(${LIST})(?:[&#].*)?$`, 'i');

/** The channel or playlist `raw` names, or null when it names none this service can follow. */
export function followRefOf(raw: string): FollowRef | null {
  const text = raw.trim();
  const playlist = PLAYLIST_PAGE.exec(text) ?? PLAYLIST_FEED.exec(text);
  if (playlist) return { kind: 'playlist', playlistId: playlist[1]! };
  return channelRefOf(text);
}

/** The channel `raw` names, or null when it names none this service can follow. */
export function channelRefOf(raw: string): ChannelRef | null {
  const text = raw.trim();
  if (text === '') return null;
  if (CHANNEL_ID.test(text)) return { kind: 'id', channelId: text };
  if (!text.includes('/')) return parseHandle(text);
  const feed = PLATFORM_FEED.exec(text);
  if (feed) return { kind: 'id', channelId: feed[1]! };
  const page = PLATFORM_PAGE.exec(text);
  if (page) return parseChannelUrl(`https://www.youtube.com${page[1]!}`);
  const frontEnd = FRONT_END.exec(text);
  if (frontEnd) return { kind: 'id', channelId: frontEnd[1]! };
  return parseChannelUrl(text);
}
