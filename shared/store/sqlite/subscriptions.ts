// The subscriptions table: which channels each API key follows. A follow (an import of thousands
// of channels included) is one immediate transaction, so one lock and one commit; a channel's
// `followed` flag is kept in step inside the same transaction, which is what the crawler's
// selection reads (rules.ts REFRESHED_SQL). A followed playlist is a row like a channel's (ref and
// channel_id = the playlist id, its work item of kind 'playlist' in channels). An imported channel
// the store does not know waits in its key's queue (queued_kind set, no work item) until
// import-queue.ts gives it to the crawler within the key's hourly allowance; handles are resolved
// in turns by key, each platform ask stamped on the asking key's row (handle_asked_at).

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, DEFAULT_FEED_KINDS, FEED_ENTRY_SQL } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import type { SubscriptionFeedEntry, SubscriptionInput, SubscriptionRecord, SubscriptionSource, WorkKind } from '../types';

const HOUR_MS = 3_600_000;
import { COLUMNS as CHANNEL_COLUMNS, toRecord as toChannelRecord, type ChannelRow } from './channels';

interface SubscriptionRow {
  channel_id: string | null;
  handle: string | null;
  title: string | null;
  source: string;
  since: number;
  kind: string;
}

interface QueueRow {
  key_id: string;
  queued: number;
  handles: number;
}

interface FeedRow {
  video_id: string;
  channel_id: string;
  published_at: number;
  fetched_at: number;
  channel_title: string | null;
}

/** `ref`: the channel id, or '@handle' while only the handle is known. */
const handleRef = (handle: string): string => `@${handle}`;

