// The platform check the API asks the crawler for: one row (id 1) holding the pending request, the
// crawler that took it, and the last report. The API never asks the platform itself.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import type { PlatformCheckState } from '../types';

interface Row {
  requested_at: number | null;
  claimed_by: string | null;
  claimed_at: number | null;
  finished_at: number | null;
  report: string | null;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
const toState = (r: Row): PlatformCheckState => ({
  requestedAt: date(r.requested_at), claimedBy: r.claimed_by, claimedAt: date(r.claimed_at), finishedAt: date(r.finished_at), report: r.report,
});

/** Pending: asked, and asked after the last answer. */
const PENDING = 'requested_at IS NOT NULL AND (finished_at IS NULL OR finished_at < requested_at)';

export function platformCheckTable(db: Database.Database) {
  const get = db.prepare<[], Row>('SELECT requested_at, claimed_by, claimed_at, finished_at, report FROM platform_check WHERE id = 1');
  const request = db.prepare<[{ now: number }]>(`
    INSERT INTO platform_check (id, requested_at) VALUES (1, @now)
    ON CONFLICT (id) DO UPDATE SET requested_at = @now, claimed_by = NULL, claimed_at = NULL
    WHERE NOT (${PENDING})`);
  const claim = db.prepare<[{ owner: string; now: number; stale: number }]>(`
    UPDATE platform_check SET claimed_by = @owner, claimed_at = @now
    WHERE id = 1 AND ${PENDING} AND (claimed_by IS NULL OR claimed_at < @stale)`);
  const finish = db.prepare<[{ owner: string; now: number; report: string }]>(`
    UPDATE platform_check SET finished_at = @now, report = @report, claimed_by = NULL, claimed_at = NULL
    WHERE id = 1 AND claimed_by = @owner`);
  return {
    requestPlatformCheck(now) {
      request.run({ now: now.getTime() });
      return toState(get.get()!);
    },
    claimPlatformCheck: (owner, now, staleMs) => claim.run({ owner, now: now.getTime(), stale: now.getTime() - staleMs }).changes === 1,
    finishPlatformCheck(owner, report, now) {
      finish.run({ owner, now: now.getTime(), report });
    },
    getPlatformCheck() {
      const r = get.get();
      return r === undefined ? null : toState(r);
    },
  } satisfies Partial<BackendMethods>;
}
