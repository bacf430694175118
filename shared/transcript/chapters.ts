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
// people put between time and title (` - `, `: `, `|`, `–`), then the title: the rest of the line.
// yt-dlp reads the same shape (`^\s*(ts)\b\W*\s(title)$`). Only the head of a line is matched
// by the pattern, which has no lazy or nested quantifier and no end anchor, so a line of any length
// costs linear work (a title with a long run of blanks inside once cost quadratic time); the title
// is then the rest of the line, trimmed by hand.
export const CHAPTER_HEAD = /^\s*[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?(?:[^\S\n]*[-–—:|.•]+)?\s+/u;

/**
 * What is read of a description: the platform allows 5,000 characters; anything past a generous
 * multiple of that is not a description the platform would show, and is not parsed.
 */
export const MAX_DESCRIPTION_CHARS = 20_000;
/** A chapter title longer than this is cut (the platform's own chapter titles are short). */
export const MAX_CHAPTER_TITLE_CHARS = 200;

/** The description's chapters, or [] when they do not make a chapter list under the platform's rule. */
export function parseChapters(description: string | null | undefined, durationSeconds?: number | null): Chapter[] {
  if (!description) return [];
  const found: Chapter[] = [];
  for (const line of description.slice(0, MAX_DESCRIPTION_CHARS).split(/\r?\n/)) {
    const m = CHAPTER_HEAD.exec(line);
    if (!m) continue;
    const start = parseTimestamp(m[1]!);
    const title = titleOf(line.slice(m[0].length));
    if (start === null || title === '') continue;
    found.push({ startSeconds: start, title });
  }
  return followsPlatformRule(found, durationSeconds ?? null) ? found : [];
}

/** The rest of a chapter line, trimmed, capped by code points (never inside a surrogate pair). */
function titleOf(rest: string): string {
  const trimmed = rest.trim();
  if (trimmed.length <= MAX_CHAPTER_TITLE_CHARS) return trimmed;
  return [...trimmed.slice(0, MAX_CHAPTER_TITLE_CHARS + 1)].slice(0, MAX_CHAPTER_TITLE_CHARS).join('').trimEnd();
}

function followsPlatformRule(chapters: readonly Chapter[], duration: number | null): boolean {
  if (chapters.length < MIN_CHAPTERS || chapters[0]!.startSeconds !== 0) return false;
  for (let i = 1; i < chapters.length; i += 1) {
    if (chapters[i]!.startSeconds - chapters[i - 1]!.startSeconds < MIN_CHAPTER_SECONDS) return false;
  }
  // The last chapter runs to the end of the video; only a known duration can tell its length.
  return duration === null || duration - chapters[chapters.length - 1]!.startSeconds >= MIN_CHAPTER_SECONDS;
}
