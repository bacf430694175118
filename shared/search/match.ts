// The query's meaning, decided here for both backends: a video matches when every clause has a
// term found in one of its segments (the title, or one paragraph of any stored transcript) and no
// excluded term is found in any. A phrase is found when its words follow each other inside one
// segment. Engines only narrow the candidates; this is what decides, so SQLite and MongoDB give
// the same answers. The highlighter finds the same terms in a paragraph for <mark>.

import { tokenize, wordsOf, type Token } from './fold';
import { positiveTerms, type SearchQuery, type Term } from './query';

/** Whether `term` occurs in `words` (a phrase as consecutive words). */
export function occursIn(term: Term, words: readonly string[]): boolean {
  return findAll(term, words).length > 0;
}

/** Start indexes of every occurrence of `term` in `words`. */
function findAll(term: Term, words: readonly string[]): number[] {
  const hits: number[] = [];
  if (term.length === 0) return hits;
  const first = term[0];
  outer: for (let i = 0; i + term.length <= words.length; i++) {
    if (words[i] !== first) continue;
    for (let j = 1; j < term.length; j++) if (words[i + j] !== term[j]) continue outer;
    hits.push(i);
  }
  return hits;
}

/** Whether a document made of these segments (each a list of folded words) matches the query. */
export function matchesSegments(q: SearchQuery, segments: readonly (readonly string[])[]): boolean {
  const found = (t: Term): boolean => segments.some((s) => occursIn(t, s));
  return q.all.every((clause) => clause.some(found)) && !q.none.some(found);
}

/** The segments of a video: its title, then every paragraph of every stored transcript. */
export function segmentsOf(title: string, transcripts: readonly { paragraphs: readonly { text: string }[] }[]): string[][] {
  const out = [wordsOf(title)];
  for (const t of transcripts) for (const p of t.paragraphs) out.push(wordsOf(p.text));
  return out;
}

/** A span of the original text to wrap in <mark>. */
export interface Highlight {
  readonly start: number;
  readonly end: number;
}

/**
 * Where the query's positive terms occur in `text`, as merged spans of the original text (a
 * phrase is one span from its first word to its last); empty when none occurs.
 */
export function highlightsIn(q: SearchQuery, text: string): Highlight[] {
  const tokens: Token[] = tokenize(text);
  const words = tokens.map((t) => t.word);
  const spans: Highlight[] = [];
  for (const term of positiveTerms(q)) {
    for (const i of findAll(term, words)) spans.push({ start: tokens[i]!.start, end: tokens[i + term.length - 1]!.end });
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Highlight[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, s.end) };
    else merged.push(s);
  }
  return merged;
}
