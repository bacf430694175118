// Cues → paragraphs for feed readers. A new paragraph starts at a pause in the speech, after a
// sentence end once the paragraph is long enough, and in any case before it becomes a wall of text
// (automatic captions have no punctuation at all, so pauses and the hard limit are all they offer).
// Texts stay plain here; shared/transcript/html.ts escapes and renders them.

import type { Cue } from './timedtext';

export interface ParagraphOptions {
  /** Silence between two cues that starts a new paragraph. */
  pauseMs: number;
  /** Past this length a sentence end closes the paragraph. */
  softChars: number;
  /** Past this length any cue boundary closes it. */
  hardChars: number;
  /**
   * A sentence running over a chapter start stays whole in the paragraph before the chapter when it
   * ends (or the speaker pauses) within this long after the start; else the cut is at the start.
   */
  sentenceGraceMs: number;
}

export const DEFAULT_PARAGRAPHS: ParagraphOptions = { pauseMs: 2000, softChars: 600, hardChars: 1500, sentenceGraceMs: 5000 };

export const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

/** One paragraph and the start of its first cue, so that it can link to that moment. */
export interface TimedParagraph {
  startMs: number;
  /** Plain text (not escaped). */
  text: string;
}

const endOf = (cue: Cue): number | null => (cue.durMs === null ? null : cue.startMs + cue.durMs);

/** Without a duration the cue's end is unknown, so no pause can be seen after it. */
const pauseBetween = (before: Cue, after: Cue, pauseMs: number): boolean => {
  const end = endOf(before);
  return end !== null && after.startMs - end >= pauseMs;
};

/**
 * Where the paragraph before a chapter start ends when the sentence open at the start (cue `from`
 * is the first one at or after it) finishes within the grace: the index after the cue that ends it,
 * or of the cue after a pause. `from` itself when it does not finish in time: the cut is at the
 * start. Only cues before `limitMs` are looked at, and the caller makes that no later than the next
 * chapter start, so each cue is looked at for one chapter start at most: linear in all.
 */
function sentenceEnd(cues: readonly Cue[], from: number, limitMs: number, pauseMs: number): number {
  let prev: Cue | null = null;
  for (let j = from; j < cues.length && cues[j]!.startMs < limitMs; j += 1) {
    const cue = cues[j]!;
    if (cue.text === '') continue;
    if (prev !== null && pauseBetween(prev, cue, pauseMs)) return j;
    if (SENTENCE_END.test(cue.text)) return j + 1;
    prev = cue;
  }
  return from;
}

/**
 * Paragraphs with their start times. `boundariesMs` (chapter starts) begin a new paragraph, so
 * that no paragraph straddles a chapter boundary — except that a sentence open at a boundary is not
 * cut in two when it ends within `sentenceGraceMs` after it: it finishes the paragraph before.
 */
export function timedParagraphs(cues: readonly Cue[], boundariesMs: readonly number[] = [], opts: ParagraphOptions = DEFAULT_PARAGRAPHS): TimedParagraph[] {
  const out: TimedParagraph[] = [];
  let parts: string[] = [];
  let startMs = 0;
  let length = 0;
  let prev: Cue | null = null;
  const bounds = [...boundariesMs].sort((a, b) => a - b);
  let nextBound = 0;
  // The boundary last crossed, and the index of the first cue after the sentence it waits for.
  let bound = Number.NEGATIVE_INFINITY;
  let cutAt = -1;
  const flush = (): void => {
    if (parts.length) out.push({ startMs, text: parts.join(' ') });
    parts = [];
    length = 0;
  };
  for (let i = 0; i < cues.length; i += 1) {
    const cue = cues[i]!;
    if (cue.text === '') continue;
    let crossed = false;
    while (nextBound < bounds.length && bounds[nextBound]! <= cue.startMs) {
      bound = bounds[nextBound]!;
      nextBound += 1;
      crossed = true;
    }
    if (crossed) {
      const open = parts.length > 0 && prev !== null && !SENTENCE_END.test(prev.text) && !pauseBetween(prev, cue, opts.pauseMs);
      const limit = Math.min(bound + opts.sentenceGraceMs, bounds[nextBound] ?? Number.POSITIVE_INFINITY);
      cutAt = open ? sentenceEnd(cues, i, limit, opts.pauseMs) : i;
    }
    if (parts.length) {
      // The chapter's cut, once its open sentence is done; not when a paragraph already began after it.
      const chapterCut = i >= cutAt && cutAt >= 0 && startMs < bound;
      const pause = prev !== null && pauseBetween(prev, cue, opts.pauseMs);
      const sentenceDone = length >= opts.softChars && prev !== null && SENTENCE_END.test(prev.text);
      if (chapterCut || pause || sentenceDone || length + cue.text.length > opts.hardChars) flush();
    }
    if (!parts.length) startMs = cue.startMs;
    parts.push(cue.text);
    length += cue.text.length + 1;
    prev = cue;
  }
  flush();
  return out;
}
