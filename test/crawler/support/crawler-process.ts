// The crawler daemon as a real OS process (node --import tsx crawler/main.ts), configured only
// through its environment like PM2 would, with its JSON log lines collected.

import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

export interface CrawlerProcess {
  child: ChildProcess;
  logs: Record<string, unknown>[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the crawler; `dir` holds an empty settings file so the checkout's own cannot interfere. */
export function startCrawlerProcess(dir: string, env: Record<string, string>): CrawlerProcess {
  const settings = path.join(dir, 'settings.yaml');
  writeFileSync(settings, '');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'crawler/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CONFIG_FILE: settings,
      CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0', CRAWL_BLOCKED_WAIT: '0.05-0.1', CRAWL_POLL_SECONDS: '1',
      CRAWL_REFRESH_CRON: '0 0 1 1 *', BROWSER_EXECUTABLE_PATH: 'off', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  let buf = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line) continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ raw: line });
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child, logs, stderr, exited,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The channels this process started runs for, in order. */
export const runsStarted = (p: CrawlerProcess): string[] =>
  p.logs.filter((l) => l.msg === 'run started').map((l) => String(l.channelId));
