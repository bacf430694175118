// The short plain-text summary beside an entry's transcript (Atom summary, RSS description, JSON
// Feed summary): the start of the video's description without its chapter list, on one line.

import { MAX_DESCRIPTION_CHARS } from './chapters';
import { parseTimestamp } from './timestamps';

export const SUMMARY_MAX_CHARS = 280;

export const CHAPTER_LINE = /^\s*[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})\b/;

/** Null when there is no description, or nothing in it but chapters and blanks. */
export function summaryOf(description: string | null | undefined, max = SUMMARY_MAX_CHARS): string | null {
  if (typeof description !== 'string') return null;
  const text = description
    .slice(0, MAX_DESCRIPTION_CHARS)
    .split(/\r?\n/)
    .filter((line) => {
      const m = CHAPTER_LINE.exec(line);
      return !(m && parseTimestamp(m[1]!) !== null);
    })
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  const chars = [...text];
  if (chars.length <= max) return text;
  // Cut at the last space before the limit so that no word is split; by code points, never
  // inside a surrogate pair.
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
