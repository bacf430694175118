// Text as every output shows it, decided once here and applied by every writer of an answer at
// the boundary where stored text leaves (docs/api.md, "How texts are escaped"): the XML builders'
// value processors (feeds, OPML), the JSON writer (`shownJson`: JSON Feed, and every JSON answer of
// api/http/answer.ts), the finished /status and web app pages, and the transcript files' cues.
// So a writer's new field is covered without a call of its own:
// * characters XML 1.0 cannot carry (C0 controls but tab and newlines, lone surrogates, U+FFFE and
//   U+FFFF) are dropped, in JSON too, so no format shows what another cannot;
// * bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) are
//   dropped: an RLO in a title would reverse how the reader's list shows the text after it
//   (`exe.txt` spoofing), and text needs none of them to be shown right to left: the Unicode bidi
//   algorithm lays out Arabic or Hebrew by itself. The marks U+200E, U+200F and U+061C stay; they
//   change no order beyond their own position.

const DROPPED_SOURCE =
  '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF\\u202A-\\u202E\\u2066-\\u2069]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
// Two objects on purpose: a /g regex keeps lastIndex between test() calls.
const HAS_DROPPED = new RegExp(DROPPED_SOURCE);
const ALL_DROPPED = new RegExp(DROPPED_SOURCE, 'g');

export function shownText(text: string): string {
  return HAS_DROPPED.test(text) ? text.replace(ALL_DROPPED, '') : text;
}

/** A value of an XML builder's text or attribute (fast-xml-parser's value processors): strings shown. */
export const shownValue = (_name: string, value: unknown): unknown => (typeof value === 'string' ? shownText(value) : value);

/** JSON text of `value` with every string in it shown (before JSON's own escaping, never after). */
export function shownJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? shownText(v) : v));
}
