// One claimed video → its summary: the stored video and transcript read back, the language chosen
// (SUMMARY_LANGUAGE's, else the video's own track), the model asked, the points stored. A video
// nothing can be cited in (no timed transcript) is marked failed rather than asked about.

import { languageName } from '../../shared/transcript/html';
import { parseChapters } from '../../shared/transcript/chapters';
import type { StoredTextStore, SummaryKey, SummaryRecord, TranscriptRecord } from '../../shared/store/types';
import { PROMPT_VERSION } from '../../shared/summary/prompt';
import { spansOf, summarise, type Ask, type SummaryOutcome } from '../../shared/summary/summarise';

export interface SummaryJobSettings {
  readonly language: string;
  readonly model: string;
  readonly contextTokens: number;
}

export const summaryKeyOf = (s: Pick<SummaryJobSettings, 'language'>): SummaryKey => ({ language: s.language, promptVersion: PROMPT_VERSION });

export type JobResult =
  | { readonly kind: 'made'; readonly record: SummaryRecord; readonly outcome: SummaryOutcome }
  | { readonly kind: 'failed'; readonly why: string; readonly outcome: SummaryOutcome | null };

function pickTranscript(ts: readonly TranscriptRecord[], language: string): TranscriptRecord | null {
  const timed = ts.filter((t) => t.untimed !== true && t.paragraphs.length > 0);
  return timed.find((t) => t.language === language) ?? timed.find((t) => t.kind !== 'translated') ?? timed[0] ?? null;
}

/** Throws ModelFault when the model could not be asked; the queue backs off from it. */
export async function summariseVideo(store: StoredTextStore, ask: Ask, videoId: string, s: SummaryJobSettings, now: () => Date): Promise<JobResult> {
  const [videos, transcripts] = await Promise.all([store.getVideos([videoId]), store.getTranscripts([videoId])]);
  const video = videos[0];
  const t = pickTranscript(transcripts, s.language);
  if (!video || !t) return { kind: 'failed', why: 'no timed transcript stored', outcome: null };
  const outputLanguage = s.language === 'transcript' ? t.language : s.language;
  const durationMs = video.durationSeconds ? video.durationSeconds * 1000 : null;
  const outcome = await summarise(
    ask,
    { title: video.title, chapters: parseChapters(video.description, video.durationSeconds), paragraphs: t.paragraphs, languageName: languageName(outputLanguage) },
    spansOf(t.paragraphs, durationMs),
    s.contextTokens,
  );
  if (outcome.points.length === 0) return { kind: 'failed', why: 'the model\'s answers held no point with a time in the transcript (asked twice)', outcome };
  const key = summaryKeyOf(s);
  return {
    kind: 'made',
    outcome,
    record: {
      videoId, language: key.language, promptVersion: key.promptVersion, transcriptLanguage: t.language, model: s.model,
      points: outcome.points.map((p) => ({ seconds: p.seconds, text: p.text })), promptTokens: outcome.promptTokens, completionTokens: outcome.completionTokens, madeAt: now(),
    },
  };
}
