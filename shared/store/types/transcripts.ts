// Transcripts: one video's text in one language, and the languages readers ask of a channel.

/** Which caption track a transcript came from. */
export type TranscriptKind = 'manual' | 'automatic';

/** A stored transcript's track: the video's own (manual, automatic) or the platform's translation. */
export type TranscriptRecordKind = TranscriptKind | 'translated';

/**
 * One video's transcript in one language: the only stored copy of its text. Feeds render it when
 * they are served (api/feed/transcript-choice.ts), so the HTML can change without fetching again.
 * Chapters are not stored here: they are read from the video's stored description when rendering.
 */
export interface TranscriptRecord {
  videoId: string;
  /** The code the text is in (a translation's target language). */
  language: string;
  kind: TranscriptRecordKind;
  /** Paragraphs with the start of their first cue, already cut at the chapters. */
  paragraphs: { startMs: number; text: string }[];
  /**
   * True only on paragraphs recovered from a transcript stored as HTML before start times were
   * kept: every startMs is then 0 and means nothing, so they are shown without time links.
   */
  untimed?: boolean;
  fetchedAt: Date;
}

/** Stored transcripts and the languages each channel keeps. */
export interface TranscriptStore {
  /** Every stored language of these videos, by video id then language. */
  getTranscripts(videoIds: readonly string[]): Promise<TranscriptRecord[]>;
  /**
   * Record that a reader (`keyId`; null or left out: no key) asked for these languages on the
   * channel at `now`; repeating is harmless. A language the channel did not keep (never asked, or
   * not within LANGUAGE_KEEP_MS) makes the channel awaited by that key, so its stored videos are
   * backfilled soon, in the key's turn; a channel backing off after failures keeps its schedule.
   */
  askLanguages(channelId: string, languages: readonly string[], now: Date, keyId?: string | null): Promise<void>;
  /**
   * The languages the channel keeps at `now`, at most `limit` (language-choice.ts: asked within 30
   * days, each key's own most recent first, round by round over keys).
   */
  wantedLanguages(channelId: string, limit: number, now: Date): Promise<string[]>;
  /**
   * Of those `limit` languages, the ones the crawler has not yet fetched for the videos stored
   * before they were asked for (see markLanguagesCovered), in the same order.
   */
  languagesToBackfill(channelId: string, limit: number, now: Date): Promise<string[]>;
  /**
   * The crawler went through the channel's stored videos for these languages (the ones it keeps);
   * every other language of the channel is marked not covered, since the videos stored meanwhile
   * were fetched without it: should it be kept again, they are backfilled.
   */
  markLanguagesCovered(channelId: string, languages: readonly string[], now: Date): Promise<void>;
}
