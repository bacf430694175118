// What both entry points do first, the same way: configuration → logger → store. A start-up failure
// becomes one line on stderr per problem, each naming its variable, and a non-zero exit, so nothing
// half-starts and an operator reading `pm2 logs` sees every cause at once.

import { ConfigError, describeConfig, loadConfig, type Config } from './config/load';
import { RETIRED_SETTINGS } from './config/settings';
import { categoryLogger, createLogger, exitWhenWritten, type Logger } from './logger';
import { openStore } from './store';
import type { Store } from './store/types';
import { messageOf } from './error-text';

export type ProcessName = 'api' | 'crawler';

export interface ProcessContext {
  config: Config;
  /** Root logger; take category children with categoryLogger. */
  logger: Logger;
  store: Store;
}

/** A start-up problem an operator can fix; printed as one line, never with a stack. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  /** False when starting again cannot help (a port in use): the process exits START_REFUSED_EXIT_CODE. */
  readonly retry: boolean;

  constructor(message: string, options: { cause?: unknown; retry?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retry = options.retry ?? true;
  }
}

/**
 * Exit code of a start-up problem that starting again cannot cure: a bad setting or key file, a port
 * in use. ecosystem.config.js lists it in `stop_exit_codes`, so PM2 leaves the process stopped instead
 * of restarting it in a loop, and `npm start` ends with a failure (sysexits' EX_CONFIG). Anything else
 * at start (the store unreachable) exits 1 and PM2 tries again with its back-off.
 */
export const START_REFUSED_EXIT_CODE = 78;

export async function bootstrap(name: ProcessName, env: NodeJS.ProcessEnv = process.env): Promise<ProcessContext> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, base: { process: name } });
  categoryLogger(logger, name).info({ config: describeConfig(config) }, `${name} starting with this configuration`);
  for (const retired of config.retiredSet) {
    categoryLogger(logger, name).warning({ setting: retired }, `${retired} is no longer used and is ignored: ${RETIRED_SETTINGS[retired]}`);
  }
  let store: Store;
  try {
    const storeLog = categoryLogger(logger, 'store');
    store = await openStore(config.databaseUrl, {
      logger: storeLog, rootDir: config.rootDir, ...storeWaits(name, config),
      onFileLost: (reason) => exitOnLostDatabase(name, storeLog, reason),
    });
  } catch (err) {
    throw new StartupError(`DATABASE_URL: cannot open the store (${oneLine(err)})`, { cause: err });
  }
  return { config, logger, store };
}

/** Exit code when the SQLite file was deleted or replaced under the process (PM2 restarts it). */
export const LOST_DATABASE_EXIT_CODE = 3;

/**
 * The SQLite file this process opened was deleted or replaced: going on would write to a file no
 * other process will ever read. Report it and exit (not a crash: one ERROR line, no stack) so that
 * PM2 restarts every process on the one current file.
 */
function exitOnLostDatabase(name: ProcessName, log: Logger, reason: string): void {
  log.error({ reason, exitCode: LOST_DATABASE_EXIT_CODE }, `the database file was ${reason} while the ${name} had it open; exiting so it restarts on the current file`);
  exitWhenWritten(LOST_DATABASE_EXIT_CODE);
}

/** After a locked write (or an unreachable MongoDB) the API fails store calls at once for this long (then tries again). */
export const API_LOCKED_FAIL_FAST_MS = 1000;

/** API_STORE_BUSY_TIMEOUT_MS when left empty: a local file's lock wait, or a networked server's answer. */
export const API_STORE_WAIT_DEFAULT_MS = { sqlite: 100, mongodb: 1000 } as const;

/**
 * How long each process waits for the store. The API answers requests on one event loop, so it
 * waits briefly and then fails fast for a second (a 500 beats a frozen /health or a request hanging
 * through a MongoDB failover); the crawler has nothing else to do and keeps the long defaults.
 */
export function storeWaits(name: ProcessName, config: Pick<Config, 'apiStoreBusyTimeoutMs' | 'databaseUrl'>): { busyTimeoutMs?: number; busyFailFastMs?: number } {
  if (name !== 'api') return {};
  const backend = config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'mongodb';
  return { busyTimeoutMs: config.apiStoreBusyTimeoutMs ?? API_STORE_WAIT_DEFAULT_MS[backend], busyFailFastMs: API_LOCKED_FAIL_FAST_MS };
}

/**
 * Print a start-up failure and exit: one line per configuration problem (all of them at once), else
 * one line. Unknown errors keep their message only, never a stack. A problem starting again cannot
 * cure exits START_REFUSED_EXIT_CODE, anything else 1.
 */
export function exitOnStartupError(name: ProcessName, err: unknown): void {
  const lines = err instanceof ConfigError ? err.problems : [err instanceof StartupError ? err.message : `start-up failed: ${oneLine(err)}`];
  process.stderr.write(lines.map((line) => `transcript-feed ${name}: ${oneLine(line)}\n`).join(''));
  const final = err instanceof ConfigError || (err instanceof StartupError && !err.retry);
  exitWhenWritten(final ? START_REFUSED_EXIT_CODE : 1);
}

function oneLine(err: unknown): string {
  const text = messageOf(err);
  return text.split('\n')[0]!.trim();
}
