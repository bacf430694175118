// The channels table: the crawler's work queue. Every method is one statement (claiming is one
// statement inside an immediate transaction), so each is atomic across processes.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { refreshCutoff, REFRESHED_SQL } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import type { ChannelRecord } from '../types';

export interface ChannelRow {
  channel_id: string;
  kind: string;
  handle: string | null;
  title: string | null;
  wanted: number;
  due_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_crawl_at: number | null;
  last_outcome: string | null;
  last_error: string | null;
  consecutive_failures: number;
  created_at: number;
  covered_wanted: number | null;
  followed: number;
  asked_at: number | null;
  awaited_at: number | null;
  awaited_by: string | null;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

export function toRecord(r: ChannelRow): ChannelRecord {
  return {
    channelId: r.channel_id,
    kind: r.kind === 'playlist' ? 'playlist' : 'channel',
    handle: r.handle,
    title: r.title,
    wanted: r.wanted,
    dueAt: new Date(r.due_at),
    leaseOwner: r.lease_owner,
    leaseExpiresAt: date(r.lease_expires_at),
    lastCrawlAt: date(r.last_crawl_at),
    lastOutcome: r.last_outcome,
    lastError: r.last_error,
    consecutiveFailures: r.consecutive_failures,
    createdAt: new Date(r.created_at),
    coveredWanted: r.covered_wanted,
    followed: r.followed === 1,
    askedAt: date(r.asked_at),
    awaitedAt: date(r.awaited_at),
    awaitedBy: r.awaited_at === null ? null : r.awaited_by,
  };
}

export const COLUMNS = `channel_id, kind, handle, title, wanted, due_at, lease_owner, lease_expires_at, last_crawl_at,
  last_outcome, last_error, consecutive_failures, created_at, covered_wanted, followed, asked_at, awaited_at, awaited_by`;

/**
 * The round a key's newly awaited work joins (@keyId): one after the key's last awaited channel,
 * and never before the lowest round still waiting, so a key with nothing waiting joins the round
 * being served instead of jumping ahead of it. Work no key asked for (@keyId null: an operator,
 * a test) joins the lowest round waiting.
 */
export const AWAITED_ROUND_SQL = `MAX(
  CASE WHEN @keyId IS NULL THEN 0 ELSE COALESCE((SELECT MAX(awaited_round) + 1 FROM channels WHERE awaited_at IS NOT NULL AND awaited_by = @keyId), 0) END,
  COALESCE((SELECT MIN(awaited_round) FROM channels WHERE awaited_at IS NOT NULL), 0))`;

function prepare(db: Database.Database) {
  // SET expressions read the row as it was before the update, so `wanted` there is the old value.
  const register = db.prepare<
    { channelId: string; kind: string; handle: string | null; title: string | null; wanted: number; now: number; keyId: string | null },
    ChannelRow
  >(`
    INSERT INTO channels (channel_id, kind, handle, title, wanted, due_at, consecutive_failures, created_at, asked_at, awaited_at, awaited_by, awaited_round, created_by)
    VALUES (@channelId, @kind, @handle, @title, @wanted, @now, 0, @now, @now, @now, @keyId, ${AWAITED_ROUND_SQL}, @keyId)
    ON CONFLICT (channel_id) DO UPDATE SET
      due_at = CASE WHEN excluded.wanted > wanted THEN MIN(due_at, excluded.due_at) ELSE due_at END,
      awaited_by = CASE WHEN excluded.wanted > wanted AND awaited_at IS NULL THEN excluded.awaited_by ELSE awaited_by END,
      awaited_round = CASE WHEN excluded.wanted > wanted AND awaited_at IS NULL THEN excluded.awaited_round ELSE awaited_round END,
      awaited_at = CASE WHEN excluded.wanted > wanted THEN COALESCE(awaited_at, excluded.awaited_at) ELSE awaited_at END,
      asked_at = MAX(COALESCE(asked_at, 0), excluded.asked_at),
      wanted = MAX(wanted, excluded.wanted),
      handle = COALESCE(handle, excluded.handle),
      title = COALESCE(excluded.title, title)
    RETURNING ${COLUMNS}`);

  const get = db.prepare<[string], ChannelRow>(`SELECT ${COLUMNS} FROM channels WHERE channel_id = ?`);

  const name = db.prepare<{ channelId: string; title: string }>('UPDATE channels SET title = @title WHERE channel_id = @channelId AND title IS NOT @title');

  // claimed_wanted remembers what the crawler was asked for, so that a `wanted` raised during the
  // run makes the channel due again at release instead of waiting for its next schedule.
  const claim = db.prepare<{ owner: string; until: number; now: number; refreshCutoff: number }, ChannelRow>(`
    UPDATE channels SET lease_owner = @owner, lease_expires_at = @until, claimed_wanted = wanted
    WHERE channel_id = (
      SELECT channel_id FROM channels
      WHERE due_at <= @now AND (lease_owner IS NULL OR lease_expires_at <= @now) AND ${REFRESHED_SQL}
      ORDER BY due_at, channel_id LIMIT 1)
    RETURNING ${COLUMNS}`);
  const claimTx = db.transaction((owner: string, until: number, now: number) => claim.get({ owner, until, now, refreshCutoff: refreshCutoff(new Date(now)).getTime() }));

  const renew = db.prepare<{ channelId: string; owner: string; until: number }>(
    'UPDATE channels SET lease_expires_at = @until WHERE channel_id = @channelId AND lease_owner = @owner',
  );

  const release = db.prepare<{
    channelId: string; owner: string; now: number; nextDueAt: number; outcome: string;
    error: string | null; failures: number; title: string | null; covered: number | null; yielded: number;
  }>(`
    UPDATE channels SET
      due_at = CASE WHEN @yielded THEN @now WHEN wanted > COALESCE(claimed_wanted, wanted) THEN MIN(@nextDueAt, @now) ELSE @nextDueAt END,
      awaited_at = CASE WHEN @yielded OR wanted > COALESCE(claimed_wanted, wanted) THEN awaited_at ELSE NULL END,
      awaited_by = CASE WHEN @yielded OR wanted > COALESCE(claimed_wanted, wanted) THEN awaited_by ELSE NULL END,
      awaited_round = CASE WHEN @yielded THEN awaited_round + 1 ELSE awaited_round END,
      lease_owner = NULL, lease_expires_at = NULL, claimed_wanted = NULL,
      last_crawl_at = @now, last_outcome = @outcome, last_error = @error,
      consecutive_failures = @failures, title = COALESCE(@title, title), covered_wanted = @covered
    WHERE channel_id = @channelId AND lease_owner = @owner`);

  const reclaim = db.prepare<{ owner: string; now: number }>(`
    UPDATE channels SET lease_owner = NULL, lease_expires_at = NULL, claimed_wanted = NULL, due_at = MIN(due_at, @now)
    WHERE lease_owner = @owner`);

  // What a reader is waiting for (a new channel, a larger max_items, a language) runs before the
  // rhythm's backlog and whatever the listing share says: round by round (AWAITED_ROUND_SQL), so
  // keys take turns; within a round the one waiting longest first.
  const claimAwaited = db.prepare<{ owner: string; until: number; now: number }, ChannelRow>(`
    UPDATE channels SET lease_owner = @owner, lease_expires_at = @until, claimed_wanted = wanted
    WHERE channel_id = (
      SELECT channel_id FROM channels
      WHERE awaited_at IS NOT NULL AND due_at <= @now AND (lease_owner IS NULL OR lease_expires_at <= @now)
      ORDER BY awaited_round, awaited_at, channel_id LIMIT 1)
    RETURNING ${COLUMNS}`);
  const claimAwaitedTx = db.transaction((owner: string, until: number, now: number) => claimAwaited.get({ owner, until, now }));

  const backlog = db.prepare<{ now: number; refreshCutoff: number }, { due: number; oldest: number | null }>(`
    SELECT COUNT(*) AS due, MIN(due_at) AS oldest FROM channels
    WHERE due_at <= @now AND (lease_owner IS NULL OR lease_expires_at <= @now) AND ${REFRESHED_SQL}`);

  const othersWaiting = db.prepare<{ channelId: string; now: number }, number>(`
    SELECT 1 FROM channels AS c, channels AS o
    WHERE c.channel_id = @channelId AND o.channel_id <> c.channel_id
      AND o.awaited_at IS NOT NULL AND o.due_at <= @now AND (o.lease_owner IS NULL OR o.lease_expires_at <= @now)
      AND (c.awaited_at IS NULL OR (o.awaited_by IS NOT c.awaited_by AND o.awaited_round <= c.awaited_round))
    LIMIT 1`).pluck();

  const createdBy = db.prepare<{ keyId: string; since: number }, { count: number; oldest: number | null }>(
    'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM channels WHERE created_by = @keyId AND created_at >= @since',
  );

  return { register, get, name, claimTx, renew, release, reclaim, claimAwaitedTx, backlog, othersWaiting, createdBy };
}

/**
 * Make a known channel awaited by a key (@keyId, null for none), as a request that registers new
 * work does: due now, in the key's next round. One already awaited keeps its place; one backing
 * off after failures keeps its schedule (a reader's new language must not cancel a backoff).
 */
export function prepareAwait(db: Database.Database) {
  return db.prepare<{ channelId: string; keyId: string | null; now: number }>(`
    UPDATE channels SET
      awaited_by = CASE WHEN awaited_at IS NULL THEN @keyId ELSE awaited_by END,
      awaited_round = CASE WHEN awaited_at IS NULL THEN ${AWAITED_ROUND_SQL} ELSE awaited_round END,
      awaited_at = COALESCE(awaited_at, @now),
      due_at = MIN(due_at, @now)
    WHERE channel_id = @channelId AND consecutive_failures = 0`);
}

export function channelsTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    registerChannel(input, now) {
      // all(), never get(): get() hands back the RETURNING row before the autocommit and loses a
      // failed commit (full disk, read-only file), reporting a channel that was never stored.
      const [row] = sql.register.all({
        channelId: input.channelId,
        kind: input.kind ?? 'channel',
        handle: input.handle ? normalizeHandle(input.handle) : null,
        title: input.title ?? null,
        wanted: input.wanted,
        now: now.getTime(),
        keyId: input.keyId ?? null,
      });
      if (!row) throw new Error(`registerChannel ${input.channelId}: upsert returned no row`);
      return toRecord(row);
    },

