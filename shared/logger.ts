// pino with the spec's level names (DEBUG, INFO, WARNING, ERROR), one child logger per category,
// ISO timestamps, and API keys redacted from every line: structured fields by path, and any
// `api_key=…` left inside a URL or message by a last pass over the serialized line.

import pino, { type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';
type Levels = 'debug' | 'info' | 'warning' | 'error';

/** The logger every module receives. Use `.child({ category })` via `categoryLogger`. */
export type Logger = pino.Logger<Levels, true>;

const LEVEL_VALUES: Record<Levels, number> = { debug: 20, info: 30, warning: 40, error: 50 };

export const REDACTED = '[REDACTED]';

/**
 * Structured places an API key (or a cookie) can appear in. Explicit paths only: wildcard paths make
 * fast-redact walk every field of every line, which costs more than the rest of an access-log line.
 * Text (URLs, messages, error strings) is covered by the `api_key=` pass in `streamWrite`.
 */
const REDACT_PATHS = [
  'apiKey',
  'api_key',
  'query.api_key',
  'req.query.api_key',
  'headers["x-api-key"]',
  'req.headers["x-api-key"]',
  // HTTP Basic carries an admin key as its password.
  'headers.authorization',
  'req.headers.authorization',
  'headers.cookie',
  'req.headers.cookie',
  'headers["set-cookie"]',
  'res.headers["set-cookie"]',
];

/** Scrub `api_key=<value>` (URL-encoded or not) from any text. */
export function redactApiKeyInText(text: string): string {
  // Most lines carry no key at all: one substring scan instead of a regex pass.
  if (!/api_key/i.test(text)) return text;
  return text.replace(/(api_key(?:=|%3D))[^&\s"'#\\]*/gi, `$1${REDACTED}`);
}

export interface LoggerOptions {
  level: LogLevel;
  /** `pretty` for people at a terminal, `json` for machines. Null = decide from the TTY. */
  format: 'pretty' | 'json' | null;
  /** Where lines go; defaults to stdout. Tests pass a capture stream. */
  stream?: DestinationStream | NodeJS.WritableStream;
  /** Extra fields on every line (e.g. `process: 'api'`). */
  base?: Record<string, unknown>;
}

export function createLogger(opts: LoggerOptions): Logger {
  const format = opts.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const options = {
    level: opts.level,
    customLevels: LEVEL_VALUES,
    useOnlyCustomLevels: true as const,
    timestamp: pino.stdTimeFunctions.isoTime,
    base: { pid: process.pid, ...opts.base },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: redactApiKeyInText },
    formatters: format === 'json' ? { level: (label: string) => ({ level: label.toUpperCase() }) } : {},
  };
  const destination =
    format === 'pretty'
      ? pretty({
          customLevels: 'debug:20,info:30,warning:40,error:50',
          translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
          ignore: 'pid,hostname,category,process',
          messageFormat: '[{category}] {msg}',
          sync: true,
          destination: (opts.stream as NodeJS.WritableStream | undefined) ?? 1,
        })
      : (opts.stream ?? pino.destination({ dest: 1, sync: true }));
  return pino<Levels, true>(options, destination as DestinationStream);
}

/** A child logger for one category (`api.http`, `store`, `crawler.batch`, `platform.http`, …). */
export function categoryLogger(root: Logger, category: string): Logger {
  return root.child({ category }) as Logger;
}

/** A logger that drops everything, for unit tests that do not look at logs. */
export function silentLogger(): Logger {
  return createLogger({ level: 'error', format: 'json', stream: { write: () => undefined } as unknown as DestinationStream });
}
