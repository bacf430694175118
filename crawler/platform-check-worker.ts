// The crawler's side of POST /admin/platform-check: the API only records the request in the store
// (it never asks the platform); every poll, a crawler takes a pending request, runs the platform check
// from its own address and proxies, and stores the report. A crawler that dies while checking leaves
// a claim another takes over after STALE_CLAIM_MS. A check is platform traffic like any other: with
// the crawler's hourly budget spent or a cool-down under way it is not run, and the request is
// answered with a report that says why (`skipped`), so the API's caller is not left waiting.

import type { Logger } from '../shared/logger';
import type { PlatformCheckReport } from '../shared/platform/platform-check';
import type { PlatformCheckWorkStore } from '../shared/store/types';
import type { Timing } from './timing';

/** Longer than any check takes (about a dozen requests, each bounded by PLATFORM_TIMEOUT_MS). */
export const STALE_CLAIM_MS = 5 * 60_000;

/** About what one check sends: one player request per known client (about a dozen). */
export const CHECK_REQUESTS = 12;

/** What the worker needs of the crawler's RequestBudget (crawler/request-budget.ts). */
export interface CheckBudget {
  readonly perHour: number;
  readonly coolDownUntil: Date | null;
  usedInLastHour(): number;
}

/** Why a check may not run now (a cool-down, the hourly budget too full for it), or null. */
export function budgetRefusal(budget: CheckBudget): string | null {
  const cool = budget.coolDownUntil;
  if (cool !== null) return `platform cool-down until ${cool.toISOString()}: no platform request until then`;
  const used = budget.usedInLastHour();
  if (budget.perHour > 0 && used + CHECK_REQUESTS > budget.perHour) {
    return `hourly platform budget spent (${used} of CRAWL_REQUESTS_PER_HOUR=${budget.perHour} in the last hour; a check needs about ${CHECK_REQUESTS})`;
  }
  return null;
}

/** The report stored instead of a check that was not run. */
export interface SkippedCheck {
  skipped: true;
  ok: false;
  verdict: string;
}

export interface PlatformCheckWorkerOptions {
  store: PlatformCheckWorkStore;
  check: () => Promise<PlatformCheckReport>;
  owner: string;
  /** Why a check may not run now, or null (budgetRefusal over the crawler's budget); left out = always runs. */
  refusal?: () => string | null;
  pollMs: number;
  timing: Timing;
  logger: Logger;
}

export interface Worker {
  stop(): Promise<void>;
}

export function startPlatformCheckWorker(o: PlatformCheckWorkerOptions): Worker {
  const stopping = new AbortController();
  const once = async (): Promise<void> => {
    if (!(await o.store.claimPlatformCheck(o.owner, o.timing.now(), STALE_CLAIM_MS))) return;
    const refused = o.refusal?.() ?? null;
    if (refused !== null) {
      const skipped: SkippedCheck = { skipped: true, ok: false, verdict: `not run: ${refused}` };
      await o.store.finishPlatformCheck(o.owner, JSON.stringify(skipped), o.timing.now());
      o.logger.warning({ owner: o.owner }, `platform check asked for through the API not run: ${refused}`);
      return;
    }
    o.logger.info({ owner: o.owner }, 'platform check asked for through the API: asking every player client');
    const report = await o.check();
    await o.store.finishPlatformCheck(o.owner, JSON.stringify(report), o.timing.now());
    o.logger[report.ok ? 'info' : 'warning']({ working: report.working, verdict: report.verdict }, `platform check done: ${report.verdict}`);
  };
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      try {
        await once();
      } catch (err) {
        // A store outage or a failed check: the request stays pending (or its claim goes stale) and is tried again.
        o.logger.warning({ err }, 'platform check could not be run or stored; trying again at the next poll');
      }
      await o.timing.sleep(o.pollMs, stopping.signal);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
