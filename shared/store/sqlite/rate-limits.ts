// The rate_limits table: one counter row per (key, minute window). Counting (one hit or several
// at once) is a single upsert-returning statement, run to completion, so two processes hitting the same key never
// lose a count and never interleave inside one add.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { checkedHits, peekResult, RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';

/** How often (per process) windows that can no longer be asked about are deleted. */
const PRUNE_EVERY_MS = RATE_WINDOW_MS;

function prepare(db: Database.Database) {
  const hit = db.prepare<[string, number, number], number>(`
    INSERT INTO rate_limits (key_id, window_start, count) VALUES (?, ?, ?)
    ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + excluded.count
    RETURNING count`).pluck();
  const prune = db.prepare<[number]>('DELETE FROM rate_limits WHERE window_start < ?');
  const peek = db.prepare<[string, number], number>('SELECT count FROM rate_limits WHERE key_id = ? AND window_start = ?').pluck();
  return { hit, prune, peek };
}

export function rateLimitsTable(db: Database.Database) {
  const sql = prepare(db);
  let lastPruneAt = Number.NEGATIVE_INFINITY;
  /** Keeps the previous window (a clock a little behind may still count into it); drops older ones. */
  const pruneNowAndThen = (windowStart: number): void => {
    if (windowStart - lastPruneAt < PRUNE_EVERY_MS) return;
    lastPruneAt = windowStart;
    sql.prune.run(windowStart - RATE_WINDOW_MS);
  };
  return {
    hitRateLimit(keyId, limit, now, hits = 1) {
      const windowStart = windowStartOf(now);
      // all(), never get(): get() hands back the RETURNING count before the autocommit and loses
      // a failed commit (full disk, read-only file), so every hit would look like the first.
      const [count] = sql.hit.all(keyId, windowStart, checkedHits(hits));
      if (count === undefined) throw new Error('rate-limit upsert returned no count');
      pruneNowAndThen(windowStart);
      return rateLimitResult(count, limit, windowStart);
    },
    peekRateLimit(keyId, limit, now) {
      const windowStart = windowStartOf(now);
      return peekResult(sql.peek.get(keyId, windowStart) ?? 0, limit, windowStart);
    },
  } satisfies Partial<BackendMethods>;
}
