// Creators' chapters from a video description (docs/crawler.md §3): lines that start with a
// timestamp (`0:00 Intro`, `1:02:03 - Part two`). The platform shows them as chapters only when
// the first is at 0:00, there are at least three, they go forward, and each lasts at least 10 s;
// anything else is an ordinary description, and so it is here: all or nothing, like the platform.

import { parseTimestamp } from './timestamps';

export interface Chapter {
  /** Seconds from the start of the video. */
  readonly startSeconds: number;
  /** Plain text (not escaped). */
  readonly title: string;
}

export const MIN_CHAPTERS = 3;
export const MIN_CHAPTER_SECONDS = 10;

// A timestamp at the start of the line (after blanks, perhaps inside brackets), then separators
// people put between time and title (` - `, `: `, `|`, `–`), then the title. yt-dlp reads the
// same shape (`^\s*(ts)\b\W*\s(title)$`).
const LINE = /^\s*[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?(?:\s*[-–—:|.•]+)?\s+(\S.*?)\s*$/u;

/** The description's chapters, or [] when they do not make a chapter list under the platform's rule. */
export function parseChapters(description: string | null | undefined, durationSeconds?: number | null): Chapter[] {
  if (!description) return [];
  const found: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const start = parseTimestamp(m[1]!);
    const title = m[2]!.trim();
    if (start === null || title === '') continue;
    found.push({ startSeconds: start, title });
  }
  return followsPlatformRule(found, durationSeconds ?? null) ? found : [];
}

function followsPlatformRule(chapters: readonly Chapter[], duration: number | null): boolean {
  if (chapters.length < MIN_CHAPTERS || chapters[0]!.startSeconds !== 0) return false;
  for (let i = 1; i < chapters.length; i += 1) {
    if (chapters[i]!.startSeconds - chapters[i - 1]!.startSeconds < MIN_CHAPTER_SECONDS) return false;
  }
  // The last chapter runs to the end of the video; only a known duration can tell its length.
  return duration === null || duration - chapters[chapters.length - 1]!.startSeconds >= MIN_CHAPTER_SECONDS;
}
