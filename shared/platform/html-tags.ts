// Start tags of one element in an HTML page, found by a literal search. A pattern like
// `<input[^>]+name=…[^>]*value=…` backtracks over the rest of the page from every `<input` that
// does not match, which on a large page full of them is polynomial; here each character of the page
// is looked at a bounded number of times, and attribute patterns run on one tag's text at a time.

/** Longest start tag looked at; a longer one is not an element the platform writes. */
export const MAX_TAG_CHARS = 8 * 1024;

/** The text between `<name` and `>` of each `<name …>` tag, in order (the name in any case). */
export function* startTags(html: string, name: string): Generator<string> {
  const open = new RegExp(`<${name}(?=[\\s/>])`, 'gi');
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const from = m.index + m[0].length;
    const end = html.indexOf('>', from);
    if (end < 0) return;
    if (end - from <= MAX_TAG_CHARS) yield html.slice(from, end);
    open.lastIndex = end + 1;
  }
}

/** The first tag of element `name` whose text matches `test`, or null. */
export function findStartTag(html: string, name: string, test: RegExp): string | null {
  for (const tag of startTags(html, name)) if (test.test(tag)) return tag;
  return null;
}
