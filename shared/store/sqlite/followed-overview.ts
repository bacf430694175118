// followedOverview: a key's subscriptions with what is stored of each and its crawl state, in one
// statement. Each followed channel's count and newest date are correlated reads of the videos_feed
// partial index (its channel's range only), a playlist's those of the videos its listing names, so
// a key following 1,000 channels costs one query, not one per channel.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { FEED_ENTRY_SQL } from '../rules';
import type { FollowedOverview, SubscriptionSource } from '../types';

interface OverviewRow {
  channel_id: string | null;
  handle: string | null;
  title: string | null;
  source: string;
  since: number;
  kind: string;
  has_work: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_outcome: string | null;
  due_at: number | null;
  last_crawl_at: number | null;
  stored: number;
  newest: number | null;
}

/** A playlist's listed videos that are feed entries (json_each has no `state`: FEED_ENTRY_SQL reads the video's). */
const LISTED = `FROM json_each((SELECT p.video_ids FROM playlists p WHERE p.playlist_id = s.ref)) j JOIN videos ON videos.video_id = j.value WHERE ${FEED_ENTRY_SQL}`;
const OWN = `FROM videos WHERE videos.channel_id = s.channel_id AND ${FEED_ENTRY_SQL}`;

export function followedOverviewTable(db: Database.Database): Pick<BackendMethods, 'followedOverview'> {
  const list = db.prepare<[string], OverviewRow>(`
    SELECT s.channel_id, s.handle, COALESCE(NULLIF(c.title, ''), s.title) AS title, s.source, s.since,
      COALESCE(c.kind, s.queued_kind, 'channel') AS kind,
      c.channel_id IS NOT NULL AS has_work, c.lease_owner, c.lease_expires_at, c.last_outcome, c.due_at, c.last_crawl_at,
      CASE WHEN s.channel_id IS NULL THEN 0 WHEN c.kind = 'playlist' THEN (SELECT COUNT(*) ${LISTED}) ELSE (SELECT COUNT(*) ${OWN}) END AS stored,
      CASE WHEN s.channel_id IS NULL THEN NULL WHEN c.kind = 'playlist' THEN (SELECT MAX(videos.published_at) ${LISTED}) ELSE (SELECT MAX(published_at) ${OWN}) END AS newest
    FROM subscriptions s LEFT JOIN channels c ON c.channel_id = s.channel_id
    WHERE s.key_id = ? ORDER BY s.since, s.ref`);

  return {
    followedOverview(keyId): FollowedOverview[] {
      return list.all(keyId).map((r) => ({
        channelId: r.channel_id,
        kind: r.kind === 'playlist' ? 'playlist' : 'channel',
        handle: r.handle,
        title: r.title,
        source: r.source as SubscriptionSource,
        since: new Date(r.since),
        stored: r.stored,
        newestAt: r.newest === null ? null : new Date(r.newest),
        work: r.has_work !== 1 || r.due_at === null
          ? null
          : {
            leaseOwner: r.lease_owner,
            leaseExpiresAt: r.lease_expires_at === null ? null : new Date(r.lease_expires_at),
            lastOutcome: r.last_outcome,
            dueAt: new Date(r.due_at),
            lastCrawlAt: r.last_crawl_at === null ? null : new Date(r.last_crawl_at),
          },
      }));
    },
  };
}
