// The compiled service as the end-to-end benchmarks run it: the API and the crawler started from
// dist/ as separate OS processes (as PM2 starts them) on a SQLite file in a temp dir, against the
// fake platform on loopback, and everything undone afterwards. Memory is read with the shared
// process-tree helper (test/support/process-tree.ts).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FakeCounters } from '../test/fake-platform';
import { descendants, memoryKb, pidAlive, type MemoryKb } from '../test/support/process-tree';
import { listeningPort, ROOT, startEntry, type Started } from '../test/support/processes';
import { waitFor } from '../test/support/poll';

export const KEY = 'bench-e2e-key-0123456789abcdef';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
export const mb = (kb: number): number => kb / 1024;
/** A progress line on stderr (stdout carries the table). */
export const progressOf = (name: string) => (msg: string): void => console.error(`  ${name}: ${msg}`);

export const splitOf = (m: MemoryKb): string =>
  `anon ${mb(m.anon).toFixed(1)} + file ${mb(m.file).toFixed(1)} + shmem ${mb(m.shmem).toFixed(1)} MB`;

/** Everything started or created by a benchmark, undone in reverse order (always, in finally). */
export class Cleanup {
  private readonly steps: { what: string; run: () => Promise<void> | void }[] = [];
  add(what: string, run: () => Promise<void> | void): void {
    this.steps.push({ what, run });
  }
  async runAll(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`  bench: cleanup of ${step.what} failed: ${String(err)}`);
      }
    }
  }
}

/** A temp dir holding the bench key file, removed on cleanup. */
export function tempDir(cleanup: Cleanup, name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tf-bench-${name}-`));
  fs.writeFileSync(
    path.join(dir, 'security.yaml'),
    `security:\n  api_keys:\n    ${KEY}:\n      name: "bench reader"\n      rate_limit: 100000000\n      enabled: true\n`,
  );
  cleanup.add(`temp dir ${dir}`, () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Environment as the e2e test sets it, minus its shortened waits: the profile's own values apply.
 * PORT=0: the system picks a free port and the API's "API listening" line names it.
 */
export function serviceEnv(dir: string, platformUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dir, 'feeds.db')}`,
    SECURITY_CONFIG: path.join(dir, 'security.yaml'),
    PLATFORM_BASE_URL: platformUrl,
    CRAWL_PROFILE: 'fast',
    BROWSER_EXECUTABLE_PATH: 'off',
    LOG_LEVEL: 'info',
    // The load generator is one key on many connections: not the per-key bound being measured.
    API_MAX_CONNECTIONS_PER_KEY: '1000',
    ...extra,
  };
}

/**
 * SIGTERM (the service's own clean shutdown), SIGKILL after 10 s; then any descendant still alive
 * (a Chromium the crawler started) is killed by its pid.
 */
