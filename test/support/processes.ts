// Starting the service's compiled entry points as separate OS processes, exactly as PM2 would
// (node dist/…/main.js with real environment variables), and collecting their JSON log lines.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from './poll';

export const ROOT = path.resolve(__dirname, '../..');

export interface Started {
  child: ChildProcess;
  /** Every stdout line parsed as JSON (non-JSON lines kept as { raw }). */
  logs: Record<string, unknown>[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A process whose stdout this test reads itself (spawnLogged), so it can be told of each line. */
export interface LoggedProcess extends Started {
  /**
   * The first stdout line (as parsed into `logs`, seen already or to come) that `test` accepts, the
   * moment it is read; rejects if the process exits first. Event-driven: no poll interval or own
   * deadline that a loaded machine could outrun (the test's timeout bounds a failure).
   */
  line(test: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Newest modification time of the TypeScript sources under `dir`. */
function newestSource(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = path.join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? statSync(p).mtimeMs : 0);
  }, 0);
}

/**
 * The compiled entry points, as `npm run build` leaves them. `npm test` builds before mocha; a bare
 * `mocha` run or a benchmark rebuilds here when dist/ is missing or older than a source under api/,
 * crawler/ or shared/, so nothing is ever run or measured against stale code.
 */
export function ensureBuilt(): void {
  const entries = ['dist/api/main.js', 'dist/crawler/main.js'].map((e) => path.join(ROOT, e));
  const builtAt = Math.min(...entries.map((e) => (existsSync(e) ? statSync(e).mtimeMs : 0)));
  const sourcesAt = Math.max(...['api', 'crawler', 'shared'].map((d) => newestSource(path.join(ROOT, d))));
  if (builtAt >= sourcesAt) return;
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  } catch {
    // tsc still emits when a file has a type error (npm test's type-check reports those); what
    // matters here is that the entry points exist.
    if (!entries.every((e) => existsSync(e))) throw new Error('dist/ entry points missing after the build');
  }
}

/**
 * A loopback port that refuses connections: below the kernel's range for ports picked by listen(0)
 * (32768 and up), so no server a test starts can ever take it, and a service machines do not run
 * (tcpmux). For "nothing listens there" cases: an unreachable proxy or database.
 */
export const REFUSED_PORT = 1;

/**
 * The port a process started with a port setting of 0 listens on, read from the line it prints
 * once it listens (the API's "API listening on …", the crawler's "crawler metrics at …"): the
 * system picks a free port and the process names it, so no port is reserved, let go and hoped
 * still free. Fails at once, with its stderr, if the process exits first.
 */
export async function listeningPort(proc: Pick<Started, 'child' | 'logs' | 'stderr'>, prefix = 'API listening', timeoutMs = 30_000): Promise<number> {
  const port = await waitFor(`"${prefix}" from the process`, () => {
    const line = proc.logs.find((l) => typeof l.msg === 'string' && l.msg.startsWith(prefix));
    if (line) return Number(line.port);
    return proc.child.exitCode !== null || proc.child.signalCode !== null ? null : undefined;
  }, timeoutMs);
  if (port === null || !Number.isInteger(port) || port <= 0) throw new Error(`the process exited or named no port before "${prefix}":\n${proc.stderr.join('')}`);
  return port;
}

/** Spawns `node <args>` with exactly `env` (plus PATH and HOME), collecting its JSON log lines. */
export function spawnLogged(args: readonly string[], env: Record<string, string>, cwd: string = ROOT): LoggedProcess {
  const child = spawn(process.execPath, [...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  const watchers = new Set<(entry: Record<string, unknown>) => void>();
  const logged = (entry: Record<string, unknown>): void => {
    logs.push(entry);
    for (const w of [...watchers]) w(entry);
  };
  let buf = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line) continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        entry = { raw: line };
      }
      logged(entry);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    logs,
    stderr,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    line(test) {
      const seen = logs.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const watch = (entry: Record<string, unknown>): void => {
          if (!test(entry)) return;
          watchers.delete(watch);
          resolve(entry);
        };
        watchers.add(watch);
        void exited.then(({ code, signal }) => {
          if (!watchers.delete(watch)) return;
          reject(new Error(`the process exited (${signal ?? code}) before the line awaited; stderr: ${stderr.join('').slice(-2000)}`));
        });
      });
    },
  };
}

/** A compiled entry point (dist/<entry>/main.js), as PM2 starts it; JSON logs by default. */
export function startEntry(entry: 'api' | 'crawler', env: Record<string, string>, cwd: string = ROOT): LoggedProcess {
  return spawnLogged([path.join(ROOT, `dist/${entry}/main.js`)], { LOG_FORMAT: 'json', ...env }, cwd);
}

