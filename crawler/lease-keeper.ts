// Keeps a claimed channel's lease alive while a run works on it: renews at a third of the lease
// so two missed renewals still leave time. A renewal that fails or finds the lease gone means
// another crawler may take the channel over, so the run is told to stop after its current request.

import type { Logger } from '../shared/logger';
import type { Store } from '../shared/store/types';
import { crawlerMetrics } from './metrics';

/** Calls `fn` every `ms` until the returned function is called. */
export type Every = (ms: number, fn: () => void) => () => void;

export const realEvery: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface LeaseKeeperOptions {
  readonly store: Store;
  readonly channelId: string;
  readonly owner: string;
  readonly leaseMs: number;
  readonly now: () => Date;
  readonly logger: Logger;
  /** Called once, when the lease cannot be kept. */
  readonly onLost: (reason: string) => void;
  readonly every?: Every;
}

export function keepLease(o: LeaseKeeperOptions): { stop(): void } {
  let renewing = false;
  let lost = false;
  const lose = (reason: string): void => {
    if (lost) return;
    lost = true;
    crawlerMetrics.leaseLost();
    o.logger.warning({ channelId: o.channelId, reason }, 'lease lost; stopping the run after the current request');
    o.onLost(reason);
  };
  const renew = async (): Promise<void> => {
    if (renewing || lost) return;
    renewing = true;
    try {
      if (!(await o.store.renewLease(o.channelId, o.owner, o.leaseMs, o.now()))) lose('lease taken over or expired');
      else o.logger.debug({ channelId: o.channelId }, 'lease renewed');
    } catch (err) {
      lose(`lease renewal failed: ${(err as Error).message}`);
    } finally {
      renewing = false;
    }
  };
  const cancel = (o.every ?? realEvery)(Math.max(1, Math.floor(o.leaseMs / 3)), () => void renew());
  return { stop: cancel };
}
