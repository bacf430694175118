// How text becomes searchable words, written once for the reader's query, the SQLite and MongoDB
// indexes and the highlighter, so all of them agree on what a word is: runs of letters and digits,
// lower-cased, diacritics removed, and Turkish İ/ı/I/i all one `i` (Unicode's own case mapping
// keeps dotless ı apart, and engines' diacritic folding does not join it to i).

/** One searchable word and where it came from in the original text (UTF-16 offsets). */
export interface Token {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

// A word as written: letters and digits with the combining marks that decorate them.
const WRITTEN_WORD = /[\p{L}\p{N}\p{M}]+/gu;
// A folded word: letters and digits only (compatibility forms such as ½ fold into several).
const FOLDED_WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
const DOTLESS_I = /ı/g;

/** Lower-case, compatibility-decompose, drop diacritics, Turkish dotless ı → i. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(DOTLESS_I, 'i');
}

/** The searchable words of `text`, each with its span in `text`. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WRITTEN_WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    const folded = fold(m[0]);
    // Most words fold to one word; a ligature or fraction may give several, all at the same span.
    for (const w of folded.matchAll(FOLDED_WORD)) out.push({ word: w[0], start, end });
  }
  return out;
}

/** Just the words of `text`. */
export function wordsOf(text: string): string[] {
  return tokenize(text).map((t) => t.word);
}
