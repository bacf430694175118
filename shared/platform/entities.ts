// Entity decoding for caption text and titles. Timed text is escaped twice (`&amp;#39;`), so a cue
// is XML-decoded, then HTML-decoded again (platform.md §3.4). The HTML table covers Latin-1 and the
// typographic entities that occur in captions; an unknown name is left as written rather than
// guessed. (The `entities` package would cover all 2,231 names; not a dependency yet.)

const XML: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const LATIN1 = [
  'nbsp', 'iexcl', 'cent', 'pound', 'curren', 'yen', 'brvbar', 'sect', 'uml', 'copy', 'ordf', 'laquo', 'not', 'shy',
  'reg', 'macr', 'deg', 'plusmn', 'sup2', 'sup3', 'acute', 'micro', 'para', 'middot', 'cedil', 'sup1', 'ordm',
  'raquo', 'frac14', 'frac12', 'frac34', 'iquest', 'Agrave', 'Aacute', 'Acirc', 'Atilde', 'Auml', 'Aring', 'AElig',
  'Ccedil', 'Egrave', 'Eacute', 'Ecirc', 'Euml', 'Igrave', 'Iacute', 'Icirc', 'Iuml', 'ETH', 'Ntilde', 'Ograve',
  'Oacute', 'Ocirc', 'Otilde', 'Ouml', 'times', 'Oslash', 'Ugrave', 'Uacute', 'Ucirc', 'Uuml', 'Yacute', 'THORN',
  'szlig', 'agrave', 'aacute', 'acirc', 'atilde', 'auml', 'aring', 'aelig', 'ccedil', 'egrave', 'eacute', 'ecirc',
  'euml', 'igrave', 'iacute', 'icirc', 'iuml', 'eth', 'ntilde', 'ograve', 'oacute', 'ocirc', 'otilde', 'ouml',
  'divide', 'oslash', 'ugrave', 'uacute', 'ucirc', 'uuml', 'yacute', 'thorn', 'yuml',
];

const HTML: Readonly<Record<string, string>> = {
  ...XML,
  ...Object.fromEntries(LATIN1.map((name, i) => [name, String.fromCharCode(0xa0 + i)])),
  ndash: '\u2013', mdash: '\u2014', lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c',
  rdquo: '\u201d', bdquo: '\u201e', hellip: '\u2026', bull: '\u2022', trade: '\u2122', euro: '\u20ac',
  dagger: '\u2020', Dagger: '\u2021', permil: '\u2030', lsaquo: '\u2039', rsaquo: '\u203a', prime: '\u2032',
  Prime: '\u2033', OElig: '\u0152', oelig: '\u0153', Scaron: '\u0160', scaron: '\u0161', Yuml: '\u0178',
  fnof: '\u0192', circ: '\u02c6', tilde: '\u02dc', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  zwnj: '\u200c', zwj: '\u200d', lrm: '\u200e', rlm: '\u200f', larr: '\u2190', rarr: '\u2192', uarr: '\u2191',
  darr: '\u2193', harr: '\u2194', hearts: '\u2665', spades: '\u2660', clubs: '\u2663', diams: '\u2666',
  infin: '\u221e', ne: '\u2260', le: '\u2264', ge: '\u2265', minus: '\u2212', asymp: '\u2248', sum: '\u2211',
  Alpha: '\u0391', alpha: '\u03b1', beta: '\u03b2', gamma: '\u03b3', delta: '\u03b4', pi: '\u03c0', mu: '\u03bc',
  sigma: '\u03c3', omega: '\u03c9', lambda: '\u03bb', theta: '\u03b8', star: '\u2606', check: '\u2713',
  Tab: '\t', NewLine: '\n', sharp: '\u266f', flat: '\u266d', natural: '\u266e',
};

const ENTITY = /&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g;

function codePoint(ref: string): string | null {
  const n = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
  if (!Number.isFinite(n) || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  return n === 0 ? '\ufffd' : String.fromCodePoint(n);
}

function decodeWith(table: Readonly<Record<string, string>>, s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(ENTITY, (whole, ref: string) => (ref[0] === '#' ? codePoint(ref) : table[ref]) ?? whole);
}

/** The five XML entities and numeric references. */
export const decodeXml = (s: string): string => decodeWith(XML, s);

/** HTML named entities (see the table above) and numeric references. */
export const decodeHtml = (s: string): string => decodeWith(HTML, s);

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s;
}
