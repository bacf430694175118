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
}

export const DEFAULT_PARAGRAPHS: ParagraphOptions = { pauseMs: 2000, softChars: 600, hardChars: 1500 };

const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

/** One paragraph and the start of its first cue, so that it can link to that moment. */
export interface TimedParagraph {
  startMs: number;
  /** Plain text (not escaped). */
  text: string;
}

/**
 * Paragraphs with their start times. `boundariesMs` (chapter starts) always begin a new paragraph,
 * so that no paragraph straddles a chapter boundary.
 */
export function timedParagraphs(cues: readonly Cue[], boundariesMs: readonly number[] = [], opts: ParagraphOptions = DEFAULT_PARAGRAPHS): TimedParagraph[] {
  const out: TimedParagraph[] = [];
  let parts: string[] = [];
  let startMs = 0;
  let length = 0;
  let prevEnd: number | null = null;
  let prevText = '';
  const bounds = [...boundariesMs].sort((a, b) => a - b);
  let nextBound = 0;
  const flush = (): void => {
    if (parts.length) out.push({ startMs, text: parts.join(' ') });
    parts = [];
    length = 0;
  };
  for (const cue of cues) {
    if (cue.text === '') continue;
    let crossed = false;
    while (nextBound < bounds.length && bounds[nextBound]! <= cue.startMs) {
      nextBound += 1;
      crossed = true;
    }
    if (parts.length) {
      // Without a duration the cue's end is unknown, so no pause can be seen before the next one.
      const pause = prevEnd !== null && cue.startMs - prevEnd >= opts.pauseMs;
      const sentenceDone = length >= opts.softChars && SENTENCE_END.test(prevText);
      if (crossed || pause || sentenceDone || length + cue.text.length > opts.hardChars) flush();
    }
    if (!parts.length) startMs = cue.startMs;
    parts.push(cue.text);
    length += cue.text.length + 1;
    prevEnd = cue.durMs === null ? null : cue.startMs + cue.durMs;
    prevText = cue.text;
  }
  flush();
  return out;
}
