// A key's length and a 30-bit polynomial hash of its text: what the log redactor needs to find a
// configured key inside any text in one pass (a rolling hash over every window of that length),
// without the process keeping the key itself. Thirty bits say nothing useful about a key of 8 to
// 256 characters; a window whose hash matches is confirmed against the key's SHA-256 digest.

export interface KeyFingerprint {
  readonly length: number;
  readonly hash: number;
}

const BASE = 131;
/** A prime below 2^30: BASE × hash stays an exact integer in a double. */
const MOD = 1_073_741_789;

export function fingerprintOf(text: string): KeyFingerprint {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * BASE + text.charCodeAt(i)) % MOD;
  return { length: text.length, hash: h };
}

/**
 * Calls `found(start)` for every window of `text` of length `length` whose hash is in `hashes`
 * (candidates only: the caller confirms). Linear in the text's length.
 */
export function eachCandidate(text: string, length: number, hashes: ReadonlySet<number>, found: (start: number) => void): void {
  if (text.length < length) return;
  let top = 1; // BASE^(length-1) mod MOD
  for (let i = 1; i < length; i++) top = (top * BASE) % MOD;
  let h = 0;
  for (let i = 0; i < length; i++) h = (h * BASE + text.charCodeAt(i)) % MOD;
  for (let start = 0; ; start++) {
    if (hashes.has(h)) found(start);
    const end = start + length;
    if (end >= text.length) return;
    h = (h - ((text.charCodeAt(start) * top) % MOD) + MOD) % MOD;
    h = (h * BASE + text.charCodeAt(end)) % MOD;
  }
}
