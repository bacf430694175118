// platform_requests (requests per source and minute) and platform_cool_down (one row): what every
// process reads before a platform request, so the API's handle lookups spend the crawler's hourly
// budget and stop during its "try again later" cool-down.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { checkedCount, hourStartMinute, minuteOf } from '../pacing-rules';

function prepare(db: Database.Database) {
  const add = db.prepare<[string, number, number]>(`
    INSERT INTO platform_requests (source, minute, count) VALUES (?, ?, ?)
    ON CONFLICT (source, minute) DO UPDATE SET count = count + excluded.count`);
  const sumAll = db.prepare<[number], number>('SELECT coalesce(sum(count), 0) FROM platform_requests WHERE minute >= ?').pluck();
  const sumOf = db.prepare<[number, string], number>('SELECT coalesce(sum(count), 0) FROM platform_requests WHERE minute >= ? AND source = ?').pluck();
  const prune = db.prepare<[number]>('DELETE FROM platform_requests WHERE minute < ?');
  const setCool = db.prepare<[number, string]>(`
    INSERT INTO platform_cool_down (id, until, reason) VALUES (1, ?, ?)
    ON CONFLICT (id) DO UPDATE SET until = excluded.until, reason = excluded.reason WHERE excluded.until > until`);
  const getCool = db.prepare<[], { until: number; reason: string }>('SELECT until, reason FROM platform_cool_down WHERE id = 1');
  return { add, sumAll, sumOf, prune, setCool, getCool };
}

export function platformPacingTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    addPlatformRequests(source, count, now) {
      if (checkedCount(count) === 0) return;
      sql.add.run(source, minuteOf(now), count);
      // Buckets older than two hours are never summed again.
      sql.prune.run(hourStartMinute(now) - 60);
    },
    platformRequestsInHour(now, source) {
      const from = hourStartMinute(now);
      return source === undefined ? sql.sumAll.get(from)! : sql.sumOf.get(from, source)!;
    },
    setPlatformCoolDown(until, reason) {
      sql.setCool.run(until.getTime(), reason.slice(0, 200));
    },
    platformCoolDown(now) {
      const row = sql.getCool.get();
      return row !== undefined && row.until > now.getTime() ? { until: new Date(row.until), reason: row.reason } : null;
    },
  } satisfies Partial<BackendMethods>;
}
