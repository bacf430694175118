// A channel reference as import files write it, reduced to a channel id or a handle: everything
// GET / accepts (a channel id, a handle with or without `@`, the channel URL forms of the spec),
// plus what feed readers and the apps put in their exports: the platform's own channel feed URL
// (`…/feeds/videos.xml?channel_id=UC…`, http or https, with or without www), `http://` channel URLs
// (the platform's Takeout writes those), NewPipe's `m.` / `youtube.com` variants, and an Invidious
// instance's `/feed/channel/UC…` or `/channel/UC…`. Only a channel id or handle is taken from a URL:
// no URL from a file is ever fetched.

import { parseChannelUrl, parseHandle, type ChannelRef } from '../../shared/channel-ref';
import { CHANNEL_ID } from '../../shared/ids';

const ID = CHANNEL_ID.source.slice(1, -1);
/** The platform's channel feed: `channel_id` anywhere in its query. */
const PLATFORM_FEED = new RegExp(`^https?://(?:www\\.)?youtube\\.com/feeds/videos\\.xml\\?(?:[^#]*&)?channel_id=(${ID})(?:[&#].*)?$`, 'i');
/** A platform channel page on the hosts the apps write (http or https; www, m or bare). */
const PLATFORM_PAGE = /^https?:\/\/(?:www\.|m\.)?youtube\.com(\/(?:channel\/[^/?#]+|@[^/?#]+)\/?)(?:[?#].*)?$/i;
/** A front-end instance's channel feed or page (Invidious exports `<instance>/feed/channel/UC…`). */
const FRONT_END = new RegExp(`^https?://[A-Za-z0-9.-]+(?::\\d{1,5})?/(?:feed/)?channel/(${ID})/?(?:[?#].*)?$`);

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
