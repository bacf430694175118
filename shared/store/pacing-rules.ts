// Minute buckets of the platform requests every process sends, summed over a sliding hour: the
// crawler's hourly budget and the API's handle lookups share one count through the store.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export const minuteOf = (now: Date): number => Math.floor(now.getTime() / MINUTE_MS);

/** The first minute bucket inside the hour up to `now` (buckets are whole minutes, so up to a minute more). */
export const hourStartMinute = (now: Date): number => minuteOf(now) - HOUR_MS / MINUTE_MS + 1;

export function checkedCount(count: number): number {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`platform request count must be a whole number ≥ 0, got ${count}`);
  return count;
}
