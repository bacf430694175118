// Log lines captured through a stream (pino's own test habit), parsed, for asserting on them.

import { createLogger, type Logger } from '../../shared/logger';

export interface LogLine {
  level: string;
  category?: string;
  msg: string;
  [key: string]: unknown;
}

export interface CapturedLogs {
  logger: Logger;
  lines: LogLine[];
  /** Each line's exact text, for checks that must see every spelling (API keys never logged). */
  raw: string[];
}

export function captureLogs(): CapturedLogs {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = { write: (line: string) => void (raw.push(line), lines.push(JSON.parse(line) as LogLine)) };
  return { logger: createLogger({ level: 'debug', format: 'json', stream }), lines, raw };
}
