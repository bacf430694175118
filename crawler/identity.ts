// The crawler's lease owner name. Under PM2 it is stable across restarts (host + PM2 instance), so
// a crawler killed mid-channel and restarted takes its own leases back at once instead of waiting
// CRAWL_LEASE_SECONDS (docs/operations.md "Crash recovery"). Outside PM2 it falls back to
// host:pid, which never collides but cannot recognise its predecessor: set CRAWLER_ID there.

import { hostname } from 'node:os';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * CRAWLER_ID when set; else `host:crawler-<NODE_APP_INSTANCE>` (PM2 sets it, 0..n-1 per app, in
 * fork and cluster mode alike; pm_id when only that is present); else `host:pid`.
 */
export function crawlerIdentity(crawlerId: string, env: Env = process.env, host: string = hostname(), pid: number = process.pid): { owner: string; stable: boolean } {
  if (crawlerId.trim() !== '') return { owner: crawlerId.trim(), stable: true };
  const instance = env.NODE_APP_INSTANCE ?? env.pm_id;
  if (instance !== undefined && /^\d+$/.test(instance)) return { owner: `${host}:crawler-${instance}`, stable: true };
  return { owner: `${host}:${pid}`, stable: false };
}
