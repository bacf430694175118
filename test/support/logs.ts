// Log lines captured through a stream (pino's own test habit), parsed, for asserting on them.

import { createLogger, type Logger } from '../../shared/logger';

export interface LogLine {
  level: string;
  category?: string;
  msg: string;
  [key: string]: unknown;
}

/** `raw` keeps each line's exact text, for checks that must see every spelling (API keys never logged). */
export function captureLogs(): { logger: Logger; lines: LogLine[]; raw: string[] } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = { write: (line: string) => void (raw.push(line), lines.push(JSON.parse(line) as LogLine)) };
  return { logger: createLogger({ level: 'debug', format: 'json', stream }), lines, raw };
}
