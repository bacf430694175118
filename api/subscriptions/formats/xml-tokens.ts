// A small XML tokenizer for the OPML reader, fed piece by piece: start tags (name, attributes with
// the predefined entities and character references decoded), end tags, text, comments, CDATA and
// processing instructions, each handed on with the line it starts on. A token cut between two
// pieces waits for the rest; the scan of an unfinished start tag goes on where it stopped, so a
// long one costs one pass. What it refuses, it refuses at once (an ImportFileError): a DOCTYPE or
// ENTITY declaration (nothing is ever expanded or fetched), any other `<!` markup, an unknown entity,
// a bare `&`, `<` inside an attribute value, an attribute without a quoted value or given twice.

import { ImportFileError } from '../parsed-import';

export interface StartTag {
  readonly name: string;
  /** In document order, values decoded. */
  readonly attributes: readonly (readonly [string, string])[];
  readonly selfClosing: boolean;
}

export interface XmlHandlers {
  start(tag: StartTag, line: number): void;
  end(name: string, line: number): void;
  text(text: string, line: number): void;
  cdata(line: number): void;
}

export function badXml(line: number, what: string): ImportFileError {
  return new ImportFileError('badXml', `satır ${line}: geçersiz XML (${what})`, line);
}

const NAME = /^[A-Za-z_:][-\w.:]*/;
export const END_TAG = /^<\/([A-Za-z_:][-\w.:]*)\s*>$/;
export const ATTRIBUTE = /\s+([A-Za-z_:][-\w.:]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
export const DECLARATION = /^<!\s*(?:DOCTYPE|ENTITY)/i;
/** An `&` that starts none of the references XML predefines. */
export const BAD_AMPERSAND = /&(?!(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});)/;
const REFERENCE = /&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Longest marker a token is told by (`<![CDATA[`). */
const MARKUP_PREFIX = 9;

/** Line breaks in text[from, to), looking no further than `to`. */
function newlines(text: string, from = 0, to = text.length): number {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  let n = 0;
  for (let i = part.indexOf('\n'); i >= 0; i = part.indexOf('\n', i + 1)) n += 1;
  return n;
}

export class XmlTokens {
  private buf = '';
  private line = 1;
  /** An unfinished start tag's scan: how far into the tag it got, and the quote it was in. */
  private tagScan: { offset: number; quote: string } | null = null;

  constructor(private readonly on: XmlHandlers) {}

  push(text: string): void {
    this.buf += text;
    this.scan(false);
  }

  /** The end of the document: anything left is an unfinished token. Answers the last line. */
  finish(): number {
    this.scan(true);
    return this.line;
  }

  private scan(final: boolean): void {
    let pos = 0;
    const buf = this.buf;
    while (pos < buf.length) {
      const next = buf[pos] === '<' ? this.markup(buf, pos, final) : this.textUntil(buf, pos, final);
      if (next < 0) break;
      this.line += newlines(buf, pos, next);
      pos = next;
    }
    this.buf = buf.slice(pos);
    if (final && this.buf !== '') throw badXml(this.line, 'dosya bir öğenin ortasında bitiyor');
  }

  /** Text up to the next `<`; answers where it ends, or -1 to wait for more. */
  private textUntil(buf: string, pos: number, final: boolean): number {
    const lt = buf.indexOf('<', pos);
    let end = lt < 0 ? buf.length : lt;
    if (lt < 0 && !final) {
      // A reference may be cut at the end of the piece: keep from its `&` on.
      const amp = buf.lastIndexOf('&');
      if (amp >= pos && buf.indexOf(';', amp) < 0) end = amp;
      if (end === pos) return -1;
    }
    const text = buf.slice(pos, end);
    if (BAD_AMPERSAND.test(text)) throw badXml(this.line + newlines(text, 0, text.search(BAD_AMPERSAND)), 'tanınmayan varlık ya da tek başına &');
    this.on.text(text, this.line);
    return end;
  }