    getChannel(channelId) {
      const row = sql.get.get(channelId);
      return row ? toRecord(row) : null;
    },

    nameChannel(channelId, title) {
      sql.name.run({ channelId, title });
    },

    /** IMMEDIATE takes the write lock up front, so two processes never pick the same row. */
    claimDueChannel(owner, leaseMs, now) {
      const row = sql.claimTx.immediate(owner, now.getTime() + leaseMs, now.getTime());
      return row ? toRecord(row) : null;
    },

    claimAskedChannel(owner, leaseMs, now) {
      const row = sql.claimAwaitedTx.immediate(owner, now.getTime() + leaseMs, now.getTime());
      return row ? toRecord(row) : null;
    },

    listingBacklog(now) {
      const row = sql.backlog.get({ now: now.getTime(), refreshCutoff: refreshCutoff(now).getTime() });
      return { due: row?.due ?? 0, oldestDueAt: row?.oldest == null ? null : new Date(row.oldest) };
    },

    /** Succeeds while nobody took the channel over, even a little after the lease expired. */
    renewLease(channelId, owner, leaseMs, now) {
      return sql.renew.run({ channelId, owner, until: now.getTime() + leaseMs }).changes === 1;
    },

    releaseChannel(channelId, owner, result, now) {
      const info = sql.release.run({
        channelId,
        owner,
        now: now.getTime(),
        nextDueAt: result.nextDueAt.getTime(),
        outcome: result.outcome,
        error: result.error ?? null,
        failures: result.consecutiveFailures,
        title: result.title ?? null,
        covered: result.coveredWanted ?? null,
        yielded: result.yielded === true ? 1 : 0,
      });
      return info.changes === 1;
    },

    awaitedWorkWaiting(channelId, now) {
      return sql.othersWaiting.get({ channelId, now: now.getTime() }) !== undefined;
    },

    newChannelsOfKey(keyId, since) {
      const row = sql.createdBy.get({ keyId, since: since.getTime() });
      return { count: row?.count ?? 0, oldest: row?.oldest == null ? null : new Date(row.oldest) };
    },

    reclaimLeases(owner, now) {
      return sql.reclaim.run({ owner, now: now.getTime() }).changes;
    },
  } satisfies Partial<BackendMethods>;
}
