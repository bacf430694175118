// The crawler_heartbeats table: one row per crawler (its owner name), replaced about every 10 s
// with what it is doing. A crawler gone for HEARTBEAT_KEPT_MS is dropped at the next write.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { HEARTBEAT_KEPT_MS } from '../rules';
import type { CrawlerHeartbeat, CrawlerState, PlayerClientLeftOut, ProxyState } from '../types';

interface HeartbeatRow {
  owner: string;
  started_at: number;
  version: string;
  state: string;
  until: number | null;
  channel_id: string | null;
  batch: string | null;
  requests_last_hour: number;
  budget_per_hour: number;
  proxies: string;
  browser_runs: number;
  clients_left_out: string;
  at: number;
}

const COLUMNS = 'owner, started_at, version, state, until, channel_id, batch, requests_last_hour, budget_per_hour, proxies, browser_runs, clients_left_out, at';

function proxiesOf(text: string): ProxyState[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((p): p is ProxyState => typeof (p as ProxyState)?.proxy === 'string' && typeof (p as ProxyState)?.state === 'string') : [];
  } catch {
    return [];
  }
}

/** The stored JSON list; anything unreadable in it is left out rather than failing the page. */
function leftOutOf(text: string): PlayerClientLeftOut[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((c: unknown) => {
      const o = c as Record<string, unknown> | null;
      if (o === null || typeof o !== 'object' || typeof o.client !== 'string' || typeof o.since !== 'number') return [];
      return [{
        client: o.client, version: String(o.version ?? ''), why: String(o.why ?? ''), reason: String(o.reason ?? ''), since: new Date(o.since),
        retryAt: typeof o.retryAt === 'number' ? new Date(o.retryAt) : null, advice: String(o.advice ?? ''),
      }];
    });
  } catch {
    return [];
  }
}

const leftOutJson = (list: readonly PlayerClientLeftOut[]): string =>
  JSON.stringify(list.map((c) => ({ ...c, since: c.since.getTime(), retryAt: c.retryAt?.getTime() ?? null })));

const toRecord = (r: HeartbeatRow): CrawlerHeartbeat => ({
  owner: r.owner,
  startedAt: new Date(r.started_at),
  version: r.version,
  state: r.state as CrawlerState,
  until: r.until === null ? null : new Date(r.until),
  channelId: r.channel_id,
  batch: r.batch,
  requestsLastHour: r.requests_last_hour,
  budgetPerHour: r.budget_per_hour,
  proxies: proxiesOf(r.proxies),
  browserRuns: r.browser_runs,
  playerClientsLeftOut: leftOutOf(r.clients_left_out),
  at: new Date(r.at),
});

function prepare(db: Database.Database) {
  const put = db.prepare<HeartbeatRow>(`
    INSERT INTO crawler_heartbeats (${COLUMNS})
    VALUES (@owner, @started_at, @version, @state, @until, @channel_id, @batch, @requests_last_hour, @budget_per_hour, @proxies, @browser_runs, @clients_left_out, @at)
    ON CONFLICT (owner) DO UPDATE SET
      started_at = excluded.started_at, version = excluded.version, state = excluded.state, until = excluded.until,
      channel_id = excluded.channel_id, batch = excluded.batch, requests_last_hour = excluded.requests_last_hour,
      budget_per_hour = excluded.budget_per_hour, proxies = excluded.proxies, browser_runs = excluded.browser_runs,
      clients_left_out = excluded.clients_left_out, at = excluded.at`);
  const prune = db.prepare<[number]>('DELETE FROM crawler_heartbeats WHERE at < ?');
  const all = db.prepare<[], HeartbeatRow>(`SELECT ${COLUMNS} FROM crawler_heartbeats ORDER BY owner`);
  return { put, prune, all };
}

export function heartbeatsTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    putHeartbeat(h) {
      sql.put.run({
        owner: h.owner,
        started_at: h.startedAt.getTime(),
        version: h.version,
        state: h.state,
        until: h.until === null ? null : h.until.getTime(),
        channel_id: h.channelId,
        batch: h.batch,
        requests_last_hour: h.requestsLastHour,
        budget_per_hour: h.budgetPerHour,
        proxies: JSON.stringify(h.proxies),
        browser_runs: h.browserRuns,
        clients_left_out: leftOutJson(h.playerClientsLeftOut),
        at: h.at.getTime(),
      });
      sql.prune.run(h.at.getTime() - HEARTBEAT_KEPT_MS);
    },

    listHeartbeats() {
      return sql.all.all().map(toRecord);
    },
  } satisfies Partial<BackendMethods>;
}
