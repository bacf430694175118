// Transcripts stored as rendered HTML on the video row (the form of every store written before
// transcripts were kept only as timed paragraphs) → paragraphs, for the migration of both backends.
// Two forms were written: paragraphs that open with their start time as a link
// (`<p><a href="…&amp;t=12s">0:12</a> text</p>`, after a `<p><small>` note and with `<h3>` chapter
// headings, a paragraph right under a heading of its own second without the link), and, earlier,
// bare `<p>text</p>`. The note and the headings are dropped (the note is
// made again from the language and kind; chapters again from the stored description); every
// paragraph's text is kept.

import { decodeHtml } from '../transcript/entities';
import type { TranscriptKind, TranscriptRecord } from './types';

/** What the HTML held: its paragraphs, and whether every one of them carried its start time. */
export interface RecoveredParagraphs {
  paragraphs: TranscriptRecord['paragraphs'];
  untimed: boolean;
}

const BLOCK = /<(p|h3)>([\s\S]*?)<\/\1>/g;
const NOTE = /^<small>[\s\S]*<\/small>$/;
const STAMP = /^<a href="[^"]*[?&;]t=(\d+)s">[^<]*<\/a>\s?/;
const TAG = /<[^>]*>/g;

const plain = (html: string): string => decodeHtml(html.replace(TAG, '')).trim();

export function paragraphsFromHtml(html: string): RecoveredParagraphs {
  const found: { startMs: number | null; text: string }[] = [];
  // A paragraph right under a heading of the same second was rendered without its own link: it
  // starts at the heading's time.
  let heading: number | null = null;
  for (const [, tag, inner] of html.matchAll(BLOCK)) {
    const stamp = STAMP.exec(inner!);
    if (tag === 'h3') {
      heading = stamp ? Number(stamp[1]) * 1000 : null;
      continue;
    }
    if (NOTE.test(inner!)) continue;
    const text = plain(stamp ? inner!.slice(stamp[0].length) : inner!);
    if (text !== '') found.push({ startMs: stamp ? Number(stamp[1]) * 1000 : heading, text });
    heading = null;
  }
  // Text outside any paragraph (a form this code never wrote) is still text: kept as one paragraph.
  if (found.length === 0) {
    const text = plain(html);
    return { paragraphs: text === '' ? [] : [{ startMs: 0, text }], untimed: true };
  }
  const untimed = found.some((p) => p.startMs === null);
  return { paragraphs: found.map((p) => ({ startMs: untimed ? 0 : p.startMs!, text: p.text })), untimed };
}

/** The language and kind of a video row whose HTML is converted; rows written as `ready` always had both. */
export function legacyTrack(language: string | null, kind: string | null): { language: string; kind: TranscriptKind } {
  return { language: language ?? 'und', kind: kind === 'manual' ? 'manual' : 'automatic' };
}
