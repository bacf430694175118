// Text from the platform may hold characters XML 1.0 cannot carry at all (C0 controls, lone
// surrogates, U+FFFE/U+FFFF). Escaping cannot fix those, so they are dropped before building.

const NOT_XML_SOURCE = '[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
// Two objects on purpose: a /g regex keeps lastIndex between test() calls.
const HAS_NOT_XML = new RegExp(NOT_XML_SOURCE);
const ALL_NOT_XML = new RegExp(NOT_XML_SOURCE, 'g');

export function xmlSafe(text: string): string {
  return HAS_NOT_XML.test(text) ? text.replace(ALL_NOT_XML, '') : text;
}

/**
 * CDATA pieces for `text`: a `]]>` inside would end the section, so it is split across two
 * sections (`]]` closes the first, `>` opens the next).
 */
export function cdataPieces(text: string): string[] {
  const parts = text.split(']]>');
  return parts.map((p, i) => (i > 0 ? '>' : '') + p + (i < parts.length - 1 ? ']]' : ''));
}
