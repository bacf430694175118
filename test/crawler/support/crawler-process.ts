// The crawler daemon as a real OS process, the compiled entry point (node dist/crawler/main.js)
// as PM2 starts it, configured only through its environment, with its JSON log lines collected.
// The caller runs ensureBuilt() first.

import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startEntry } from '../../support/processes';

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
  const p = startEntry('crawler', {
    CONFIG_FILE: settings,
    CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0', CRAWL_BLOCKED_WAIT: '0.05-0.1', CRAWL_POLL_SECONDS: '1',
    BROWSER_EXECUTABLE_PATH: 'off', LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env,
  });
  return { child: p.child, logs: p.logs, stderr: p.stderr, exited: p.exited, kill: (signal) => p.stop(signal) };
}

/** The channels this process started runs for, in order. */
export const runsStarted = (p: CrawlerProcess): string[] =>
  p.logs.filter((l) => l.msg === 'run started').map((l) => String(l.channelId));
