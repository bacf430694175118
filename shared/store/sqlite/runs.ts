// The channel_runs table: each finished run of a channel (who ran it, when, the outcome, what it
// stored), newest RUNS_KEPT_PER_CHANNEL per channel, for the admin endpoints and the status page.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { asksNothing, RUNS_KEPT_PER_CHANNEL } from '../rules';
import type { ChannelRunRecord } from '../types';

interface RunRow {
  channel_id: string;
  owner: string;
  started_at: number;
  ended_at: number;
  outcome: string;
  error: string | null;
  stored: number;
}

const COLUMNS = 'channel_id, owner, started_at, ended_at, outcome, error, stored';

const toRecord = (r: RunRow): ChannelRunRecord => ({
  channelId: r.channel_id,
  owner: r.owner,
  startedAt: new Date(r.started_at),
  endedAt: new Date(r.ended_at),
  outcome: r.outcome,
  error: r.error,
  stored: r.stored,
});

function prepare(db: Database.Database) {
  const insert = db.prepare<RunRow>(`INSERT INTO channel_runs (${COLUMNS}) VALUES (@channel_id, @owner, @started_at, @ended_at, @outcome, @error, @stored)`);
  // Everything of the channel below its newest RUNS_KEPT_PER_CHANNEL: at most one row per insert.
  const prune = db.prepare<{ channelId: string; keep: number }>(`
    DELETE FROM channel_runs WHERE channel_id = @channelId AND id NOT IN (
      SELECT id FROM channel_runs WHERE channel_id = @channelId ORDER BY ended_at DESC, id DESC LIMIT @keep)`);
  const record = db.transaction((row: RunRow) => {
    insert.run(row);
    prune.run({ channelId: row.channel_id, keep: RUNS_KEPT_PER_CHANNEL });
  });
  const ofChannel = db.prepare<[string, number], RunRow>(`SELECT ${COLUMNS} FROM channel_runs WHERE channel_id = ? ORDER BY ended_at DESC, id DESC LIMIT ?`);
  const ofAll = db.prepare<[number], RunRow>(`SELECT ${COLUMNS} FROM channel_runs ORDER BY ended_at DESC, id DESC LIMIT ?`);
  return { record, ofChannel, ofAll };
}

export function runsTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    recordRun(run) {
      sql.record.immediate({
        channel_id: run.channelId,
        owner: run.owner,
        started_at: run.startedAt.getTime(),
        ended_at: run.endedAt.getTime(),
        outcome: run.outcome,
        error: run.error,
        stored: run.stored,
      });
    },

    listRuns(channelId, limit) {
      if (asksNothing(limit)) return [];
      return (channelId === null ? sql.ofAll.all(limit) : sql.ofChannel.all(channelId, limit)).map(toRecord);
    },
  } satisfies Partial<BackendMethods>;
}
