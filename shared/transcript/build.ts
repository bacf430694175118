// Cues of one track → the transcript as stored and shown: paragraphs with their start times, cut at
// the creator's chapters (read from the description under the platform's rule), rendered to HTML.
// Both ways of getting cues (the app clients' timed text, the browser's web player) end here.

import { timedParagraphs } from '../platform/paragraphs';
import type { Cue } from '../platform/timedtext';
import { parseChapters, type Chapter } from './chapters';
import { renderTranscriptHtml, type TimedTranscript, type TrackKind } from './html';

export interface TrackFacts {
  videoId: string;
  language: string;
  kind: TrackKind;
  /** `videoDetails.shortDescription`; null when the answer did not carry it. */
  description: string | null;
  /** `videoDetails.lengthSeconds`; null when unknown. */
  durationSeconds: number | null;
}

export interface BuiltTranscript extends TimedTranscript {
  readonly html: string;
}

/** `spoken` are the cues with text, in order. */
export function buildTranscript(spoken: readonly Cue[], facts: TrackFacts): BuiltTranscript {
  const chapters: Chapter[] = parseChapters(facts.description, facts.durationSeconds);
  const paragraphs = timedParagraphs(spoken, chapters.map((c) => c.startSeconds * 1000));
  const timed: TimedTranscript = { videoId: facts.videoId, language: facts.language, kind: facts.kind, paragraphs, chapters };
  return { ...timed, html: renderTranscriptHtml(timed) };
}
