// /admin/platform-check: which player clients can fetch transcripts from the crawler's address.
// The API never asks the platform: it records the request in the store, a crawler runs the check
// (crawler/platform-check-worker.ts, within its hourly budget and cool-downs) and stores the report.
//   GET  answers what is known — the last report, or a check still running — and never starts one,
//        so a link or an <img> costs no platform request (`fresh` is ignored; docs/operations.md).
//   POST asks for a fresh check (admin state change: same-origin only, api/http/same-origin.ts) and
//        waits for it up to `wait` seconds (default 20, at most 30). At most one is asked for per
//        MIN_INTERVAL_MS: in between, POST answers as GET does. Every answer says `next_check_at`.
// Still running after the wait: 202 with what is known, and the caller asks again.

import type { Request, Response } from 'express';
import type { PlatformCheckAskStore, PlatformCheckState } from '../../shared/store/types';
import { ApiError } from '../errors';
import type { Handler } from '../http/keyed';
import { queryOf } from '../http/request-state';
import { json } from '../http/answer';

/** One fresh check a minute: each costs about a dozen platform requests of the hourly budget. */
export const MIN_INTERVAL_MS = 60_000;
const DEFAULT_WAIT_S = 20;
const MAX_WAIT_S = 30;
const POLL_MS = 250;

export interface PlatformCheckRouteDeps {
  store: PlatformCheckAskStore;
  clock: () => Date;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function parseWait(raw: unknown, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,2}$/.test(raw) || Number(raw) > MAX_WAIT_S) throw new ApiError('invalidWait');
  return Number(raw);
}

const pending = (s: PlatformCheckState): boolean => s.requestedAt !== null && (s.finishedAt === null || s.finishedAt < s.requestedAt);

/** When the next fresh check may be asked for (now, when none was asked in the last minute). */
function nextCheckAt(s: PlatformCheckState | null, now: Date): Date {
  const after = s?.requestedAt ? s.requestedAt.getTime() + MIN_INTERVAL_MS : 0;
  return new Date(Math.max(after, now.getTime()));
}

export function platformCheckRoutes(deps: PlatformCheckRouteDeps): { last: Handler; fresh: Handler } {
  /** Waits up to waitS for a pending check, then answers the state. */
  const answer = async (req: Request, res: Response, start: PlatformCheckState | null, waitS: number): Promise<void> => {
    let state = start;
    const deadline = Date.now() + waitS * 1000;
    while (state !== null && pending(state) && Date.now() < deadline) {
      await sleep(POLL_MS);
      state = (await deps.store.getPlatformCheck()) ?? state;
    }
    const now = deps.clock();
    const next = nextCheckAt(state, now).toISOString();
    if (state === null || (state.report === null && !pending(state))) {
      json(res, 200, { status: 'none', next_check_at: next, message: 'no platform check has run yet: POST /admin/platform-check asks a crawler for one' });
      return;
    }
    if (!pending(state)) {
      json(res, 200, {
        status: 'done', checked_at: state.finishedAt!.toISOString(), age_seconds: Math.max(0, Math.round((now.getTime() - state.finishedAt!.getTime()) / 1000)),
        next_check_at: next, report: JSON.parse(state.report!) as unknown,
      });
      return;
    }
    json(res, 202, {
      status: 'pending',
      requested_at: state.requestedAt!.toISOString(),
      claimed_by: state.claimedBy,
      next_check_at: next,
      message: state.claimedBy === null
        ? 'no crawler has taken the check yet: a crawler must be running (it looks every CRAWL_POLL_SECONDS); ask again with GET'
        : `crawler ${state.claimedBy} is asking every player client; ask again with GET in a few seconds`,
      last: state.report === null ? null : { checked_at: state.finishedAt!.toISOString(), report: JSON.parse(state.report) as unknown },
    });
  };
  return {
    last: async (req, res) => {
      const waitS = parseWait(queryOf(req).wait, 0);
      await answer(req, res, await deps.store.getPlatformCheck(), waitS);
    },
    fresh: async (req, res) => {
      const waitS = parseWait(queryOf(req).wait, DEFAULT_WAIT_S);
      const now = deps.clock();
      const known = await deps.store.getPlatformCheck();
      const tooSoon = known !== null && nextCheckAt(known, now).getTime() > now.getTime();
      await answer(req, res, tooSoon ? known : await deps.store.requestPlatformCheck(now), waitS);
    },
  };
}
