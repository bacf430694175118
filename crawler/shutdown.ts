// SIGTERM/SIGINT handling for the daemon: the first signal drains (no new claims, the request in
// flight finishes, the finished videos are stored, the lease released), bounded in time, then
// closes the browser and the store and exits 0. A second signal exits at once: readers never see
// half a batch (one transaction; on a standalone MongoDB server, ordered writes whose last moves the
// feed version), and a batch cut short is stored again on the next run.
// A rejection nobody handled is a bug whose consequences are unknown (a loop that silently stopped,
// a lease never renewed): it is logged at ERROR with its stack, and the daemon shuts down the same
// orderly way but exits 1, so that PM2 starts it afresh and the failure shows in its restart count.

import type { Logger } from '../shared/logger';

export interface ShutdownOptions {
  readonly logger: Logger;
  /** Stop the work and wait for it (Scheduler.stop). */
  readonly drain: () => Promise<void>;
  /** Longest wait for the drain before closing anyway (the lease then expires on its own). */
  readonly drainTimeoutMs: number;
  /** Release resources: unblockers (the browser), then the store. */
  readonly close: () => Promise<void>;
  readonly exit?: (code: number) => void;
  readonly signals?: readonly NodeJS.Signals[];
  readonly on?: (signal: NodeJS.Signals, handler: (signal: NodeJS.Signals) => void) => void;
  /** Where rejections nobody handled are reported; defaults to process 'unhandledRejection'. */
  readonly onUnhandledRejection?: (handler: (reason: unknown) => void) => void;
}

const EXIT_CODE: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** Installs the handlers; returns the shutdown function (also usable without a signal). */
export function handleShutdown(o: ShutdownOptions): (signal: NodeJS.Signals) => void {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let stopping = false;

  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      o.logger.warning({ signal }, 'second signal: exiting at once');
      exit(EXIT_CODE[signal] ?? 1);
      return;
    }
    o.logger.info({ signal }, 'signal received: finishing the request in flight, then exiting');
    stop(0);
  };

  const stop = (code: number): void => {
    stopping = true;
    void (async () => {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), o.drainTimeoutMs);
      });
      const drained = await Promise.race([
        o.drain().then(() => true, (err: unknown) => {
          o.logger.error({ err }, 'drain failed');
          return true;
        }),
        timedOut,
      ]);
      clearTimeout(timer);
      if (!drained) o.logger.warning({ ms: o.drainTimeoutMs }, 'drain timed out; the lease will expire on its own');
      try {
        await o.close();
      } catch (err) {
        o.logger.error({ err }, 'closing failed');
      }
      o.logger.info({}, 'crawler stopped');
      exit(code);
    })();
  };

  const onRejection = o.onUnhandledRejection ?? ((handler) => void process.on('unhandledRejection', handler));
  onRejection((reason) => {
    o.logger.error({ err: reason }, 'unhandled rejection (a bug): shutting down; exit 1 so that PM2 starts the crawler again');
    if (!stopping) stop(1);
  });

  const on = o.on ?? ((signal, handler) => void process.on(signal, handler));
  for (const s of o.signals ?? (['SIGTERM', 'SIGINT'] as const)) on(s, shutdown);
  return shutdown;
}