function prepare(db: Database.Database) {
  const cachedHandle = db.prepare<[string], string>('SELECT channel_id FROM handles WHERE handle = ?').pluck();
  const insert = db.prepare<{ keyId: string; ref: string; channelId: string | null; handle: string | null; title: string | null; source: string; now: number; queuedKind: string | null }>(`
    INSERT INTO subscriptions (key_id, ref, channel_id, handle, title, source, since, queued_kind)
    VALUES (@keyId, @ref, @channelId, @handle, @title, @source, @now, @queuedKind)
    ON CONFLICT (key_id, ref) DO NOTHING`);
  const known = db.prepare<[string], number>('SELECT 1 FROM channels WHERE channel_id = ?').pluck();
  // A followed channel gets its work item: created due now when new; asked for now when known.
  const followChannel = db.prepare<{ channelId: string; kind: WorkKind; handle: string | null; wanted: number; now: number }>(`
    INSERT INTO channels (channel_id, kind, handle, wanted, due_at, consecutive_failures, created_at, followed, asked_at)
    VALUES (@channelId, @kind, @handle, @wanted, @now, 0, @now, 1, @now)
    ON CONFLICT (channel_id) DO UPDATE SET
      followed = 1, asked_at = MAX(COALESCE(asked_at, 0), excluded.asked_at), handle = COALESCE(handle, excluded.handle)`);
  const refollow = db.prepare<[string]>(
    'UPDATE channels SET followed = EXISTS (SELECT 1 FROM subscriptions WHERE subscriptions.channel_id = channels.channel_id) WHERE channel_id = ?',
  );
  // Nobody follows the channel any more: its push subscription is due now (the crawler ends it).
  const pushDueIfUnfollowed = db.prepare<[string]>(
    'UPDATE websub SET next_action_at = 0 WHERE channel_id = ? AND NOT EXISTS (SELECT 1 FROM subscriptions WHERE subscriptions.channel_id = websub.channel_id)',
  );
  const remove = db.prepare<[string, string], { channel_id: string | null }>('DELETE FROM subscriptions WHERE key_id = ? AND ref = ? RETURNING channel_id');
  const list = db.prepare<[string], SubscriptionRow>(`
    SELECT s.channel_id, s.handle, COALESCE(NULLIF(c.title, ''), s.title) AS title, s.source, s.since, COALESCE(c.kind, s.queued_kind, 'channel') AS kind
    FROM subscriptions s LEFT JOIN channels c ON c.channel_id = s.channel_id
    WHERE s.key_id = ? ORDER BY s.since, s.ref`);
  const followed = db.prepare<[string, number], ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE followed = 1 AND kind = 'channel' AND channel_id > ? ORDER BY channel_id LIMIT ?`,
  );
  // Newest feed entries first through videos_feed_recent; each is kept when the key follows its
  // channel (a primary-key probe) or when it is in the video ids the key's followed playlists list
  // (one list, built once per query from those playlists' rows), so the walk stops after `limit`
  // kept entries: SQLite must not start from the key's subscriptions and sort.
  const feed = db.prepare<{ keyId: string; kinds: string; limit: number }, FeedRow>(`
    SELECT v.video_id, v.channel_id, v.published_at, v.fetched_at,
      COALESCE(
        NULLIF((SELECT c.title FROM channels c WHERE c.channel_id = v.channel_id), ''),
        (SELECT s.title FROM subscriptions s WHERE s.key_id = @keyId AND s.ref = v.channel_id)
      ) AS channel_title
    FROM videos v
    WHERE ${FEED_ENTRY_SQL} AND coalesce(v.video_kind, 'regular') IN (SELECT value FROM json_each(@kinds))
      AND (
        EXISTS (SELECT 1 FROM subscriptions s WHERE s.key_id = @keyId AND s.ref = v.channel_id)
        OR v.video_id IN (
          SELECT j.value FROM subscriptions s JOIN playlists p ON p.playlist_id = s.ref, json_each(p.video_ids) j
          WHERE s.key_id = @keyId AND p.state = 'listed'
        )
      )
    ORDER BY v.published_at DESC, v.video_id LIMIT @limit`);
  // Each key's due handles numbered oldest first (turn), the key's asks of the hour beside them:
  // first turns before second ones, within a turn the key asked least recently first.
  const handlesToResolve = db.prepare<{ retryBefore: number; hourAgo: number; perKey: number; limit: number }, { key_id: string; handle: string }>(`
    WITH due AS (
      SELECT key_id, handle, ROW_NUMBER() OVER (PARTITION BY key_id ORDER BY since, handle) AS turn
      FROM subscriptions WHERE handle IS NOT NULL AND (checked_at IS NULL OR checked_at < @retryBefore)
    ), asked AS (
      SELECT key_id, COUNT(*) AS asks, MAX(handle_asked_at) AS last FROM subscriptions
      WHERE handle_asked_at >= @hourAgo GROUP BY key_id
    )
    SELECT due.key_id, due.handle FROM due LEFT JOIN asked ON asked.key_id = due.key_id
    WHERE due.turn <= @perKey - COALESCE(asked.asks, 0)
    ORDER BY due.turn, COALESCE(asked.last, 0), due.key_id LIMIT @limit`);
  const stampAsk = db.prepare<[number, string, string]>('UPDATE subscriptions SET handle_asked_at = ? WHERE key_id = ? AND handle = ?');
  // A resolved handle's rows become the channel's: queued when the channel has no work item yet.
  const moveToChannel = db.prepare<{ handle: string; channelId: string; queuedKind: string | null }>(`
    INSERT INTO subscriptions (key_id, ref, channel_id, handle, title, source, since, handle_asked_at, queued_kind)
    SELECT key_id, @channelId, @channelId, NULL, title, source, since, handle_asked_at, @queuedKind FROM subscriptions WHERE handle = @handle
    ON CONFLICT (key_id, ref) DO NOTHING`);
  const queued = db.prepare<[string, number], { channel_id: string; queued_kind: string }>(`
    SELECT channel_id, queued_kind FROM subscriptions WHERE key_id = ? AND queued_kind IS NOT NULL ORDER BY since, ref LIMIT ?`);
  const dequeue = db.prepare<[string, string]>('UPDATE subscriptions SET queued_kind = NULL WHERE key_id = ? AND ref = ? AND queued_kind IS NOT NULL');
  const markFollowed = db.prepare<[number, string]>('UPDATE channels SET followed = 1, asked_at = MAX(COALESCE(asked_at, 0), ?) WHERE channel_id = ?');
  const queues = db.prepare<{ keyId: string | null }, QueueRow>(`
    SELECT key_id, SUM(queued_kind IS NOT NULL) AS queued, SUM(handle IS NOT NULL) AS handles FROM subscriptions
    WHERE (queued_kind IS NOT NULL OR handle IS NOT NULL) AND (@keyId IS NULL OR key_id = @keyId)
    GROUP BY key_id ORDER BY key_id`);
  const dropHandle = db.prepare<[string]>('DELETE FROM subscriptions WHERE handle = ?');
  const checked = db.prepare<[number, string]>('UPDATE subscriptions SET checked_at = ? WHERE handle = ?');
  const putHandle = db.prepare<[string, string, number]>(`
    INSERT INTO handles (handle, channel_id, resolved_at) VALUES (?, ?, ?)
    ON CONFLICT (handle) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at`);
  const version = db.prepare<{ keyId: string }, { written: number | null; changes: number | null; listed: number | null }>(`
    SELECT (SELECT fetched_at FROM videos WHERE ${FEED_ENTRY_SQL} ORDER BY fetched_at DESC LIMIT 1) AS written,
      (SELECT changes FROM subscription_changes WHERE key_id = @keyId) AS changes,
      (SELECT changed_at FROM playlists ORDER BY changed_at DESC LIMIT 1) AS listed`);
  const changed = db.prepare<[string]>(`
    INSERT INTO subscription_changes (key_id, changes) VALUES (?, 1)
    ON CONFLICT (key_id) DO UPDATE SET changes = changes + 1`);
  const changedByHandle = db.prepare<[string]>(`
    INSERT INTO subscription_changes (key_id, changes) SELECT DISTINCT key_id, 1 FROM subscriptions WHERE handle = ?
    ON CONFLICT (key_id) DO UPDATE SET changes = changes + 1`);
  return {
    version, changed, changedByHandle, cachedHandle, insert, known, followChannel, refollow, pushDueIfUnfollowed, remove, list, followed, feed,
    handlesToResolve, stampAsk, moveToChannel, dropHandle, checked, putHandle, queued, dequeue, markFollowed, queues,
  };
}

export function subscriptionsTable(db: Database.Database) {
  const sql = prepare(db);

  const followTx = db.transaction((keyId: string, subs: readonly SubscriptionInput[], source: SubscriptionSource, wanted: number, now: number, queueNew: boolean): boolean[] => {
    const added: boolean[] = [];
    const channels = new Map<string, { kind: WorkKind; handle: string | null }>();
    for (const sub of subs) {
      const handle = sub.handle === undefined ? null : normalizeHandle(sub.handle);
      const channelId = sub.channelId ?? (handle === null ? undefined : sql.cachedHandle.get(handle)) ?? null;
      const ref = channelId ?? handleRef(handle!);
      // With queueNew, a channel nobody has asked for yet waits in the key's queue.
      const queue = queueNew && channelId !== null && !channels.has(channelId) && sql.known.get(channelId) === undefined;
      const info = sql.insert.run({ keyId, ref, channelId, handle: channelId === null ? handle : null, title: sub.title ?? null, source, now, queuedKind: queue ? (sub.kind ?? 'channel') : null });
      added.push(info.changes === 1);
      if (channelId !== null && !queue && !channels.has(channelId)) channels.set(channelId, { kind: sub.kind ?? 'channel', handle });
    }
    if (added.some(Boolean)) sql.changed.run(keyId);
    for (const [channelId, { kind, handle }] of channels) sql.followChannel.run({ channelId, kind, handle, wanted, now });
    return added;
  });

  const unfollowTx = db.transaction((keyId: string, ref: string): boolean => {
    const [row] = sql.remove.all(keyId, ref.startsWith('@') ? handleRef(normalizeHandle(ref)) : ref);
    if (row === undefined) return false;
    sql.changed.run(keyId);
    if (row.channel_id !== null) {
      sql.refollow.run(row.channel_id);
      sql.pushDueIfUnfollowed.run(row.channel_id);
    }
    return true;
  });

  const resolveTx = db.transaction((handle: string, channelId: string | null, wanted: number, now: number, askedBy: string | null, queueNew: boolean): void => {
    if (askedBy !== null) sql.stampAsk.run(now, askedBy, handle);
    if (channelId === null) {
      sql.checked.run(now, handle);
      return;
    }
    sql.putHandle.run(handle, channelId, now);
    sql.changedByHandle.run(handle);
    const queue = queueNew && sql.known.get(channelId) === undefined;
    if (sql.moveToChannel.run({ handle, channelId, queuedKind: queue ? 'channel' : null }).changes > 0 && !queue) {
      sql.followChannel.run({ channelId, kind: 'channel', handle, wanted, now });
    }
    sql.dropHandle.run(handle);
    if (!queue) sql.refollow.run(channelId);
  });

  const dequeueTx = db.transaction((keyId: string, channelIds: readonly string[], now: number): void => {
    for (const channelId of channelIds) {
      if (sql.dequeue.run(keyId, channelId).changes > 0) sql.markFollowed.run(now, channelId);
    }
  });

  return {
    follow(keyId, subs, source, wanted, now, opts = {}) {
      if (asksNothing(subs)) return [];
      return followTx.immediate(keyId, subs, source, wanted, now.getTime(), opts.queueNew === true);
    },

    unfollow(keyId, ref) {
      return unfollowTx.immediate(keyId, ref);
    },

    listSubscriptions(keyId): SubscriptionRecord[] {
      return sql.list.all(keyId).map((r) => ({
        channelId: r.channel_id,
        kind: r.kind === 'playlist' ? 'playlist' : 'channel',
        handle: r.handle,
        title: r.title,
        source: r.source as SubscriptionSource,
        since: new Date(r.since),
      }));
    },

    followedChannels(afterChannelId, limit) {
      if (asksNothing(limit)) return [];
      return sql.followed.all(afterChannelId ?? '', limit).map(toChannelRecord);
    },

    subscriptionFeed(keyId, limit, kinds = DEFAULT_FEED_KINDS): SubscriptionFeedEntry[] {
      if (asksNothing(limit) || asksNothing(kinds)) return [];
      return sql.feed.all({ keyId, kinds: JSON.stringify(kinds), limit }).map((r) => ({
        videoId: r.video_id,
        channelId: r.channel_id,
        publishedAt: new Date(r.published_at),
        fetchedAt: new Date(r.fetched_at),
        channelTitle: r.channel_title,
      }));
    },

    subscriptionFeedVersion(keyId) {
      const v = sql.version.get({ keyId });
      return `${v?.written ?? 0}:${v?.changes ?? 0}:${v?.listed ?? 0}`;
    },

    subscribedHandlesToResolve(retryBefore, limit, perKeyHour, now) {
      if (asksNothing(limit) || asksNothing(perKeyHour)) return [];
      return sql.handlesToResolve
        .all({ retryBefore: retryBefore.getTime(), hourAgo: now.getTime() - HOUR_MS, perKey: perKeyHour, limit })
        .map((r) => ({ keyId: r.key_id, handle: r.handle }));
    },

    resolveSubscribedHandle(handle, channelId, wanted, now, opts = {}) {
      resolveTx.immediate(normalizeHandle(handle), channelId, wanted, now.getTime(), opts.askedBy ?? null, opts.queueNew === true);
    },

    queuedImports(keyId, limit) {
      if (asksNothing(limit)) return [];
      return sql.queued.all(keyId, limit).map((r) => ({ channelId: r.channel_id, kind: r.queued_kind === 'playlist' ? 'playlist' : 'channel' }));
    },

    dequeueImports(keyId, channelIds, now) {
      if (asksNothing(channelIds)) return;
      dequeueTx.immediate(keyId, channelIds, now.getTime());
    },

    importQueues(keyId = null) {
      const rows = sql.queues.all({ keyId }).map((r) => ({ keyId: r.key_id, queued: r.queued, handles: r.handles }));
      if (keyId !== null && rows.length === 0) return [{ keyId, queued: 0, handles: 0 }];
      return rows;
    },
  } satisfies Partial<BackendMethods>;
}
