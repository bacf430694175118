// The crawler's lease owner name: unique among all running crawlers on every host, and stable
// across restarts, so a crawler killed mid-channel and restarted takes its own leases back at once
// instead of waiting CRAWL_LEASE_SECONDS (docs/operations.md "Crash recovery"), and no two crawlers
// ever share one (they would take each other's leases back).

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

type Env = Readonly<Record<string, string | undefined>>;

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

/**
 * The first 12 hex digits of the host's machine id (systemd / D-Bus; set once per installation,
 * kept across reboots), or null where there is none (many containers): two hosts given the same
 * hostname still get different names.
 */
export function machineId(read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string | null {
  for (const file of MACHINE_ID_FILES) {
    try {
      const id = read(file).trim().toLowerCase();
      if (/^[0-9a-f]{32}$/.test(id)) return id.slice(0, 12);
    } catch {
      // Not there: try the next one.
    }
  }
  return null;
}

/**
 * `<base>:crawler-<PM2 instance>` under PM2 (NODE_APP_INSTANCE, 0..n-1 per app in fork and cluster
 * mode alike; pm_id when only that is present), else `<base>` with CRAWLER_ID or `<base>:<pid>`;
 * base = CRAWLER_ID when set, else `hostname-<machine id>` (the hostname alone without one). Stable
 * when it does not depend on the pid.
 */
export function crawlerIdentity(
  crawlerId: string, env: Env = process.env, host: string = hostname(), pid: number = process.pid, machine: string | null = machineId(),
): { owner: string; stable: boolean } {
  const instance = env.NODE_APP_INSTANCE ?? env.pm_id;
  const pm2 = instance !== undefined && /^\d+$/.test(instance) ? `:crawler-${instance}` : null;
  const given = crawlerId.trim();
  if (given !== '') return { owner: `${given}${pm2 ?? ''}`, stable: true };
  const base = machine ? `${host}-${machine}` : host;
  if (pm2 !== null) return { owner: `${base}${pm2}`, stable: true };
  return { owner: `${base}:${pid}`, stable: false };
}
