// The real ecosystem.config.js under the real PM2, each test with its own PM2_HOME (and so its own
// daemon) and LOG_DIR in a temp dir, on loopback; `kill()` ends that daemon and everything it runs.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './processes';

const run = promisify(execFile);
const PM2_BIN = path.join(ROOT, 'node_modules/pm2/bin/pm2');

/** One app's entry in `pm2 jlist`, the fields the tests read. */
export interface Pm2App {
  name: string;
  pm2_env: { status: string; restart_time: number; exit_code?: number; exec_mode: string };
}

export interface Pm2Home {
  dir: string;
  logDir: string;
  /** Exactly the environment PM2 (and so the apps) run with: PATH, HOME and the settings given. */
  env: Record<string, string>;
  /** `pm2 <args>` against this home; its stdout. */
  pm2(...args: string[]): Promise<string>;
  jlist(): Promise<Pm2App[]>;
  /** One of the log files PM2 writes (`api.out.log`, …), '' while it does not exist yet. */
  log(file: string): string;
  /** PM2's own daemon log. */
  daemonLog(): string;
  /** `pm2 kill` (the daemon and its apps), then the temp dir goes. */
  kill(): Promise<void>;
}

export function pm2Home(settings: Record<string, string>): Pm2Home {
  const dir = mkdtempSync(path.join(tmpdir(), 'tf-pm2-'));
  const logDir = path.join(dir, 'logs');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PM2_HOME: path.join(dir, 'pm2'),
    LOG_DIR: logDir,
    DATABASE_URL: `sqlite:${path.join(dir, 'feeds.db')}`,
    HOST: '127.0.0.1',
    BROWSER_EXECUTABLE_PATH: 'off',
    ...settings,
  };
  const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const pm2 = async (...args: string[]): Promise<string> => (await run(process.execPath, [PM2_BIN, ...args], { cwd: ROOT, env })).stdout;
  return {
    dir,
    logDir,
    env,
    pm2,
    jlist: async () => JSON.parse(await pm2('jlist')) as Pm2App[],
    log: (file) => read(path.join(logDir, file)),
    daemonLog: () => read(path.join(env.PM2_HOME, 'pm2.log')),
    async kill() {
      try {
        if (existsSync(path.join(env.PM2_HOME, 'pm2.pid'))) await pm2('kill');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The JSON lines of a log file's text (PM2 writes them as the process printed them). */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return { raw: l };
    }
  });
}
