// The JSON objects a platform page embeds in inline scripts (`var ytInitialData = {…};`,
// `window["ytInitialData"] = {…};`, `var ytInitialPlayerResponse = {…};`). The object is cut out by
// matching braces outside strings rather than by a regex up to `};`, because the JSON itself contains
// `};` inside strings.

/** The embedded object named `name`, parsed, or null when the page has none (or it is broken). */
export function extractPageJson(html: string, name: string): unknown {
  const marker = assignmentOf(name);
  for (let m = marker.exec(html); m; m = marker.exec(html)) {
    const start = m.index + m[0].length - 1;
    const end = matchingBrace(html, start);
    if (end < 0) continue;
    try {
      return JSON.parse(html.slice(start, end + 1)) as unknown;
    } catch {
      // A later assignment may be the real one.
    }
  }
  return null;
}

/** `var name = {`, `window["name"] = {` or `name = {`, anywhere in a page (global). */
export function assignmentOf(name: string): RegExp {
  return new RegExp(`(?:var\\s+${name}|window\\[["']${name}["']\\]|\\b${name})\\s*=\\s*\\{`, 'g');
}

/** Index of the `}` closing the `{` at `start`, or -1. */
function matchingBrace(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */) depth++;
    else if (c === 125 /* } */) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Reads a nested property path of untyped JSON; undefined when any step is missing. */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

export const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `{simpleText}` or `{runs:[{text}]}` or `{content}` text objects of InnerTube. */
export function textOf(v: unknown): string | null {
  const simple = asString(dig(v, 'simpleText')) ?? asString(dig(v, 'content'));
  if (simple !== null) return simple;
  const runs = dig(v, 'runs');
  return Array.isArray(runs) ? runs.map((r) => asString(dig(r, 'text')) ?? '').join('') : null;
}
