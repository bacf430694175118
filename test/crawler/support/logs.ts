// Log lines captured through a stream (pino's own test habit), parsed, for asserting on them.

import { createLogger, type Logger } from '../../../shared/logger';

export interface LogLine {
  level: string;
  category?: string;
  msg: string;
  [key: string]: unknown;
}

export function captureLogs(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  return { logger: createLogger({ level: 'debug', format: 'json', stream }), lines };
}

/** Resolves once `check` is true; fails the test after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
