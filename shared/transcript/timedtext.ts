// Timed-text bodies → cues (docs/crawler.md §3.4). Three formats occur: the plain XML we ask for
// (`<transcript><text start dur>`), srv3 (`<timedtext format="3"><body><p t d>`), and json3
// (`{"events":[{tStartMs,dDurationMs,segs}]}`). The XML formats are read with a scanner rather than
// a general XML parser: the shapes are flat and fixed, and a one-hour transcript must parse in well
// under 10 ms. Text is XML-decoded, then HTML-decoded again (it is escaped twice), then stripped of
// tags, then its whitespace is collapsed.

import { decodeHtml, decodeXml } from './entities';

/** A body that is no timed text this parser knows; the platform client decides what that means. */
export class UnreadableTimedTextError extends Error {
  override readonly name = 'UnreadableTimedTextError';
}

export interface Cue {
  startMs: number;
  /** Null when the body states no duration. */
  durMs: number | null;
  text: string;
}

export type TimedTextFormat = 'plain' | 'srv3' | 'json3';

// `[^<>]` rather than `[^>]`: a tag attempt stops at the next `<`, so text full of unclosed `<a`
// costs linear time, not a scan to the end of the text from each one.
export const TAG = /<[A-Za-z/][^<>]*>/g;
export const BREAK = /<br\s*\/?>/gi;
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
/** `name="value"` or `name='value'` in a tag's attribute text. */
export const attributePattern = (name: string): RegExp => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
function attr(attrs: string, name: string): string | null {
  let re = ATTR_RES.get(name);
  if (!re) ATTR_RES.set(name, (re = attributePattern(name)));
  const m = re.exec(attrs);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

const num = (s: string | null, scale: number): number | null => {
  if (s === null || s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? Math.round(n * scale) : null;
};

/**
 * `<text …>…</text>` / `<p …/>` elements in order, found with indexOf rather than a lazy pattern to
 * the closing tag (which rescans the rest of the body from every unclosed element): each character
 * is looked at a bounded number of times, and an element without its end stops the scan.
 */
function parseXmlCues(body: string, element: 'text' | 'p', startAttr: string, durAttr: string, scale: number): Cue[] {
  const open = `<${element}`;
  const close = `</${element}>`;
  const cues: Cue[] = [];
  for (let at = body.indexOf(open); at >= 0; at = body.indexOf(open, at)) {
    const nameEnd = at + open.length;
    const next = body.charCodeAt(nameEnd);
    // `\b` of the old pattern: `<text>` or `<text …`, never `<textarea`.
    if (!(next === 62 /* > */ || next === 47 /* / */ || next === 32 || next === 9 || next === 10 || next === 13)) {
      at = nameEnd;
      continue;
    }
    const tagEnd = body.indexOf('>', nameEnd);
    if (tagEnd < 0) break;
    const selfClosing = body.charCodeAt(tagEnd - 1) === 47;
    const attrs = body.slice(nameEnd, selfClosing ? tagEnd - 1 : tagEnd);
    let inner = '';
    if (selfClosing) at = tagEnd + 1;
    else {
      const end = body.indexOf(close, tagEnd + 1);
      if (end < 0) break;
      inner = body.slice(tagEnd + 1, end);
      at = end + close.length;
    }
    const startMs = num(attr(attrs, startAttr), scale);
    if (startMs === null) continue;
    cues.push({ startMs, durMs: num(attr(attrs, durAttr), scale), text: cleanXmlText(inner) });
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
    throw new UnreadableTimedTextError('timed text: unparsable json3', { cause: err });
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
      throw new UnreadableTimedTextError('timed text: unrecognized format');
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
