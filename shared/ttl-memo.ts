// What the API remembers "for a TTL" (a follow recorded, a registration, the languages asked, a
// channel feed's state, a combined feed's listing, a search's answer) holds by one rule, so the
// places that remember cannot drift apart: younger than the TTL, and not from the future (a clock
// gone back makes a stamp look young for as long as it went back; it is looked up again instead).

/** Whether a stamp taken at `at` (ms) still holds at `now` (ms) for `ttlMs`. */
export function withinTtl(at: number, now: number, ttlMs: number): boolean {
  const age = now - at;
  return age >= 0 && age < ttlMs;
}

/** Where remembered values live (the API's cache slots are such). */
export interface MemoSlot<V> {
  get(key: string): V | undefined;
}

/** The value remembered under `key` while its stamp (`at`, ms) holds at `now`, else undefined. */
export function remembered<V extends { readonly at: number }>(slot: MemoSlot<V>, key: string, now: number, ttlMs: number): V | undefined {
  const seen = slot.get(key);
  return seen !== undefined && withinTtl(seen.at, now, ttlMs) ? seen : undefined;
}
