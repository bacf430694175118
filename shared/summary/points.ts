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
  /**
   * The paragraphs (indices into startsMs) this answer may cite, when not all: a part's request is
   * shown only its own paragraphs, a combining request only the points' paragraphs, so a time
   * outside them is one the model was never given and is dropped like a made-up one.
   */
  readonly only?: ReadonlySet<number>;
}

export const MAX_POINTS = 8;
/** Past the last paragraph's start, the longest span it is taken to have when the video's length is unknown. */
const LAST_SPAN_UNKNOWN_MS = 10 * 60_000;
const MAX_POINT_CHARS = 600;

// `- [1:23] text`, `1. 1:23 — text`, `* (01:02:03): text`: a list mark, the time (perhaps bracketed
// or bold), a separator, the text.
const POINT_LINE = /^\s*(?:[-*•]|\d{1,2}[.)])?\s*(?:\*\*)?[[(]?((?:\d{1,2}:)?\d{1,2}:\d{2})[\])]?(?:\*\*)?\s*[-–—:|]?\s*(.+?)\s*$/;

/** Where paragraph `i`'s span opens: the whole second its link cuts its start to. */
const opensAt = (startMs: number): number => Math.floor(startMs / 1000) * 1000;

/**
 * The paragraph whose span (its start to the next paragraph's; the last one's to the video's end)
 * holds `ms`, or -1 when none does (before the first paragraph, past the end, not a time).
 */
export function paragraphAt(ms: number, spans: CitableSpans): number {
  const starts = spans.startsMs;
  if (starts.length === 0 || !Number.isFinite(ms) || ms < 0) return -1;
  if (spans.durationMs !== null && ms >= spans.durationMs) return -1;
  // Paragraphs start within the second they link to (the link cuts fractions), so each span opens
  // at its start's whole second.
  if (ms < opensAt(starts[0]!)) return -1;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (opensAt(starts[mid]!) <= ms) lo = mid;
    else hi = mid - 1;
  }
  if (lo === starts.length - 1) {
    const end = spans.durationMs ?? starts[lo]! + LAST_SPAN_UNKNOWN_MS;
    if (ms >= end) return -1;
  }
  return lo;
}

/** Whether `seconds` falls inside the video and inside the span of a paragraph it may cite. */
export function citable(seconds: number, spans: CitableSpans): boolean {
  const i = paragraphAt(seconds * 1000, spans);
  return i >= 0 && (spans.only === undefined || spans.only.has(i));
}

/** The same spans, citable only in paragraphs `indices`. */
export const citableOnly = (spans: CitableSpans, indices: Iterable<number>): CitableSpans => ({ startsMs: spans.startsMs, durationMs: spans.durationMs, only: new Set(indices) });

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