export async function stopService(p: Started): Promise<void> {
  const pid = p.child.pid;
  const kids = pid !== undefined ? descendants(pid) : [];
  const killer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  try {
    await p.stop('SIGTERM');
  } finally {
    clearTimeout(killer);
  }
  for (const k of kids) {
    if (!pidAlive(k)) continue;
    try {
      process.kill(k, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function start(cleanup: Cleanup, entry: 'api' | 'crawler', env: Record<string, string>, cwd: string): Started {
  const p = startEntry(entry, env, cwd);
  cleanup.add(`${entry} pid ${p.child.pid ?? '?'}`, () => stopService(p));
  return p;
}

/**
 * The API for load runs, its JSON log lines written to a file as PM2's out_file would hold them,
 * rather than piped into this process: parsing and keeping 100k access-log lines here would take
 * CPU from the load generator (same 2 cores) and could push back on the API through a full pipe.
 * Only its start-up lines are read back from the file (into `logs`), up to the one that names its
 * port; `base` is that address.
 */
export async function startApiLoggingToFile(cleanup: Cleanup, env: Record<string, string>, dir: string): Promise<{ api: Started; base: string }> {
  const file = path.join(dir, 'api.out.log');
  const out = fs.openSync(file, 'a');
  // An earlier API of the same dir wrote above this offset.
  const from = fs.fstatSync(out).size;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/api/main.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', out, 'pipe'],
  });
  fs.closeSync(out);
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const p: Started = {
    child,
    logs: [],
    stderr,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  cleanup.add(`api pid ${child.pid ?? '?'}`, () => stopService(p));
  const startUp = (): Record<string, unknown>[] =>
    fs.readFileSync(file).subarray(from).toString('utf8').split('\n').slice(0, -1).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const reader = { child, stderr, get logs() { return startUp(); } };
  const port = await listeningPort(reader);
  p.logs.push(...startUp());
  return { api: p, base: `http://127.0.0.1:${port}` };
}

export async function waitForHealth(api: Started, base: string): Promise<void> {
  await waitFor(`the API at ${base} (stderr: ${api.stderr.join('').slice(0, 300)})`, async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 30_000, 50);
}

/** API + crawler on one store in `dir`, both up (health answers, 'crawler started' logged). */
export async function startPair(cleanup: Cleanup, dir: string, platformUrl: string, extra: Record<string, string>): Promise<{ api: Started; crawler: Started; base: string }> {
  const env = serviceEnv(dir, platformUrl, extra);
  const api = start(cleanup, 'api', env, dir);
  const crawler = start(cleanup, 'crawler', env, dir);
  const base = `http://127.0.0.1:${await listeningPort(api)}`;
  await waitForHealth(api, base);
  await waitFor('the crawler to start', () => (hasLog(crawler, 'crawler started') ? true : undefined), 30_000, 20);
  return { api, crawler, base };
}

const msgOf = (l: Record<string, unknown>): string => (typeof l.msg === 'string' ? l.msg : '');
export const hasLog = (p: Started, msg: string): boolean => p.logs.some((l) => msgOf(l) === msg);
export const logsWith = (p: Started, msg: string): Record<string, unknown>[] => p.logs.filter((l) => msgOf(l) === msg);
export const timeOf = (l: Record<string, unknown> | undefined): number =>
  l === undefined ? NaN : typeof l.time === 'number' ? l.time : typeof l.time === 'string' ? Date.parse(l.time) : NaN;

/** Waits for the crawler's `n`-th 'run ended' line and returns it. */
export async function runEnded(crawler: Started, n: number, timeoutMs: number): Promise<Record<string, unknown>> {
  return waitFor(`crawler run #${n} to end`, () => logsWith(crawler, 'run ended')[n - 1], timeoutMs, 50);
}

export const getFeed = (base: string, query: string): Promise<Response> => fetch(`${base}/?${query}`, { headers: { 'X-API-Key': KEY } });

/** Clock ticks per second of /proc/<pid>/stat's CPU times (getconf CLK_TCK; 100 on Linux). */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU time (user + system) a process has used so far, in µs; null once it is gone. */
export function cpuMicrosOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing paren):
    // utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1e6;
  } catch {
    return null;
  }
}

/** VmRSS of an idle bare `node` process: the baseline every memory figure stands beside. */
export async function idleNodeRssKb(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(()=>{},1e3)'], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await sleep(1500);
    const m = child.pid !== undefined ? memoryKb(child.pid) : null;
    if (!m) throw new Error('idle node: could not read its VmRSS');
    return m.rss;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
}

type Endpoint = Exclude<keyof FakeCounters, 'total'>;
const endpointsOf = (c: FakeCounters): Endpoint[] => (Object.keys(c) as (keyof FakeCounters)[]).filter((k): k is Endpoint => k !== 'total' && c[k] > 0);

/** The fake platform's counters in words: "feed 1, player 5, timedtext 5". */
export const describeCounters = (c: FakeCounters): string => endpointsOf(c).map((k) => `${k} ${c[k]}`).join(', ') || 'none';

/** The same per stored video. */
export const perVideo = (c: FakeCounters, stored: number): string => endpointsOf(c).map((k) => `${k} ${(c[k] / stored).toFixed(2)}`).join(', ');
