// Entity decoding for caption text and titles, and escaping for the HTML we write. Timed text is
// escaped twice (`&amp;#39;`), so a cue is XML-decoded, then HTML-decoded again (docs/crawler.md §3.4).
// The `entities` package knows every HTML5 named reference and the numeric edge cases (zero, surrogates,
// out-of-range code points become U+FFFD); an unknown name is left as written.

import { decodeHTML, decodeXML } from 'entities';

/** The five XML entities and numeric references. */
export const decodeXml = (s: string): string => (s.includes('&') ? decodeXML(s) : s);

/** Every HTML named entity and numeric reference. */
export const decodeHtml = (s: string): string => (s.includes('&') ? decodeHTML(s) : s);

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML element content and attribute values. `'` becomes `&#39;` rather than the
 * package's `&apos;`, which HTML 4 lacks and some feed readers still render literally.
 */
export function escapeHtml(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s;
}
