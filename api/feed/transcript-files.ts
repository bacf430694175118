// A stored transcript as a file: WebVTT (https://www.w3.org/TR/webvtt1/), SubRip (.srt) or plain
// text, from the stored timed paragraphs. Pure functions. A paragraph holds only the start of its
// first cue, so each cue lasts until the next paragraph starts; the last one until the video ends
// when its length is known, else for as long as its words take to say at a steady pace.

import type { TranscriptRecord } from '../../shared/store/types';
import { shownText } from '../../shared/transcript/shown-text';

export type TranscriptFileFormat = 'vtt' | 'srt' | 'txt';

export const TRANSCRIPT_FILE_TYPES: Readonly<Record<TranscriptFileFormat, string>> = {
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

export interface FileCue {
  readonly startMs: number;
  readonly endMs: number;
  /** One line: the paragraph's text with its white space collapsed. */
  readonly text: string;
}

/** Reading pace for the last cue's length when the video's length is not known. */
const MS_PER_CHARACTER = 60;
const MIN_CUE_MS = 1_000;

/** The cues of a transcript: one per paragraph, in time order, each ending when the next starts. */
export function fileCues(paragraphs: TranscriptRecord['paragraphs'], durationSeconds: number | null): FileCue[] {
  const spoken = paragraphs
    .map((p) => ({ startMs: Math.max(0, Math.round(p.startMs)), text: shownText(p.text).replace(/\s+/g, ' ').trim() }))
    .filter((p) => p.text !== '')
    .sort((a, b) => a.startMs - b.startMs);
  const videoEndMs = durationSeconds !== null && Number.isFinite(durationSeconds) ? durationSeconds * 1000 : null;
  return spoken.map((p, i) => {
    const next = spoken[i + 1];
    const natural = next !== undefined ? next.startMs : videoEndMs !== null && videoEndMs > p.startMs ? videoEndMs : p.startMs + Math.max(MIN_CUE_MS, p.text.length * MS_PER_CHARACTER);
    // Two paragraphs starting at the same millisecond still give a cue that ends after it starts.
    return { startMs: p.startMs, endMs: Math.max(natural, p.startMs + 1), text: p.text };
  });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function clock(ms: number, fractionSeparator: '.' | ','): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${fractionSeparator}${pad(ms % 1000, 3)}`;
}

/** WebVTT cue text: `&`, `<` and `>` are the only characters it must escape (which also keeps `-->` out). */
const vttText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** WebVTT: the bare signature line (the language goes in Content-Language), then the cues. */
export function renderWebVtt(cues: readonly FileCue[]): string {
  const out = ['WEBVTT\n'];
  for (const c of cues) out.push(`${clock(c.startMs, '.')} --> ${clock(c.endMs, '.')}\n${vttText(c.text)}\n`);
  return out.join('\n');
}

/** SubRip: numbered cues, comma before the milliseconds; the text as it is (SubRip has no escaping). */
export function renderSrt(cues: readonly FileCue[]): string {
  return cues.map((c, i) => `${i + 1}\n${clock(c.startMs, ',')} --> ${clock(c.endMs, ',')}\n${c.text}\n`).join('\n');
}

/** Plain text: the paragraphs, a blank line between them. */
export function renderText(cues: readonly FileCue[]): string {
  return cues.map((c) => `${c.text}\n`).join('\n');
}

export function renderTranscriptFile(format: TranscriptFileFormat, transcript: Pick<TranscriptRecord, 'paragraphs'>, durationSeconds: number | null): string {
  const cues = fileCues(transcript.paragraphs, durationSeconds);
  if (format === 'vtt') return renderWebVtt(cues);
  if (format === 'srt') return renderSrt(cues);
  return renderText(cues);
}
