// Cues of one track → the transcript as stored: paragraphs with their start times, cut at the
// creator's chapters (read from the description under the platform's rule). Both ways of getting
// cues (the app clients' timed text, the browser's web player) end here. Nothing is rendered here:
// feeds render the stored paragraphs when they are served (html.ts renderTranscriptHtml).

import { timedParagraphs } from './paragraphs';
import type { Cue } from './timedtext';
import type { Transcript } from './types';
import type { TranscriptKind } from '../store/types';
import { parseChapters, type Chapter } from './chapters';
import type { TimedTranscript, TrackKind } from './html';

export interface TrackFacts {
  videoId: string;
  language: string;
  kind: TrackKind;
  /** `videoDetails.shortDescription`; null when the answer did not carry it. */
  description: string | null;
  /** `videoDetails.lengthSeconds`; null when unknown. */
  durationSeconds: number | null;
}

/** `spoken` are the cues with text, in order. */
export function buildTranscript(spoken: readonly Cue[], facts: TrackFacts): TimedTranscript {
  const chapters: Chapter[] = parseChapters(facts.description, facts.durationSeconds);
  const paragraphs = timedParagraphs(spoken, chapters.map((c) => c.startSeconds * 1000));
  return { videoId: facts.videoId, language: facts.language, kind: facts.kind, paragraphs, chapters };
}

/**
 * The `Transcript` both ways of getting cues hand on, built from `spoken` (the caller adds what only
 * it knows: video details, other languages), with the chapters it was cut at so that other
 * languages can be cut at the same places.
 */
export function transcriptOf(spoken: readonly Cue[], facts: TrackFacts & { kind: TranscriptKind }): { transcript: Transcript; chapters: readonly Chapter[] } {
  const built = buildTranscript(spoken, facts);
  return {
    transcript: { language: facts.language, kind: facts.kind, cueCount: spoken.length, paragraphs: [...built.paragraphs] },
    chapters: built.chapters,
  };
}
