// The one seeded random generator of tests and benchmarks: a generated channel, a fuzz run or a
// synthetic data set is the same on every run and every machine, and a failure replays from its seed.

export type Rng = () => number;

/** 32-bit FNV-1a: turns any string seed into a number. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast, good enough for test data. */
export function makeRng(seed: number | string): Rng {
  let a = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function between(rng: Rng, min: number, max: number): number {
  return min + rng() * (max - min);
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `length` characters of the platform's id alphabet. */
export function randomId(rng: Rng, length: number): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ID_ALPHABET[Math.floor(rng() * 64)];
  return id;
}
