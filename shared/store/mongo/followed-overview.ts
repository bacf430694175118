// followedOverview: a key's subscriptions with what is stored of each and its crawl state, in a
// fixed number of reads whatever the key follows: its subscriptions (key_since), their work items
// by `_id $in`, one aggregation over the videos' feed index grouped by channel, and for followed
// playlists their listings and the listed videos by `_id $in`. Never one query per channel.

import type { Db } from 'mongodb';
import type { BackendMethods } from '../call';
import type { FollowedOverview, SubscriptionSource } from '../types';
import type { ChannelDoc } from './channels';
import type { VideoDoc } from './videos';

interface SubscriptionRow {
  channelId: string | null;
  handle: string | null;
  title: string | null;
  source: SubscriptionSource;
  since: Date;
  kind?: 'playlist';
  queuedKind?: string;
}

interface Stored {
  stored: number;
  newestAt: Date | null;
}

const NONE: Stored = { stored: 0, newestAt: null };

export function followedOverviewCollection(db: Db): Pick<BackendMethods, 'followedOverview'> {
  const subscriptions = db.collection<SubscriptionRow & { keyId: string; ref: string }>('subscriptions');
  const channels = db.collection<ChannelDoc>('channels');
  const videos = db.collection<VideoDoc>('videos');
  const playlists = db.collection<{ _id: string; videoIds?: string[] }>('playlists');

  /** Feed entries by channel: one aggregation over the feed index's leading fields. */
  async function ofChannels(ids: readonly string[]): Promise<Map<string, Stored>> {
    if (ids.length === 0) return new Map();
    const rows = await videos
      .aggregate<{ _id: string; n: number; newest: Date }>([
        { $match: { channelId: { $in: [...ids] }, inFeed: true } },
        { $group: { _id: '$channelId', n: { $sum: 1 }, newest: { $max: '$publishedAt' } } },
      ])
      .toArray();
    return new Map(rows.map((r) => [r._id, { stored: r.n, newestAt: r.newest }]));
  }

  /** Feed entries among each playlist's listed videos: the listings, then their videos at once. */
  async function ofPlaylists(ids: readonly string[]): Promise<Map<string, Stored>> {
    if (ids.length === 0) return new Map();
    const listed = await playlists.find({ _id: { $in: [...ids] } }, { projection: { videoIds: 1 } }).toArray();
    const videoIds = [...new Set(listed.flatMap((p) => p.videoIds ?? []))];
    const entries = videoIds.length === 0 ? [] : await videos.find({ _id: { $in: videoIds }, inFeed: true }, { projection: { publishedAt: 1 } }).toArray();
    const published = new Map(entries.map((v) => [v._id, v.publishedAt]));
    return new Map(listed.map((p) => {
      const dates = [...new Set(p.videoIds ?? [])].flatMap((id) => { const d = published.get(id); return d === undefined ? [] : [d]; });
      return [p._id, { stored: dates.length, newestAt: dates.length === 0 ? null : new Date(Math.max(...dates.map((d) => d.getTime()))) }];
    }));
  }

  return {
    async followedOverview(keyId): Promise<FollowedOverview[]> {
      const subs = await subscriptions.find({ keyId }).sort({ since: 1, ref: 1 }).toArray();
      const ids = [...new Set(subs.flatMap((s) => (s.channelId === null ? [] : [s.channelId])))];
      const work = new Map(ids.length === 0 ? [] : (await channels.find({ _id: { $in: ids } }).toArray()).map((c) => [c._id, c]));
      const isPlaylist = (s: SubscriptionRow): boolean => (s.channelId !== null ? work.get(s.channelId)?.kind ?? s.kind ?? s.queuedKind : s.kind) === 'playlist';
      const playlistIds = subs.flatMap((s) => (s.channelId !== null && isPlaylist(s) ? [s.channelId] : []));
      const channelIds = subs.flatMap((s) => (s.channelId !== null && !isPlaylist(s) ? [s.channelId] : []));
      const [own, listed] = await Promise.all([ofChannels(channelIds), ofPlaylists(playlistIds)]);
      return subs.map((s): FollowedOverview => {
        const c = s.channelId === null ? undefined : work.get(s.channelId);
        const playlist = isPlaylist(s);
        const stored = s.channelId === null ? NONE : ((playlist ? listed : own).get(s.channelId) ?? NONE);
        return {
          channelId: s.channelId ?? null,
          kind: playlist ? 'playlist' : 'channel',
          handle: s.handle ?? null,
          title: c?.title || s.title || null,
          source: s.source,
          since: s.since,
          ...stored,
          work: c === undefined
            ? null
            : { leaseOwner: c.leaseOwner ?? null, leaseExpiresAt: c.leaseExpiresAt ?? null, lastOutcome: c.lastOutcome ?? null, dueAt: c.dueAt, lastCrawlAt: c.lastCrawlAt ?? null },
        };
      });
    },
  };
}
