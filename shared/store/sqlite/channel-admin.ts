// What the operator's endpoints ask of the channels and their videos: pages of channels, the
// failing ones first, video counts and window coverage, "crawl it now", "forget it", a purge in
// bounded batches, the queue at a glance and the store's size.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, FEED_ENTRY_SQL, noVideos } from '../rules';
import type { ChannelStats, VideoState } from '../types';
import { COLUMNS, toRecord, type ChannelRow } from './channels';
import { prepareSearchIndex } from './search';

function prepare(db: Database.Database) {
  const page = db.prepare<{ after: string | null; limit: number }, ChannelRow>(`SELECT ${COLUMNS} FROM channels WHERE @after IS NULL OR channel_id > @after ORDER BY channel_id LIMIT @limit`);
  const failing = db.prepare<[number], ChannelRow>(`SELECT ${COLUMNS} FROM channels ORDER BY consecutive_failures DESC, channel_id LIMIT ?`);
  const byState = db.prepare<[string], { state: VideoState; n: number }>('SELECT state, count(*) AS n FROM videos WHERE channel_id = ? GROUP BY state');
  // The window as listChannel sees it: the newest `wanted` regular videos (no kind = regular).
  const window = db.prepare<[string, number], { size: number; shown: number | null }>(`
    SELECT count(*) AS size, sum(CASE WHEN ${FEED_ENTRY_SQL} THEN 1 ELSE 0 END) AS shown FROM (
      SELECT state, next_attempt_at FROM videos
      WHERE channel_id = ? AND coalesce(video_kind, 'regular') = 'regular'
      ORDER BY published_at DESC, video_id LIMIT ?)`);
  const followers = db.prepare<[string], number>('SELECT count(*) FROM subscriptions WHERE channel_id = ?').pluck();
  // A channel made due while a crawler holds it: its release would set the next due time from that
  // run and undo the refresh, so the run is marked as asked for less than is wanted now
  // (claimed_wanted 0), the same mark a larger max_items leaves, which makes the release keep it due.
  const due = db.prepare<[number, string]>('UPDATE channels SET due_at = ?, claimed_wanted = CASE WHEN lease_owner IS NULL THEN claimed_wanted ELSE 0 END WHERE channel_id = ?');
  const remove = db.prepare<[string]>('DELETE FROM channels WHERE channel_id = ?');
  const removeLanguages = db.prepare<[string]>('DELETE FROM channel_languages WHERE channel_id = ?');
  const removeAsks = db.prepare<[string]>('DELETE FROM language_asks WHERE channel_id = ?');
  const removeTx = db.transaction((channelId: string) => {
    removeLanguages.run(channelId);
    removeAsks.run(channelId);
    return remove.run(channelId).changes === 1;
  });
  const someVideos = db.prepare<[string, number], string>('SELECT video_id FROM videos WHERE channel_id = ? LIMIT ?').pluck();
  const dropTranscripts = db.prepare<[string]>('DELETE FROM transcripts WHERE video_id IN (SELECT value FROM json_each(?))');
  const dropVideos = db.prepare<[string]>('DELETE FROM videos WHERE video_id IN (SELECT value FROM json_each(?))');
  const search = prepareSearchIndex(db);
  const purgeTx = db.transaction((channelId: string, limit: number) => {
    const ids = someVideos.all(channelId, limit);
    const list = JSON.stringify(ids);
    dropTranscripts.run(list);
    const n = dropVideos.run(list).changes;
    // The search index follows in the same transaction: a video gone is no longer found.
    for (const id of ids) search.reindex(id);
    return n;
  });
  const queue = db.prepare<{ now: number }, { channels: number; running: number | null; due: number | null; next: number | null }>(`
    SELECT count(*) AS channels,
      sum(lease_owner IS NOT NULL AND lease_expires_at > @now) AS running,
      sum(due_at <= @now AND NOT (lease_owner IS NOT NULL AND lease_expires_at > @now)) AS due,
      min(CASE WHEN due_at > @now THEN due_at END) AS next
    FROM channels`);
  const count = (table: string) => db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck();
  const counts = { channels: count('channels'), videos: count('videos'), transcripts: count('transcripts') };
  return { page, failing, byState, window, followers, due, removeTx, purgeTx, queue, counts };
}

export function channelAdmin(db: Database.Database) {
  const sql = prepare(db);
  return {
    listChannels(after, limit) {
      if (asksNothing(limit)) return [];
      return sql.page.all({ after, limit }).map(toRecord);
    },

    listChannelsByFailures(limit) {
      if (asksNothing(limit)) return [];
      return sql.failing.all(limit).map(toRecord);
    },

    channelStats(channels) {
      return channels.map(({ channelId, wanted }): ChannelStats => {
        const videos = noVideos();
        for (const r of sql.byState.all(channelId)) if (r.state in videos) videos[r.state] = r.n;
        const w = sql.window.get(channelId, Math.max(0, wanted));
        return { channelId, videos, window: w?.size ?? 0, windowShown: w?.shown ?? 0, followers: sql.followers.get(channelId) ?? 0 };
      });
    },

    makeChannelDue(channelId, now) {
      return sql.due.run(now.getTime(), channelId).changes === 1;
    },

    removeChannel(channelId) {
      return sql.removeTx.immediate(channelId);
    },

    purgeChannelVideos(channelId, limit) {
      if (asksNothing(limit)) return 0;
      return sql.purgeTx.immediate(channelId, limit);
    },

    queueSummary(now) {
      const r = sql.queue.get({ now: now.getTime() });
      return { channels: r?.channels ?? 0, running: r?.running ?? 0, dueNow: r?.due ?? 0, nextDueAt: r?.next == null ? null : new Date(r.next) };
    },

    storeSize() {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      return { channels: sql.counts.channels.get() ?? 0, videos: sql.counts.videos.get() ?? 0, transcripts: sql.counts.transcripts.get() ?? 0, bytes: pages * pageSize };
    },
  } satisfies Partial<BackendMethods>;
}
