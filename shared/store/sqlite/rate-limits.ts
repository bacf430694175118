// The rate_limits table: one counter row per (key, minute window). Counting (one hit or several
// at once) is a single upsert-returning statement, so two processes hitting the same key never
// lose a count and never interleave inside one add.

import type Database from 'better-sqlite3';
import type { RateLimitResult } from '../types';
import { RATE_WINDOW_MS, rateLimitResult, windowStartOf } from '../rate-window';

/** How often (per process) windows that can no longer be asked about are deleted. */
const PRUNE_EVERY_MS = RATE_WINDOW_MS;

function prepare(db: Database.Database) {
  const hit = db.prepare<[string, number, number], number>(`
    INSERT INTO rate_limits (key_id, window_start, count) VALUES (?, ?, ?)
    ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + excluded.count
    RETURNING count`).pluck();
  const prune = db.prepare<[number]>('DELETE FROM rate_limits WHERE window_start < ?');
  return { hit, prune };
}

export class RateLimitsTable {
  private readonly sql: ReturnType<typeof prepare>;
  private lastPruneAt = Number.NEGATIVE_INFINITY;

  constructor(db: Database.Database) {
    this.sql = prepare(db);
  }

  /** `hits` is already checked (a positive integer) by the store. */
  hitRateLimit(keyId: string, limit: number, now: Date, hits: number): RateLimitResult {
    const windowStart = windowStartOf(now);
    const count = this.sql.hit.get(keyId, windowStart, hits);
    if (count === undefined) throw new Error('rate-limit upsert returned no count');
    this.pruneNowAndThen(windowStart);
    return rateLimitResult(count, limit, windowStart);
  }

  /** Keeps the previous window (a clock a little behind may still count into it); drops older ones. */
  private pruneNowAndThen(windowStart: number): void {
    if (windowStart - this.lastPruneAt < PRUNE_EVERY_MS) return;
    this.lastPruneAt = windowStart;
    this.sql.prune.run(windowStart - RATE_WINDOW_MS);
  }
}
