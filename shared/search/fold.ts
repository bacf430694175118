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

/** Lower-case, compatibility-decompose, drop diacritics, Turkish dotless ı → i, final ς → σ. */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let s = text.normalize('NFKD').replace(COMBINING_DIACRITICS, '');
  if (BEYOND_DIACRITICS.test(s)) s = s.replace(MARKS, '');
  s = s.toLowerCase();
  if (s.includes('ı')) s = s.replace(DOTLESS_I, 'i');
  if (s.includes('ς')) s = s.replace(FINAL_SIGMA, 'σ');
  return s;
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
