// OPML 1.0 / 1.1 / 2.0 as feed readers and the apps write it: every outline with an `xmlUrl` is a
// feed (outlines nested in categories included, as deep as the file goes); the feed must be a
// platform channel's (its feed URL, a channel URL, or a front-end instance's channel feed). A
// document with a DOCTYPE or entity declarations is refused before any parsing, so nothing is ever
// expanded or fetched; fast-xml-parser then reads only the five predefined entities and character
// references, and its validator refuses malformed XML with the line of the fault.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { followRefOf } from '../channel-refs';
import { ImportFileError, REASONS, shown, type ImportEntry, type ParsedImport, type RejectedEntry } from '../parsed-import';

/** `<!DOCTYPE` or `<!ENTITY` anywhere, in any case (internal subsets, external ids, parameter entities). */
const DECLARATION = /<!\s*(?:DOCTYPE|ENTITY)/i;

/** The deepest nesting read (fast-xml-parser refuses deeper documents as malformed). */
const MAX_DEPTH = 100;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  captureMetaData: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  maxNestedTags: MAX_DEPTH,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** preserveOrder's node: `{ tagName: children, ':@': attributes }`, plus the metadata symbol. */
type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const tagOf = (node: XmlNode): string | undefined => Object.keys(node).find((k) => k !== ':@' && k !== '#text');
const childrenOf = (node: XmlNode, tag: string): XmlNode[] => (Array.isArray(node[tag]) ? (node[tag] as XmlNode[]) : []);

/** An attribute by name, without regard to case (`xmlUrl`, `xmlurl` and `XMLURL` all occur). */
function attr(node: XmlNode, name: string): string | null {
  const attrs = node[':@'] ?? {};
  const key = Object.keys(attrs).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? null : String(attrs[key]);
}

/** Position → 1-based line, by binary search over the line starts (one pass over the text). */
function lineFinder(text: string): (position: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (position) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

export function readOpml(text: string): ParsedImport {
  const declared = DECLARATION.exec(text);
  if (declared) {
    const line = text.slice(0, declared.index).split('\n').length;
    throw new ImportFileError('xmlDeclarations', `satır ${line}: XML belgesi DOCTYPE ya da varlık (ENTITY) bildirimi içeremez`, line);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { line, msg } = valid.err;
    throw new ImportFileError('badXml', `satır ${line}: geçersiz XML (${msg})`, line);
  }
  let doc: XmlNode[];
  try {
    doc = parser.parse(text) as XmlNode[];
  } catch (err) {
    throw new ImportFileError('badXml', `geçersiz XML (${err instanceof Error ? err.message : 'okunamadı'})`);
  }
  const root = doc.find((n) => tagOf(n) !== undefined);
  if (root === undefined || tagOf(root)?.toLowerCase() !== 'opml') {
    throw new ImportFileError('notOpml', `kök öğe <opml> değil (<${root ? tagOf(root) : ''}>): XML dosyası OPML olmalı`);
  }
  const lineOf = lineFinder(text);
  const lineAt = (node: XmlNode): number => lineOf(((node as Record<symbol, unknown>)[META] as { startIndex?: number } | undefined)?.startIndex ?? 0);

  const entries: ImportEntry[] = [];
  const rejected: RejectedEntry[] = [];
  const bodies = childrenOf(root, tagOf(root)!).filter((n) => tagOf(n)?.toLowerCase() === 'body');
  // Depth-first in document order, with an explicit stack (no recursion on a client's nesting).
  const stack: XmlNode[] = bodies.flatMap((b) => childrenOf(b, tagOf(b)!)).reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const tag = tagOf(node);
    if (tag?.toLowerCase() !== 'outline') continue;
    const feedUrl = attr(node, 'xmlUrl');
    if (feedUrl !== null && feedUrl.trim() !== '') {
      const ref = followRefOf(feedUrl);
      const title = attr(node, 'title')?.trim() || attr(node, 'text')?.trim() || null;
      if (ref) entries.push({ ref, title, line: lineAt(node) });
      else rejected.push({ line: lineAt(node), text: shown(feedUrl), reason: REASONS.notAChannel });
    }
    stack.push(...childrenOf(node, tag).reverse());
  }
  return { format: 'opml', entries, rejected };
}
