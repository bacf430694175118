// GET /admin/platform-check: which player clients can fetch transcripts from the crawler's address
// now. The API never asks the platform: it records the request in the store, a crawler runs the
// check (crawler/platform-check-worker.ts) and stores the report, and this answer waits for it up to
// `wait` seconds (default 20, at most 30). A report younger than FRESH_MS is answered at once unless
// `fresh=1`. Still running after the wait: 202 with what is known, and the caller asks again.

import type { PlatformCheckAskStore } from '../../shared/store/types';
import { ApiError } from '../errors';
import type { Handler } from '../http/keyed';
import { queryOf } from '../http/locals';

export const FRESH_MS = 10 * 60_000;
const DEFAULT_WAIT_S = 20;
const MAX_WAIT_S = 30;
const POLL_MS = 250;

export interface PlatformCheckRouteDeps {
  store: PlatformCheckAskStore;
  clock: () => Date;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function parseWait(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_WAIT_S;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) > MAX_WAIT_S) throw new ApiError('invalidWait');
  return Number(raw);
}

export function platformCheck(deps: PlatformCheckRouteDeps): Handler {
  return async (req, res) => {
    const q = queryOf(req);
    const waitS = parseWait(q.wait);
    const fresh = q.fresh === '1' || q.fresh === 'true';
    const now = deps.clock();
    const answered = (s: { finishedAt: Date | null; report: string | null }, status: 'done'): void => {
      res.status(200).json({
        status, checked_at: s.finishedAt!.toISOString(), age_seconds: Math.max(0, Math.round((deps.clock().getTime() - s.finishedAt!.getTime()) / 1000)),
        report: JSON.parse(s.report!) as unknown,
      });
    };
    const known = await deps.store.getPlatformCheck();
    const pending = (s: { requestedAt: Date | null; finishedAt: Date | null }): boolean =>
      s.requestedAt !== null && (s.finishedAt === null || s.finishedAt < s.requestedAt);
    if (!fresh && known && known.report !== null && !pending(known) && now.getTime() - known.finishedAt!.getTime() < FRESH_MS) {
      answered(known, 'done');
      return;
    }
    const asked = await deps.store.requestPlatformCheck(now);
    const deadline = Date.now() + waitS * 1000;
    let state = asked;
    while (pending(state) && Date.now() < deadline) {
      await sleep(POLL_MS);
      state = (await deps.store.getPlatformCheck()) ?? state;
    }
    if (!pending(state)) {
      answered(state, 'done');
      return;
    }
    res.status(202).json({
      status: 'pending',
      requested_at: state.requestedAt!.toISOString(),
      claimed_by: state.claimedBy,
      message: state.claimedBy === null
        ? 'no crawler has taken the check yet: a crawler must be running (it looks every CRAWL_POLL_SECONDS); ask again'
        : `crawler ${state.claimedBy} is asking every player client; ask again in a few seconds`,
      last: state.report === null ? null : { checked_at: state.finishedAt!.toISOString(), report: JSON.parse(state.report) as unknown },
    });
  };
}
