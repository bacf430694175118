// A video's transcript as the crawler hands it to the store: what both ways of getting cues (the app
// clients' timed text, the browser's web player) produce.

import type { TranscriptKind } from '../store/types';
import type { TimedParagraph } from './paragraphs';

export interface Transcript {
  language: string;
  kind: TranscriptKind;
  cueCount: number;
  /** What the player answer says of the video itself; left out where no player answer was read. */
  details?: VideoDetails;
  /** The paragraphs with their start times: what is stored, and rendered when a feed is served. */
  paragraphs: TimedParagraph[];
  /** The reader's other languages, fetched from the same player answer as this one. */
  others?: LanguageTranscript[];
  /**
   * Every language the player answer offered: its fetchable tracks' codes, and the translation
   * targets when a track is translatable. Left out where no player answer was read.
   */
  offered?: string[];
}

/** One more language of a video: its own track in that language, or the platform's translation. */
export interface LanguageTranscript {
  language: string;
  kind: TranscriptKind | 'translated';
  paragraphs: TimedParagraph[];
  cueCount: number;
}

/** `videoDetails` of a player answer (docs/crawler.md §3): free with the transcript's player call. */
export interface VideoDetails {
  durationSeconds: number | null;
  description: string | null;
  /** `isLiveContent`: a live stream (aired or airing). */
  live: boolean;
}
