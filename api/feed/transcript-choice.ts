// Which stored transcript an entry shows (issue #10): with `lang`, the first listed language the
// video has (its own manual track before its automatic one), else the platform's translation into
// a listed language, else the transcript the crawler chose by TRANSCRIPT_LANGUAGES. Without `lang`,
// that last one, as before. Stored paragraphs are rendered here, so the HTML can change without
// fetching again; records stored before paragraphs were render the HTML stored with them.

import { shownTranscript } from '../../shared/store/rules';
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
 * video has no stored paragraphs for it (an entry then shows the HTML stored with older records).
 */
export function chosenTranscript(v: Pick<VideoRecord, 'language' | 'kind'>, rows: readonly TranscriptRecord[], languages: readonly string[] | null): TranscriptRecord | null {
  // The crawler's own choice (TRANSCRIPT_LANGUAGES).
  const main = (): TranscriptRecord | null => rows.find((r) => r.language === v.language && r.kind === v.kind) ?? null;
  if (languages === null) return main();
  for (const lang of languages) {
    const own = ownIn(rows, lang);
    if (own) return own;
    if (v.language !== null && speaks(v.language, lang)) return main();
  }
  // A language the crawler has not fetched yet: what is stored, its note saying which it is.
  return rows.find((r) => r.kind === 'translated' && languages.some((lang) => speaks(r.language, lang))) ?? main();
}

/**
 * The entry's transcript HTML and the language it is in (a translation's target; the video
 * record's language for HTML stored with older records, null when that is not known); null = the
 * "no transcript" note.
 */
export function entryContent(v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): { html: string; language: string | null } | null {
  const stored = shownTranscript(v);
  if (stored === null) return null;
  const chosen = chosenTranscript(v, rows, languages);
  if (chosen === null) return { html: stored, language: v.language };
  const html = renderTranscriptHtml({
    videoId: v.videoId,
    language: chosen.language,
    kind: chosen.kind,
    paragraphs: chosen.paragraphs,
    chapters: parseChapters(v.description, v.durationSeconds),
  });
  return { html, language: chosen.language };
}
