// OPML 1.0 / 1.1 / 2.0 as feed readers and the apps write it: every outline with an `xmlUrl` is a
// feed (outlines nested in categories included, as deep as MAX_DEPTH); the feed must be a platform
// channel's (its feed URL, a channel URL, or a front-end instance's channel feed).
//
// Read as the text arrives, token by token (xml-tokens.ts), so that a file is refused at its
// 5,001st feed, its first DOCTYPE or its first fault without the rest being looked at, and no piece
// of work is longer than one piece of text. A DOCTYPE or entity declaration refuses the document,
// so nothing is ever expanded or fetched; only the five predefined entities and character
// references are read. The XML must be well-formed (one root, tags nested and closed, attributes
// quoted and not repeated); a fault is refused with its line.

import { followRefOf } from '../channel-refs';
import { EntryList, ImportFileError, REASONS, type FormatReader, type ParsedImport } from '../parsed-import';
import { badXml, XmlTokens, type StartTag } from './xml-tokens';

/** The deepest nesting read; a deeper document is refused as malformed. */
export const MAX_DEPTH = 100;

/** Where an element sits: under <body> (a feed list), elsewhere, or <body> itself. */
type Place = 'root' | 'body' | 'feeds' | 'other';

export class OpmlReader implements FormatReader {
  private readonly list = new EntryList();
  private readonly open: { name: string; place: Place }[] = [];
  private rootSeen = false;
  private readonly tokens = new XmlTokens({
    start: (tag, line) => this.opened(tag, line),
    end: (name, line) => this.closed(name, line),
    text: (text, line) => this.text(text, line),
    cdata: (line) => {
      if (this.open.length === 0) throw badXml(line, 'kök öğenin dışında CDATA');
    },
  });

  push(text: string): void {
    this.tokens.push(text);
  }

  end(): ParsedImport {
    const line = this.tokens.finish();
    if (!this.rootSeen) throw new ImportFileError('notOpml', 'kök öğe yok: XML dosyası OPML olmalı');
    const unclosed = this.open.at(-1);
    if (unclosed !== undefined) throw badXml(line, `kapanmayan <${unclosed.name}>`);
    return this.list.result('opml');
  }

  private opened(tag: StartTag, line: number): void {
    const parent = this.open.at(-1);
    let place: Place;
    if (parent === undefined) {
      if (this.rootSeen) throw badXml(line, `ikinci bir kök öğe <${tag.name}>`);
      if (tag.name.toLowerCase() !== 'opml') throw new ImportFileError('notOpml', `kök öğe <opml> değil (<${tag.name}>): XML dosyası OPML olmalı`);
      this.rootSeen = true;
      place = 'root';
    } else {
      const name = tag.name.toLowerCase();
      if (parent.place === 'root' && name === 'body') place = 'body';
      else if ((parent.place === 'body' || parent.place === 'feeds') && name === 'outline') place = 'feeds';
      else place = 'other';
    }
    if (place === 'feeds') this.outline(tag, line);
    if (tag.selfClosing) return;
    if (this.open.length >= MAX_DEPTH) throw badXml(line, `öğeler ${MAX_DEPTH} düzeyden derin`);
    this.open.push({ name: tag.name, place });
  }

  private closed(name: string, line: number): void {
    const top = this.open.pop();
    if (top === undefined) throw badXml(line, `açılmamış </${name}>`);
    if (top.name !== name) throw badXml(line, `<${top.name}> </${name}> ile kapanamaz`);
  }

  private text(text: string, line: number): void {
    if (this.open.length === 0 && text.trim() !== '') throw badXml(line, 'kök öğenin dışında metin');
  }

  /** An outline under <body>: a feed when it has an `xmlUrl` (any case: `xmlUrl`, `xmlurl`, `XMLURL` all occur). */
  private outline(tag: StartTag, line: number): void {
    const feedUrl = attr(tag, 'xmlurl');
    if (feedUrl === null || feedUrl.trim() === '') return;
    const ref = followRefOf(feedUrl);
    if (ref) this.list.add(ref, attr(tag, 'title')?.trim() || attr(tag, 'text'), line);
    else this.list.reject(line, feedUrl, REASONS.notAChannel);
  }
}

function attr(tag: StartTag, lowerName: string): string | null {
  for (const [name, value] of tag.attributes) if (name.toLowerCase() === lowerName) return value;
  return null;
}
