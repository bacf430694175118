// The API as its own OS process (node dist/api/main.js, as PM2 starts it) on a fresh SQLite file
// and key file in a temp dir, for attacks whose effect is on the process itself: its event loop
// (does /health still answer?) and its memory (read from /proc, never from inside the process).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../../shared/store/types';
import { ensureBuilt, listeningPort, startEntry, type Started } from './processes';
import { tempStore } from './temp-store';

/** USER_HZ of /proc: 100 on every Linux the service supports. */
const CLOCK_TICKS = 100;

export interface ApiProcess {
  base: string;
  dir: string;
  proc: Started;
  /** The same SQLite file, opened by the test to seed it and look at it. */
  store: Store;
  /** Resident memory of the API process in bytes. */
  rss(): number;
  /** CPU time the API process has used so far (user + system), in seconds: work done, not wall time. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export interface ApiProcessOptions {
  /** Key → { name, rate_limit }. */
  keys: Record<string, { name: string; rate_limit: number; role?: 'admin' }>;
  /** Settings as environment variables. */
  env?: Record<string, string>;
  /** Rows to write before the API starts. */
  seed?: (store: Store) => Promise<void>;
}

export async function startApiProcess(opts: ApiProcessOptions): Promise<ApiProcess> {
  ensureBuilt();
  const ts = await tempStore('tf-api-proc-', { file: 'feeds.db' });
  const { dir, store } = ts;
  const lines = ['security:', '  api_keys:'];
  for (const [k, r] of Object.entries(opts.keys)) {
    lines.push(`    ${k}:`, `      name: ${JSON.stringify(r.name)}`, `      rate_limit: ${r.rate_limit}`, '      enabled: true');
    if (r.role !== undefined) lines.push(`      role: ${r.role}`);
  }
  writeFileSync(path.join(dir, 'security.yaml'), `${lines.join('\n')}\n`);
  writeFileSync(path.join(dir, 'settings.yaml'), '');
  const databaseUrl = ts.url;
  await opts.seed?.(store);
  const proc = startEntry('api', {
    CONFIG_FILE: path.join(dir, 'settings.yaml'), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl,
    SECURITY_CONFIG: path.join(dir, 'security.yaml'), PLATFORM_BASE_URL: 'http://127.0.0.1:9', NODE_APP_INSTANCE: '0',
    ...opts.env,
  }, dir);
  let port: number;
  try {
    port = await listeningPort(proc);
  } catch (err) {
    await proc.stop('SIGKILL');
    await ts.cleanup();
    throw new Error(`${(err as Error).message}\n${proc.stderr.join('')}`, { cause: err });
  }
  return {
    base: `http://127.0.0.1:${port}`,
    dir,
    proc,
    store,
    rss: () => {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${proc.child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    },
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${proc.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    stop: async () => {
      await proc.stop('SIGKILL');
      await ts.cleanup();
    },
  };
}

/**
 * How long /health takes, polled back to back until `while` settles; the slowest answer. The
 * issue's own bound is "under a second"; a fresh connection each time, so a queue on one
 * keep-alive connection cannot hide the wait.
 */
export async function slowestHealth(base: string, work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  let slowest = 0;
  while (!done) {
    const t = performance.now();
    const res = await fetch(`${base}/health`, { headers: { Connection: 'close' } });
    await res.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  await work;
  return slowest;
}
