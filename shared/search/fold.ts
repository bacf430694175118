// How text becomes searchable words, written once for the reader's query, the SQLite and MongoDB
// indexes and the highlighter, so all of them agree on what a word is: after folding (lower case,
// compatibility forms decomposed, diacritics dropped, Turkish İ/ı/I/i all one `i` — Unicode's own
// case mapping keeps dotless ı apart, and engines' diacritic folding does not join it to i — and
// final sigma as sigma), a word is a run of letters and digits.
//
// Folding works code point by code point (no step looks at a neighbour: marks are dropped, and
// the one context rule of lower-casing, final sigma, is undone), so folding a whole text gives the
// same words as folding each character: wordsOf folds whole texts fast, tokenize keeps each word's
// place in the original for <mark>.

/** One searchable word and where it came from in the original text (UTF-16 offsets). */
export interface Token {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
const NON_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}+/gu;
// Scanning for \p{M} is slow; Latin, Greek and Cyrillic text only holds the combining diacritics
// block after NFKD, so the full scan runs only when a character beyond it is present.
const COMBINING_DIACRITICS = /[\u0300-\u036f]+/g;
const BEYOND_DIACRITICS = /[\u0370-\uffff]/;
const DOTLESS_I = /ı/g;
const FINAL_SIGMA = /ς/g;

/**
 * The rule as written, for one code point or a whole text alike (it looks at no neighbour):
 * lower-case, NFKD, marks dropped, ı → i, ς → σ.
 */
function foldByRule(text: string): string {
  let s = text.normalize('NFKD').replace(COMBINING_DIACRITICS, '');
  if (BEYOND_DIACRITICS.test(s)) s = s.replace(MARKS, '');
  s = s.toLowerCase();
  if (s.includes('ı')) s = s.replace(DOTLESS_I, 'i');
  if (s.includes('ς')) s = s.replace(FINAL_SIGMA, 'σ');
  return s;
}

// Since folding looks at no neighbour, the fold of a text is the folds of its code points in turn,
// and each BMP code point's fold is worked out once and kept: ONE_UNIT[c] is c's fold when that is
// one UTF-16 unit (+1, so 0 means not yet known), MULTI when it is empty or longer (kept in
// MULTI_FOLDS). The search index folds every stored transcript (10 KB a video) inside the crawler's
// batch write, where NFKD and the regular expressions over the whole text cost more than FTS5 itself
// (bench/search-floor.ts); a table lookup per unit into one buffer costs a fraction of that.
const MULTI = 0xffff;
const ONE_UNIT = new Uint16Array(0x10000);
const MULTI_FOLDS = new Map<number, string>();
// ignoreBOM: a text may begin with U+FEFF, which is its own fold, not a byte order mark to drop.
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });
let out = new Uint16Array(4096);

function unitFold(c: number): number {
  let known = ONE_UNIT[c]!;
  if (known === 0) {
    const f = foldByRule(String.fromCharCode(c));
    known = f.length === 1 && f.charCodeAt(0) < MULTI - 1 ? f.charCodeAt(0) + 1 : MULTI;
    if (known === MULTI) MULTI_FOLDS.set(c, f);
    ONE_UNIT[c] = known;
  }
  return known;
}

/** Lower-case, compatibility-decompose, drop diacritics, Turkish dotless ı → i, final ς → σ. */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const n = text.length;
  // Room for 3 units out per unit in; a text whose expansions (up to 18 units, U+FDFA) would not
  // leave room for the rest goes the slow way (each expansion checks, so no write falls outside).
  if (out.length < n * 3) out = new Uint16Array(n * 3);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out[o++] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A surrogate pair (or a lone surrogate, which the decoder below would replace): its own fold.
      const w = c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      if (w === 1) return foldByRule(text);
      const f = foldByRule(text.slice(i, i + 2));
      if (o + f.length + (n - i - 2) > out.length) return foldByRule(text);
      for (let k = 0; k < f.length; k++) out[o++] = f.charCodeAt(k);
      i += 1;
    } else {
      const known = unitFold(c);
      if (known !== MULTI) {
        out[o++] = known - 1;
      } else {
        const f = MULTI_FOLDS.get(c)!;
        if (o + f.length + (n - i - 1) > out.length) return foldByRule(text);
        for (let k = 0; k < f.length; k++) out[o++] = f.charCodeAt(k);
      }
    }
  }
  return UTF16.decode(out.subarray(0, o));
}


/** The searchable words of `text`. */
export function wordsOf(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/** The searchable words of `text`, each with the span of the original characters it came from. */
export function tokenize(text: string): Token[] {
  let folded = '';
  const origin: number[] = []; // folded UTF-16 index → original index of its code point
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const f = fold(text.slice(i, i + width));
    for (let k = 0; k < f.length; k++) origin.push(i);
    folded += f;
    i += width;
  }
  origin.push(text.length);
  const out: Token[] = [];
  for (const m of folded.matchAll(WORD)) {
    const lastStart = origin[m.index + m[0].length - 1]!;
    const lastCp = text.codePointAt(lastStart)!;
    out.push({ word: m[0], start: origin[m.index]!, end: lastStart + (lastCp > 0xffff ? 2 : 1) });
  }
  return out;
}