  /** One token starting with `<`; answers where it ends, or -1 to wait for more. */
  private markup(buf: string, pos: number, final: boolean): number {
    const ahead = buf.slice(pos, pos + MARKUP_PREFIX);
    const closing = (marker: string, from: number, what: string): number => {
      const at = buf.indexOf(marker, from);
      if (at >= 0) return at + marker.length;
      if (final) throw badXml(this.line, `kapanmayan ${what}`);
      return -1;
    };
    if (ahead.startsWith('<!--')) return closing('-->', pos + 4, 'yorum');
    if (ahead.startsWith('<![CDATA[')) {
      const end = closing(']]>', pos + 9, 'CDATA');
      if (end >= 0) this.on.cdata(this.line);
      return end;
    }
    if (ahead.startsWith('<?')) return closing('?>', pos + 2, 'işleme talimatı');
    if (ahead.startsWith('<!')) {
      const head = buf.slice(pos, pos + 64);
      if (DECLARATION.test(head)) throw new ImportFileError('xmlDeclarations', `satır ${this.line}: XML belgesi DOCTYPE ya da varlık (ENTITY) bildirimi içeremez`, this.line);
      // Cut at the end of the piece, it may still become a comment, CDATA or a declaration.
      const mayGrow = head.length === buf.length - pos && ('<!--'.startsWith(head) || '<![CDATA['.startsWith(head) || /^<!\s*[A-Za-z]{0,6}$/.test(head));
      if (mayGrow && !final) return -1;
      throw badXml(this.line, mayGrow ? 'bitmemiş <! bildirimi' : 'beklenmeyen <! bildirimi');
    }
    if (ahead.length < 2 && !final) return -1;
    if (ahead.startsWith('</')) {
      const end = buf.indexOf('>', pos);
      if (end < 0) {
        if (final) throw badXml(this.line, 'bitmemiş kapanış etiketi');
        return -1;
      }
      const m = END_TAG.exec(buf.slice(pos, end + 1));
      if (!m) throw badXml(this.line, 'geçersiz kapanış etiketi');
      this.on.end(m[1]!, this.line);
      return end + 1;
    }
    return this.startTag(buf, pos, final);
  }

  private startTag(buf: string, pos: number, final: boolean): number {
    // A scan left unfinished by the last piece goes on where it stopped (the token is then at pos).
    let at = pos + (this.tagScan?.offset ?? 1);
    let quote = this.tagScan?.quote ?? '';
    let end = -1;
    for (; at < buf.length; at++) {
      const c = buf[at]!;
      if (quote !== '') {
        if (c === quote) quote = '';
        else if (c === '<') throw badXml(this.line + newlines(buf, pos, at), 'öznitelik değerinde <');
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '>') {
        end = at;
        break;
      } else if (c === '<') throw badXml(this.line + newlines(buf, pos, at), 'bitmemiş başlangıç etiketi');
    }
    if (end < 0) {
      if (final) throw badXml(this.line, 'bitmemiş başlangıç etiketi');
      this.tagScan = { offset: at - pos, quote };
      return -1;
    }
    this.tagScan = null;
    this.on.start(this.parseTag(buf.slice(pos, end + 1)), this.line);
    return end + 1;
  }

  private parseTag(raw: string): StartTag {
    const name = NAME.exec(raw.slice(1))?.[0];
    if (name === undefined) throw badXml(this.line, 'geçersiz etiket adı');
    const selfClosing = raw.endsWith('/>');
    const inner = raw.slice(1 + name.length, raw.length - (selfClosing ? 2 : 1));
    const attributes: [string, string][] = [];
    const seen = new Set<string>();
    ATTRIBUTE.lastIndex = 0;
    let at = 0;
    for (let m = ATTRIBUTE.exec(inner); m !== null; m = ATTRIBUTE.exec(inner)) {
      const [, attrName, dq, sq] = m;
      if (seen.has(attrName!)) throw badXml(this.line, `${attrName} özniteliği iki kez verilmiş`);
      seen.add(attrName!);
      attributes.push([attrName!, this.decode(dq ?? sq ?? '')]);
      at = ATTRIBUTE.lastIndex;
    }
    if (inner.slice(at).trim() !== '') throw badXml(this.line, `<${name}> etiketinde geçersiz öznitelik`);
    return { name, attributes, selfClosing };
  }

  private decode(value: string): string {
    if (BAD_AMPERSAND.test(value)) throw badXml(this.line, 'öznitelikte tanınmayan varlık ya da tek başına &');
    return value.replace(REFERENCE, (_, ref: string) => {
      if (!ref.startsWith('#')) return NAMED[ref]!;
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw badXml(this.line, `geçersiz karakter başvurusu &${ref};`);
      return String.fromCodePoint(code);
    });
  }
}
