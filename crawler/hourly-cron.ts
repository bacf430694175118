// The crawler's one clock-driven task: the hourly report of how far behind the listing schedule is
// (scheduler.ts). node-cron's noOverlap keeps a slow report from stacking up.

import { schedule } from 'node-cron';

export interface CronHandle {
  stop(): void | Promise<void>;
}

/** Runs `task` on `expression` until stopped. Injected so tests run the report by hand. */
export type ScheduleCron = (expression: string, task: () => Promise<void>) => CronHandle;

export const nodeCronSchedule: ScheduleCron = (expression, task) =>
  schedule(expression, () => task(), { name: 'crawler-schedule-report', noOverlap: true });
