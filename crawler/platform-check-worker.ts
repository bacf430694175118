// The crawler's side of GET /admin/platform-check: the API only records the request in the store
// (it never asks the platform); every poll, a crawler takes a pending request, runs the platform check
// from its own address and proxies, and stores the report. A crawler that dies while checking leaves
// a claim another takes over after STALE_CLAIM_MS.

import type { Logger } from '../shared/logger';
import type { PlatformCheckReport } from '../shared/platform/platform-check';
import type { PlatformCheckWorkStore } from '../shared/store/types';
import type { Timing } from './timing';

/** Longer than any check takes (about a dozen requests, each bounded by PLATFORM_TIMEOUT_MS). */
export const STALE_CLAIM_MS = 5 * 60_000;

export interface PlatformCheckWorkerOptions {
  store: PlatformCheckWorkStore;
  check: () => Promise<PlatformCheckReport>;
  owner: string;
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
