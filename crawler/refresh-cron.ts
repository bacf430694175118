// The scheduled refresh (CRAWL_REFRESH_CRON): re-marks every known channel due so new uploads are
// listed within minutes. node-cron's noOverlap keeps a slow markAllDue from stacking up.

import { schedule } from 'node-cron';

export interface CronHandle {
  stop(): void | Promise<void>;
}

/** Runs `task` on `expression` until stopped. Injected so tests trigger refreshes by hand. */
export type ScheduleCron = (expression: string, task: () => Promise<void>) => CronHandle;

export const nodeCronSchedule: ScheduleCron = (expression, task) =>
  schedule(expression, () => task(), { name: 'crawler-refresh', noOverlap: true });
