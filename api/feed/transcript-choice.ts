// Which stored transcript an entry shows: with `lang`, the first listed language the video has (its
// own manual track before its automatic one), else the platform's translation into a listed
// language, else the transcript the crawler chose by TRANSCRIPT_LANGUAGES. Without `lang`, that
// last one. Transcripts are stored once, as timed paragraphs; this is where they become HTML.

import { showsTranscript } from '../../shared/store/rules';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { parseChapters } from '../../shared/transcript/chapters';
import { renderTranscriptHtml } from '../../shared/transcript/html';
import { speaks } from '../../shared/transcript/languages';

/** The video's own track in `lang` among the stored rows: manual before automatic. */
function ownIn(rows: readonly TranscriptRecord[], lang: string): TranscriptRecord | null {
  return rows.find((r) => r.kind === 'manual' && speaks(r.language, lang)) ?? rows.find((r) => r.kind === 'automatic' && speaks(r.language, lang)) ?? null;
}

/**
 * The stored transcript an entry (and its transcript file) shows, by the rule above; null when the
 * video has none of them stored readable.
 */
export function chosenTranscript(v: Pick<VideoRecord, 'language'>, rows: readonly TranscriptRecord[], languages: readonly string[] | null): TranscriptRecord | null {
  // The crawler's own choice (TRANSCRIPT_LANGUAGES): its row is keyed by the video's language.
  const main = rows.find((r) => r.language === v.language) ?? null;
  if (languages === null) return main;
  for (const lang of languages) {
    const own = ownIn(rows, lang);
    if (own) return own;
    if (v.language !== null && speaks(v.language, lang) && main) return main;
  }
  // A language the crawler has not fetched yet: what is stored, its note saying which it is.
  return rows.find((r) => r.kind === 'translated' && languages.some((lang) => speaks(r.language, lang))) ?? main;
}

/** What a ready video shows when none of its stored transcripts can be read (a damaged file or document). */
export const UNREADABLE_TRANSCRIPT_NOTE = '<p>The stored transcript of this video could not be read.</p>';

/**
 * The entry's transcript HTML and the language it is in (a translation's target); null = the "no
 * transcript" note. A ready video none of whose rows can be read shows UNREADABLE_TRANSCRIPT_NOTE,
 * in no particular language.
 */
export function entryContent(v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): { html: string; language: string | null } | null {
  if (!showsTranscript(v)) return null;
  const chosen = chosenTranscript(v, rows, languages);
  if (chosen === null) return { html: UNREADABLE_TRANSCRIPT_NOTE, language: null };
  const html = renderTranscriptHtml({
    videoId: v.videoId,
    language: chosen.language,
    kind: chosen.kind,
    paragraphs: chosen.paragraphs,
    chapters: parseChapters(v.description, v.durationSeconds),
    untimed: chosen.untimed,
  });
  return { html, language: chosen.language };
}
