// A channel reference as import files write it, reduced to a channel id or a handle: everything
// GET / accepts (a channel id, a handle with or without `@`, the channel URL forms of the spec),
// plus what feed readers and the apps put in their exports: the platform's own channel feed URL
// (`…/feeds/videos.xml?channel_id=UC…`, http or https, with or without www), and every channel URL
// form people copy from a browser's address bar: `http://` (the platform's Takeout writes those),
// `m.` or bare `youtube.com`, no scheme at all, a tab after the channel (`/videos`, `/featured`,
// `/shorts` …, dropped), the legacy `/c/<name>` and `/user/<name>` (followed as the handle of that
// name: the platform gave channels with a custom or legacy name the same handle when handles came),
// and an Invidious instance's `/feed/channel/UC…` or `/channel/UC…`. Being liberal here costs
// nothing: only an id or handle is taken, and GET /'s `channel_url` keeps the spec's strict forms. A playlist is named by a URL only (a bare
// playlist id can read as a handle): its page (`…/playlist?list=…`), the platform's playlist feed
// (`…/feeds/videos.xml?playlist_id=…`) or this service's own playlist feed (`…/?playlist_id=…`, as
// GET /subscriptions exports it). Only a channel id, handle or playlist id is taken from a URL: no
// URL from a file is ever fetched.

import { parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID } from '../../shared/ids';
import { PLAYLIST_ID } from '../../shared/playlist-ref';

/** What a key can follow: a channel (by id or handle) or a playlist. */
export type FollowRef = ChannelRef | { readonly kind: 'playlist'; readonly playlistId: string };

const ID = CHANNEL_ID.source.slice(1, -1);
/** The platform's channel feed: `channel_id` anywhere in its query. */
const PLATFORM_FEED = new RegExp(`^https?://(?:www\\.)?youtube\\.com/feeds/videos\\.xml\\?(?:[^#]*&)?channel_id=(${ID})(?:[&#].*)?$`, 'i');
/** The tabs of a channel page, as a copied address may end (`…/@name/videos`): the channel is meant. */
const TAB = '(?:videos|featured|shorts|streams|live|playlists|community|posts|podcasts|releases|courses|store|about|channels|search)';
/**
 * A platform channel page on the hosts people copy from (http, https or no scheme; www, m or bare):
 * `/channel/<id>`, `/@<handle>`, `/c/<name>` or `/user/<name>`, then at most one tab.
 */
export const PLATFORM_PAGE = new RegExp(`^(?:https?://)?(?:www\\.|m\\.)?youtube\\.com/(?:channel/(${ID})|@([A-Za-z0-9_-]{1,30})|(?:c|user)/([A-Za-z0-9_-]{1,30}))(?:/${TAB})?/?(?:[?#].*)?$`, 'i');
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
  // The host and path words match in any case; an id keeps its own (`uc…` names no channel).
  if (page) return page[1] !== undefined ? (CHANNEL_ID.test(page[1]) ? { kind: 'id', channelId: page[1] } : null) : { kind: 'handle', handle: (page[2] ?? page[3])! };
  const frontEnd = FRONT_END.exec(text);
  return frontEnd ? { kind: 'id', channelId: frontEnd[1]! } : null;
}
