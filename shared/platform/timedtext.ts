// Timed-text bodies → cues (docs/crawler.md §3.4). Three formats occur: the plain XML we ask for
// (`<transcript><text start dur>`), srv3 (`<timedtext format="3"><body><p t d>`), and json3
// (`{"events":[{tStartMs,dDurationMs,segs}]}`). The XML formats are read with a scanner rather than
// a general XML parser: the shapes are flat and fixed, and a one-hour transcript must parse in well
// under 10 ms. Text is XML-decoded, then HTML-decoded again (it is escaped twice), then stripped of
// tags, then its whitespace is collapsed.

import { decodeHtml, decodeXml } from './entities';
import { PlatformError } from './types';

export interface Cue {
  startMs: number;
  /** Null when the body states no duration. */
  durMs: number | null;
  text: string;
}

export type TimedTextFormat = 'plain' | 'srv3' | 'json3';

const TAG = /<[A-Za-z/][^>]*>/g;
const BREAK = /<br\s*\/?>/gi;
const SPACE = /\s+/g;

/** Markup of the XML body → text; the decoded text can hold HTML tags of its own (`<i>`), stripped last. */
export function cleanXmlText(inner: string): string {
  let s = inner;
  if (s.indexOf('<') >= 0) s = s.replace(BREAK, ' ').replace(TAG, '');
  if (s.indexOf('&') >= 0) {
    s = decodeHtml(decodeXml(s));
    if (s.indexOf('<') >= 0) s = s.replace(BREAK, ' ').replace(TAG, '');
  }
  return s.replace(SPACE, ' ').trim();
}

const ATTR_RES = new Map<string, RegExp>();
function attr(attrs: string, name: string): string | null {
  let re = ATTR_RES.get(name);
  if (!re) ATTR_RES.set(name, (re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = re.exec(attrs);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

const num = (s: string | null, scale: number): number | null => {
  if (s === null || s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? Math.round(n * scale) : null;
};

function parseXmlCues(body: string, element: 'text' | 'p', startAttr: string, durAttr: string, scale: number): Cue[] {
  const re = element === 'text' ? /<text\b([^>]*?)(?:\/>|>([\s\S]*?)<\/text>)/g : /<p\b([^>]*?)(?:\/>|>([\s\S]*?)<\/p>)/g;
  const cues: Cue[] = [];
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const attrs = m[1] ?? '';
    const startMs = num(attr(attrs, startAttr), scale);
    if (startMs === null) continue;
    cues.push({ startMs, durMs: num(attr(attrs, durAttr), scale), text: cleanXmlText(m[2] ?? '') });
  }
  return cues;
}

interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: { utf8?: string }[] }[];
}

function parseJson3(body: string): Cue[] {
  let doc: Json3;
  try {
    doc = JSON.parse(body) as Json3;
  } catch (err) {
    throw new PlatformError('transient', 'timed text: unparsable json3', { cause: err });
  }
  const cues: Cue[] = [];
  for (const e of doc.events ?? []) {
    if (!Array.isArray(e.segs) || typeof e.tStartMs !== 'number') continue; // styling records
    let text = '';
    for (const s of e.segs) text += s.utf8 ?? '';
    // json3 text is not entity-escaped, but styling tags occur in it as in the XML formats.
    if (text.indexOf('<') >= 0) text = text.replace(BREAK, ' ').replace(TAG, '');
    cues.push({ startMs: e.tStartMs, durMs: typeof e.dDurationMs === 'number' ? e.dDurationMs : null, text: text.replace(SPACE, ' ').trim() });
  }
  return cues;
}

export function detectFormat(body: string): TimedTextFormat | null {
  const head = body.slice(0, 512).trimStart();
  if (head.startsWith('{')) return 'json3';
  if (/<timedtext\b/.test(head)) return 'srv3';
  if (/<transcript\b/.test(head)) return 'plain';
  return null;
}

/** Cues of a timed-text body in any of the three formats; empty cues are kept (the renderer skips them). */
export function parseTimedText(body: string): { format: TimedTextFormat; cues: Cue[] } {
  const format = detectFormat(body);
  switch (format) {
    case 'plain':
      return { format, cues: parseXmlCues(body, 'text', 'start', 'dur', 1000) };
    case 'srv3':
      return { format, cues: parseXmlCues(body, 'p', 't', 'd', 1) };
    case 'json3':
      return { format, cues: parseJson3(body) };
    default:
      throw new PlatformError('transient', 'timed text: unrecognized format');
  }
}

/**
 * The cues that carry text, in order; none for an empty body (the platform's refusal). Shared by
 * the app clients' timed-text request and the browser fallback's web-player answer.
 */
export function spokenCues(body: string): Cue[] {
  if (body.trim() === '') return [];
  return parseTimedText(body).cues.filter((c) => c.text !== '');
}
