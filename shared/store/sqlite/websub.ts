// Push (WebSub): the per-channel subscription record the crawler's subscriber keeps and the API's
// callback reads, and the videos the hub notified, due for a fetch without a listing.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import type { PushedVideo, WebSubRecord, WebSubStatus } from '../types';

interface WebSubRow {
  channel_id: string;
  topic: string;
  token: string;
  secret: string;
  status: string;
  requested_at: number | null;
  verified_at: number | null;
  lease_seconds: number | null;
  lease_expires_at: number | null;
  next_action_at: number;
  failures: number;
  last_error: string | null;
  updated_at: number;
}

interface PushedRow {
  video_id: string;
  channel_id: string;
  title: string;
  published_at: number | null;
  due_at: number;
  attempts: number;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
const ms = (d: Date | null): number | null => (d === null ? null : d.getTime());

const toRecord = (r: WebSubRow): WebSubRecord => ({
  channelId: r.channel_id, topic: r.topic, token: r.token, secret: r.secret, status: r.status as WebSubStatus,
  requestedAt: date(r.requested_at), verifiedAt: date(r.verified_at), leaseSeconds: r.lease_seconds,
  leaseExpiresAt: date(r.lease_expires_at), nextActionAt: new Date(r.next_action_at), failures: r.failures,
  lastError: r.last_error, updatedAt: new Date(r.updated_at),
});

const toPushed = (r: PushedRow): PushedVideo => ({
  videoId: r.video_id, channelId: r.channel_id, title: r.title, publishedAt: date(r.published_at), dueAt: new Date(r.due_at), attempts: r.attempts,
});

const COLUMNS = `channel_id, topic, token, secret, status, requested_at, verified_at, lease_seconds, lease_expires_at,
  next_action_at, failures, last_error, updated_at`;

function prepare(db: Database.Database) {
  const put = db.prepare(`
    INSERT INTO websub (${COLUMNS}) VALUES (@channel_id, @topic, @token, @secret, @status, @requested_at, @verified_at,
      @lease_seconds, @lease_expires_at, @next_action_at, @failures, @last_error, @updated_at)
    ON CONFLICT (channel_id) DO UPDATE SET topic = excluded.topic, token = excluded.token, secret = excluded.secret,
      status = excluded.status, requested_at = excluded.requested_at, verified_at = excluded.verified_at,
      lease_seconds = excluded.lease_seconds, lease_expires_at = excluded.lease_expires_at,
      next_action_at = excluded.next_action_at, failures = excluded.failures, last_error = excluded.last_error,
      updated_at = excluded.updated_at`);
  const all = db.prepare<[number], WebSubRow>(`SELECT ${COLUMNS} FROM websub ORDER BY channel_id LIMIT ?`);
  const some = db.prepare<[string, number], WebSubRow>(
    `SELECT ${COLUMNS} FROM websub WHERE channel_id IN (SELECT value FROM json_each(?)) ORDER BY channel_id LIMIT ?`,
  );
  const byToken = db.prepare<[string], WebSubRow>(`SELECT ${COLUMNS} FROM websub WHERE token = ?`);
  const drop = db.prepare<[string, string]>('DELETE FROM websub WHERE channel_id = ? AND token = ?');
  const due = db.prepare<[number, number], WebSubRow>(`SELECT ${COLUMNS} FROM websub WHERE next_action_at <= ? ORDER BY next_action_at, channel_id LIMIT ?`);

  const push = db.prepare<{ videoId: string; channelId: string; title: string; publishedAt: number | null; now: number }>(`
    INSERT INTO pushed_videos (video_id, channel_id, title, published_at, due_at, attempts)
    VALUES (@videoId, @channelId, @title, @publishedAt, @now, 0)
    ON CONFLICT (video_id) DO UPDATE SET title = excluded.title, published_at = COALESCE(excluded.published_at, published_at),
      due_at = MIN(due_at, excluded.due_at)`);
  const pushAll = db.transaction((rows: { videoId: string; channelId: string; title: string; publishedAt: number | null; now: number }[]) => {
    for (const r of rows) push.run(r);
  });
  const claim = db.prepare<{ owner: string; until: number; now: number }, PushedRow>(`
    UPDATE pushed_videos SET lease_owner = @owner, lease_expires_at = @until
    WHERE video_id = (
      SELECT video_id FROM pushed_videos WHERE due_at <= @now AND (lease_owner IS NULL OR lease_expires_at <= @now)
      ORDER BY due_at, video_id LIMIT 1)
    RETURNING video_id, channel_id, title, published_at, due_at, attempts`);
  const claimTx = db.transaction((owner: string, until: number, now: number) => claim.get({ owner, until, now }));
  const forget = db.prepare<[string, string]>('DELETE FROM pushed_videos WHERE video_id = ? AND lease_owner = ?');
  const later = db.prepare<[number, string, string]>(
    'UPDATE pushed_videos SET due_at = ?, attempts = attempts + 1, lease_owner = NULL, lease_expires_at = NULL WHERE video_id = ? AND lease_owner = ?',
  );

  const remove = db.prepare<{ ids: string; now: number }>(`
    UPDATE videos SET state = 'unavailable', next_attempt_at = NULL, last_error = 'deleted on the platform (hub)', fetched_at = @now
    WHERE video_id IN (SELECT value FROM json_each(@ids))`);
  const unpush = db.prepare<[string]>('DELETE FROM pushed_videos WHERE video_id IN (SELECT value FROM json_each(?))');
  const removeTx = db.transaction((ids: string, now: number) => {
    unpush.run(ids);
    return remove.run({ ids, now }).changes;
  });
  const pollNow = db.prepare<{ now: number; channelId: string }>('UPDATE channels SET due_at = MIN(due_at, @now) WHERE channel_id = @channelId');
  return { put, all, some, byToken, drop, due, pushAll, claimTx, forget, later, removeTx, pollNow };
}

export function webSubTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    putWebSub(r) {
      sql.put.run({
        channel_id: r.channelId, topic: r.topic, token: r.token, secret: r.secret, status: r.status,
        requested_at: ms(r.requestedAt), verified_at: ms(r.verifiedAt), lease_seconds: r.leaseSeconds,
        lease_expires_at: ms(r.leaseExpiresAt), next_action_at: r.nextActionAt.getTime(), failures: r.failures,
        last_error: r.lastError, updated_at: r.updatedAt.getTime(),
      });
    },
    webSubStates(channelIds, limit) {
      if (limit <= 0 || (channelIds !== null && channelIds.length === 0)) return [];
      return (channelIds === null ? sql.all.all(limit) : sql.some.all(JSON.stringify(channelIds), limit)).map(toRecord);
    },
    webSubByToken(token) {
      const row = sql.byToken.get(token);
      return row ? toRecord(row) : null;
    },
    deleteWebSub(channelId, token) {
      return sql.drop.run(channelId, token).changes === 1;
    },
    webSubDue(now, limit) {
      return limit <= 0 ? [] : sql.due.all(now.getTime(), limit).map(toRecord);
    },
    pushVideos(videos, now) {
      if (videos.length === 0) return;
      sql.pushAll.immediate(videos.map((v) => ({ videoId: v.videoId, channelId: v.channelId, title: v.title, publishedAt: ms(v.publishedAt), now: now.getTime() })));
    },
    claimPushedVideo(owner, leaseMs, now) {
      const row = sql.claimTx.immediate(owner, now.getTime() + leaseMs, now.getTime());
      return row ? toPushed(row) : null;
    },
    finishPushedVideo(videoId, owner, nextAt) {
      if (nextAt === null) sql.forget.run(videoId, owner);
      else sql.later.run(nextAt.getTime(), videoId, owner);
    },
    removeFromFeeds(videoIds, now) {
      if (videoIds.length === 0) return 0;
      return sql.removeTx.immediate(JSON.stringify(videoIds), now.getTime());
    },
    pollChannelNow(channelId, now) {
      sql.pollNow.run({ now: now.getTime(), channelId });
    },
  } satisfies Partial<BackendMethods>;
}
