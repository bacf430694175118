// The model's answer → summary points, each checked against the transcript it was asked about: a
// point whose time is not inside the video and inside a paragraph's span (its start to the next
// paragraph's) is dropped, the others kept, so a model's made-up second never becomes a link.

import { parseTimestamp } from '../transcript/timestamps';

/** One point of a summary: the second it was said and what was said (plain text, not escaped). */
export interface SummaryPoint {
  readonly seconds: number;
  readonly text: string;
}

/** The paragraph starts a point may cite, and where the video ends (null: unknown). */
export interface CitableSpans {
  readonly startsMs: readonly number[];
  readonly durationMs: number | null;
}

export const MAX_POINTS = 8;
/** Past the last paragraph's start, the longest span it is taken to have when the video's length is unknown. */
const LAST_SPAN_UNKNOWN_MS = 10 * 60_000;
const MAX_POINT_CHARS = 600;

// `- [1:23] text`, `1. 1:23 — text`, `* (01:02:03): text`: a list mark, the time (perhaps bracketed
// or bold), a separator, the text.
const POINT_LINE = /^\s*(?:[-*•]|\d{1,2}[.)])?\s*(?:\*\*)?[[(]?((?:\d{1,2}:)?\d{1,2}:\d{2})[\])]?(?:\*\*)?\s*[-–—:|]?\s*(.+?)\s*$/;

/** Whether `seconds` falls inside the video and inside one paragraph's span. */
export function citable(seconds: number, spans: CitableSpans): boolean {
  const ms = seconds * 1000;
  const starts = spans.startsMs;
  if (starts.length === 0 || !Number.isFinite(ms) || ms < 0) return false;
  if (spans.durationMs !== null && ms >= spans.durationMs) return false;
  // Paragraphs start within the second they link to (the link cuts fractions), so the first span
  // opens at its start's whole second.
  if (ms < Math.floor(starts[0]! / 1000) * 1000) return false;
  const last = starts[starts.length - 1]!;
  const end = spans.durationMs ?? last + LAST_SPAN_UNKNOWN_MS;
  return ms < end;
}

/** Every valid point of an answer, in time order, at most MAX_POINTS; [] when none is valid. */
export function checkedPoints(answer: string, spans: CitableSpans): SummaryPoint[] {
  const points: SummaryPoint[] = [];
  const seen = new Set<number>();
  for (const line of answer.split(/\r?\n/)) {
    const m = POINT_LINE.exec(line);
    if (!m) continue;
    const seconds = parseTimestamp(m[1]!);
    const text = m[2]!.replace(/\s+/g, ' ').trim().slice(0, MAX_POINT_CHARS);
    if (seconds === null || text === '' || seen.has(seconds) || !citable(seconds, spans)) continue;
    seen.add(seconds);
    points.push({ seconds, text });
  }
  return points.sort((a, b) => a.seconds - b.seconds).slice(0, MAX_POINTS);
}
