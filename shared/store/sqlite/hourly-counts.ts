// The hourly_counts table: videos stored and platform requests per UTC hour, added to by the
// crawler with each heartbeat, for the status page's chart. Hours older than HOURLY_KEPT_MS go.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { hourOf, HOURLY_KEPT_MS } from '../rules';

interface CountRow {
  hour: number;
  videos_stored: number;
  platform_requests: number;
}

function prepare(db: Database.Database) {
  const add = db.prepare<CountRow>(`
    INSERT INTO hourly_counts (hour, videos_stored, platform_requests) VALUES (@hour, @videos_stored, @platform_requests)
    ON CONFLICT (hour) DO UPDATE SET
      videos_stored = videos_stored + excluded.videos_stored, platform_requests = platform_requests + excluded.platform_requests`);
  const prune = db.prepare<[number]>('DELETE FROM hourly_counts WHERE hour < ?');
  const since = db.prepare<[number], CountRow>('SELECT hour, videos_stored, platform_requests FROM hourly_counts WHERE hour >= ? ORDER BY hour');
  const addTx = db.transaction((row: CountRow) => {
    add.run(row);
    prune.run(row.hour - HOURLY_KEPT_MS);
  });
  return { addTx, since };
}

export function hourlyCountsTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    addHourlyCounts(counts, now) {
      if (counts.videosStored === 0 && counts.platformRequests === 0) return;
      sql.addTx.immediate({ hour: hourOf(now), videos_stored: counts.videosStored, platform_requests: counts.platformRequests });
    },

    hourlyCounts(since) {
      return sql.since.all(since.getTime()).map((r) => ({ hour: new Date(r.hour), videosStored: r.videos_stored, platformRequests: r.platform_requests }));
    },
  } satisfies Partial<BackendMethods>;
}
