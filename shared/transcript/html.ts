// A timed transcript → the HTML inside a feed entry: one line saying which language and kind of
// track it is, the creator's chapters as headings, and paragraphs that each open with their start
// time as a link to that moment of the video — except one right under a heading with the same
// time, which would only repeat the heading's own link. Every text is escaped; the only markup is `<p>`,
// `<h3>`, `<a href>` and `<small>`, which every feed reader keeps.

import { escapeHtml } from './entities';
import type { TimedParagraph } from './paragraphs';
import type { Chapter } from './chapters';
import { deepLink, formatTimestamp } from './timestamps';

/** Manual and automatic are the video's own tracks; translated is the platform's machine translation. */
export type TrackKind = 'manual' | 'automatic' | 'translated';

export interface TimedTranscript {
  readonly videoId: string;
  /** BCP 47 code of the text as shown (the target language of a translation). */
  readonly language: string;
  readonly kind: TrackKind;
  readonly paragraphs: readonly TimedParagraph[];
  readonly chapters: readonly Chapter[];
  /** Paragraphs whose start times are not known (recovered from old stored HTML): no links, no headings. */
  readonly untimed?: boolean;
}

const KIND_WORDS: Readonly<Record<TrackKind, string>> = {
  manual: 'manual captions',
  automatic: 'automatic captions',
  translated: 'machine-translated captions',
};

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** "English" for `en`; the code itself when the runtime does not know it. */
export function languageName(code: string): string {
  try {
    return LANGUAGE_NAMES.of(code) ?? code;
  } catch {
    // Intl throws on codes that are not well-formed BCP 47; the stored code is then shown as is.
    return code;
  }
}

/** The one-line note: "Transcript: English (en), manual captions". */
export function trackNote(language: string, kind: TrackKind): string {
  return `Transcript: ${languageName(language)} (${language}), ${KIND_WORDS[kind]}`;
}

function stamp(videoId: string, seconds: number): string {
  return `<a href="${escapeHtml(deepLink(videoId, seconds))}">${formatTimestamp(seconds)}</a>`;
}

/** The one renderer of a transcript: every feed entry's HTML is made here from stored paragraphs. */
export function renderTranscriptHtml(t: TimedTranscript): string {
  const out: string[] = [`<p><small>${escapeHtml(trackNote(t.language, t.kind))}</small></p>`];
  if (t.untimed === true) {
    for (const p of t.paragraphs) out.push(`<p>${escapeHtml(p.text)}</p>`);
    return out.join('\n');
  }
  const chapters = [...t.chapters].sort((a, b) => a.startSeconds - b.startSeconds);
  let next = 0;
  /** Emits the headings up to `ms`; the last one's start in seconds, or null when none was due. */
  const headingsUpTo = (ms: number): number | null => {
    let last: number | null = null;
    while (next < chapters.length && chapters[next]!.startSeconds * 1000 <= ms) {
      const c = chapters[next]!;
      out.push(`<h3>${stamp(t.videoId, c.startSeconds)} ${escapeHtml(c.title)}</h3>`);
      last = c.startSeconds;
      next += 1;
    }
    return last;
  };
  for (const p of t.paragraphs) {
    const heading = headingsUpTo(p.startMs);
    const seconds = Math.floor(p.startMs / 1000);
    out.push(heading === seconds ? `<p>${escapeHtml(p.text)}</p>` : `<p>${stamp(t.videoId, seconds)} ${escapeHtml(p.text)}</p>`);
  }
  headingsUpTo(Number.POSITIVE_INFINITY);
  return out.join('\n');
}
