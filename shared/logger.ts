// pino with the spec's level names (DEBUG, INFO, WARNING, ERROR), one child logger per category,
// ISO timestamps, and API keys redacted from every line: structured fields by path, and any
// `api_key=…` left inside a URL or message by a last pass over the serialized line.

import cluster from 'node:cluster';
import pino, { type DestinationStream } from 'pino';
import { logTextFormatter } from './log-text';

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/** The logger every module receives. Use `.child({ category })` via `categoryLogger`. */
export type Logger = pino.Logger<LogLevel, true>;

const LEVEL_VALUES: Record<LogLevel, number> = { debug: 20, info: 30, warning: 40, error: 50 };

/**
 * `err` of every line, one shape to query: `{ type, message, stack, …own fields }` of an Error
 * (anything else as given). The error's own message only, never its causes': a raw cause (a network
 * error naming a proxy with its password, say) may hold what the error's message was made safe of.
 */
export function errFields(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const out: Record<string, unknown> = { type: err.constructor.name || err.name, message: err.message, stack: err.stack };
  for (const [key, value] of Object.entries(err)) {
    if (key !== 'cause' && !(key in out)) out[key] = value instanceof Error ? errFields(value) : value;
  }
  return out;
}

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
  /** Where lines go; defaults to stdout (see `stdoutDestination`). Tests pass a capture stream. */
  stream?: DestinationStream | NodeJS.WritableStream;
  /** Extra fields on every line (e.g. `process: 'api'`). */
  base?: Record<string, unknown>;
}

let stampMs = Number.NaN;
let stamp = '';

/**
 * pino's isoTime, built once per millisecond: a busy API logs many lines a millisecond (one per
 * answer), and formatting the date was about a fifth of each line's cost.
 */
function isoTimeOncePerMs(): string {
  const ms = Date.now();
  if (ms !== stampMs) {
    stampMs = ms;
    stamp = `,"time":"${new Date(ms).toISOString()}"`;
  }
  return stamp;
}

export function createLogger(opts: LoggerOptions): Logger {
  const format = opts.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const options = {
    level: opts.level,
    customLevels: LEVEL_VALUES,
    useOnlyCustomLevels: true as const,
    timestamp: isoTimeOncePerMs,
    base: { pid: process.pid, ...opts.base },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: errFields },
    hooks: { streamWrite: redactApiKeyInText },
    formatters: { level: (label: string) => ({ level: label.toUpperCase() }) },
    // A line logged on the root logger (no category of its own) is the process's: every line has one.
    // The common case (a categoryLogger child) costs one substring check and hands the line's own
    // object on untouched; pino's default merge would write into the object the mixin returns.
    mixin: (_merge: object, _level: number, logger: unknown) => (hasCategory(logger) ? NOTHING : processCategory),
    mixinMergeStrategy: (merge: object, mixed: object) => (mixed === NOTHING ? merge : { ...mixed, ...merge }),
  };
  const processCategory = { category: typeof opts.base?.process === 'string' ? opts.base.process : 'service' };
  const out = opts.stream ?? stdoutDestination();
  // The readable form is the JSON line put through the one formatter `npm run logs:text` uses.
  const destination = format === 'pretty' ? readableDestination(out, opts.stream === undefined && process.stdout.isTTY === true) : out;
  return pino<LogLevel, true>(options, destination as DestinationStream);
}

function readableDestination(out: DestinationStream | NodeJS.WritableStream, colorize: boolean): DestinationStream {
  const format = logTextFormatter({ colorize });
  return { write: (text: string) => void out.write(format(text)) };
}

const NOTHING = Object.freeze({});

/** Whether a logger's bindings carry a category (a categoryLogger child, or one under it). */
function hasCategory(logger: unknown): boolean {
  const bindings = (logger as Record<symbol, unknown>)[pino.symbols.chindingsSym];
  return typeof bindings === 'string' && bindings.includes('"category":');
}

/**
 * Standard output, written synchronously so that a process's last line before it exits is never
 * lost. A cluster worker's file descriptor 1 is its master's: under PM2 cluster mode that is the PM2
 * daemon's own log, and only `process.stdout.write`, which PM2 replaces in each worker, reaches
 * `pm2 logs <app>` and the app's log file. PM2 sends each line to its bus at once and appends it to
 * the file in order; `exitWhenWritten` waits for that file before the worker exits.
 */
function stdoutDestination(): DestinationStream | NodeJS.WritableStream {
  return cluster.isWorker ? process.stdout : pino.destination({ dest: 1, sync: true });
}

/** Longest wait for the log files before a cluster worker exits anyway. */
const EXIT_FLUSH_LIMIT_MS = 2000;

/**
 * Exit with `code` once every line written so far is where it goes. Outside a cluster worker lines
 * are written synchronously, so that is at once; in a PM2 cluster worker the log files are appended
 * asynchronously, and an empty write's callback comes after every write before it.
 */
export function exitWhenWritten(code: number): void {
  process.exitCode = code;
  if (!cluster.isWorker) process.exit(code);
  setTimeout(() => process.exit(code), EXIT_FLUSH_LIMIT_MS);
  let pending = 2;
  const written = (): void => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', written);
  process.stderr.write('', written);
}

/** A child logger for one category (`api.http`, `store`, `crawler.batch`, `platform.http`, …). */
export function categoryLogger(root: Logger, category: string): Logger {
  return root.child({ category }) as Logger;
}

/** A logger that drops everything, for unit tests that do not look at logs. */
export function silentLogger(): Logger {
  return createLogger({ level: 'error', format: 'json', stream: { write: () => undefined } as unknown as DestinationStream });
}
