// GET /feeds/videos.xml: the platform's Atom feeds, laid out like the real ones.
// * ?channel_id=UC…: exactly the 15 newest uploads (Shorts included, linked as /shorts/<id>),
//   newest first, dates with `+00:00`, and the quirk that the feed-level `id` and `yt:channelId`
//   drop the leading `UC`.
// * ?playlist_id=…: the playlist's FIRST 15 entries in its own order, feed-level `yt:playlistId`,
//   the playlist's title and its owner as `author`; every entry with its own video's
//   `yt:channelId`, uploader and exact `published`. Private, deleted or unknown playlists: the
//   HTML 404 page.
// Both feeds' entries are one shape; the playlist feed links every entry with /watch and leaves
// out the community statistics.

import type { FakeChannelSpec, FakePlaylistSpec, FakeVideoSpec, PlaylistEntry } from './types';
import type { FakeContext } from './context';
import { errorPage } from './errors';
import { escapeXml, xml, type FakeRequest, type FakeResponse } from './http';
import { hashString } from '../support/random';
import { feedDate, viewCount } from './texts';
import { PLAYLIST_FEED_SIZE } from './playlist-json';

export const FEED_SIZE = 15;

function entry(channel: FakeChannelSpec, video: FakeVideoSpec, feed: 'channel' | 'playlist'): string {
  const id = video.videoId;
  const link = video.short && feed === 'channel' ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`;
  // `updated` moves when the platform touches a video (views, edits): some time after publishing.
  const updated = new Date(video.publishedAt.getTime() + (hashString(id) % 86_400) * 1000);
  const title = escapeXml(video.title);
  return ` <entry>
  <id>yt:video:${id}</id>
  <yt:videoId>${id}</yt:videoId>
  <yt:channelId>${channel.channelId}</yt:channelId>
  <title>${title}</title>
  <link rel="alternate" href="${link}"/>
  <author>
   <name>${escapeXml(channel.title)}</name>
   <uri>https://www.youtube.com/channel/${channel.channelId}</uri>
  </author>
  <published>${feedDate(video.publishedAt)}</published>
  <updated>${feedDate(updated)}</updated>
  <media:group>
   <media:title>${title}</media:title>
   <media:content url="https://www.youtube.com/v/${id}?version=3" type="application/x-shockwave-flash" width="640" height="390"/>
   <media:thumbnail url="https://i${(hashString(id) % 4) + 1}.ytimg.com/vi/${id}/hqdefault.jpg" width="480" height="360"/>
   <media:description>${escapeXml(`${video.title}\n\nSubscribe for more from ${channel.title}.`)}</media:description>
${feed === 'channel' ? `   <media:community>
    <media:starRating count="${viewCount(id) % 997}" average="5.00" min="1" max="5"/>
    <media:statistics views="${viewCount(id)}"/>
   </media:community>
` : ''}  </media:group>
 </entry>
`;
}

export function feedXml(channel: FakeChannelSpec): string {
  const bare = channel.channelId.slice(2);
  const oldest = channel.videos[channel.videos.length - 1];
  const created = oldest ? new Date(oldest.publishedAt.getTime() - 30 * 86_400_000) : new Date('2015-01-01T00:00:00Z');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
 <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=${channel.channelId}"/>
 <id>yt:channel:${bare}</id>
 <yt:channelId>${bare}</yt:channelId>
 <title>${escapeXml(channel.title)}</title>
 <link rel="alternate" href="https://www.youtube.com/channel/${channel.channelId}"/>
 <author>
  <name>${escapeXml(channel.title)}</name>
  <uri>https://www.youtube.com/channel/${channel.channelId}</uri>
 </author>
 <published>${feedDate(created)}</published>
${channel.videos
  .slice(0, FEED_SIZE)
  .map((v) => entry(channel, v, 'channel'))
  .join('')}</feed>
`;
}

export function feedRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const playlistId = req.query.get('playlist_id');
  if (playlistId !== null) return playlistFeedRoute(ctx, playlistId);
  const channel = ctx.catalog.channel(req.query.get('channel_id') ?? '');
  if (!channel) return errorPage(404);
  const outage = ctx.scenarios.feedStatus;
  if (outage !== null) return errorPage(outage);
  return xml(feedXml(channel), 200, { 'cache-control': 'public, max-age=900' });
}

export function playlistFeedXml(playlist: FakePlaylistSpec, owner: FakeChannelSpec, entries: readonly PlaylistEntry[]): string {
  const shown = entries.flatMap((e) => (e.kind === 'video' ? [e] : [])).slice(0, PLAYLIST_FEED_SIZE);
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
 <link rel="self" href="http://www.youtube.com/feeds/videos.xml?playlist_id=${playlist.playlistId}"/>
 <id>yt:playlist:${playlist.playlistId}</id>
 <yt:playlistId>${playlist.playlistId}</yt:playlistId>
 <yt:channelId>${owner.channelId.slice(2)}</yt:channelId>
 <title>${escapeXml(playlist.title)}</title>
 <link rel="alternate" href="https://www.youtube.com/playlist?list=${playlist.playlistId}"/>
 <author>
  <name>${escapeXml(owner.title)}</name>
  <uri>https://www.youtube.com/channel/${owner.channelId}</uri>
 </author>
 <published>2019-03-01T10:00:00+00:00</published>
${shown.map((e) => entry(e.channel, e.video, 'playlist')).join('')}</feed>
`;
}

export function playlistFeedRoute(ctx: FakeContext, playlistId: string): FakeResponse {
  const found = ctx.catalog.playlist(playlistId);
  if (!found || found.playlist.state !== undefined) return errorPage(404);
  const outage = ctx.scenarios.feedStatus;
  if (outage !== null) return errorPage(outage);
  return xml(playlistFeedXml(found.playlist, found.owner, found.entries), 200, { 'cache-control': 'public, max-age=900' });
}
