// An uploaded subscription list → the channels it names, whatever wrote it, read as it arrives.
// The format is told from the content (never only from the Content-Type, which apps and curl set
// every which way): `<` → OPML, `{` / `[` → one of the apps' JSON exports, a first line with a
// comma → a CSV with the platform's Takeout header, anything else → one channel reference per line.
// The bytes are checked (no NUL, UTF-8; a BOM is dropped) and handed to the format's reader in
// slices of SLICE_CHARS with the event loop given back between them, so no import holds the API
// for longer than a slice, and a file is refused as soon as it can be told (its 5,001st entry, its
// 2 MB, a DOCTYPE, a CSV header that is not the Takeout one) without the rest being read. A file
// refused as a whole is one ImportFileError (nothing is stored); single entries that name no
// channel are listed as rejected, with their line, and the rest is imported.

import { setImmediate as turn } from 'node:timers/promises';
import { ApiError } from '../errors';
import { CsvReader } from './formats/csv';
import { JsonExportReader } from './formats/json-exports';
import { OpmlReader } from './formats/opml';
import { TextLinesReader } from './formats/text-lines';
import { ImportFileError, MAX_IMPORT_CHANNELS, type FormatReader, type ParsedImport } from './parsed-import';

export { MAX_IMPORT_CHANNELS };
/** Largest accepted file (POST /subscriptions), in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
/** Text handed to a reader at once; the event loop is given back between two slices. */
export const SLICE_CHARS = 16 * 1024;

/** Takes a file's bytes piece by piece and reads them with the reader its first characters call for. */
export class ImportFeed {
  private bytes = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private reader: FormatReader | null = null;
  /** The text before the format is known: leading blanks, then the first line for CSV or text. */
  private head = '';
  private lineBreak = false;

  /** Bytes taken so far. */
  get size(): number {
    return this.bytes;
  }

  /** Whether the text had a line break anywhere (`curl -d @file` removes every one). */
  get hadLineBreak(): boolean {
    return this.lineBreak;
  }

  /** The next bytes of the file. */
  async push(chunk: Buffer): Promise<void> {
    this.bytes += chunk.length;
    if (this.bytes > MAX_IMPORT_BYTES) throw new ApiError('bodyTooLarge');
    if (chunk.includes(0)) throw new ImportFileError('binary', 'dosya metin değil (ikili veri içeriyor)');
    await this.text(this.decode(chunk, true));
  }

  /** The end of the file: what it names. */
  async end(): Promise<ParsedImport> {
    await this.text(this.decode(Buffer.alloc(0), false), true);
    if (this.reader === null) throw new ImportFileError('empty', 'dosya boş');
    return this.reader.end();
  }

  private decode(chunk: Buffer, stream: boolean): string {
    try {
      return this.decoder.decode(chunk, { stream });
    } catch {
      throw new ImportFileError('binary', 'dosya UTF-8 metin değil');
    }
  }

  private async text(text: string, atEnd = false): Promise<void> {
    if (!this.lineBreak && /[\r\n]/.test(text)) this.lineBreak = true;
    if (this.reader === null) {
      this.head += text;
      if (!this.choose(atEnd)) return;
      text = this.head;
      this.head = '';
    }
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      if (at > 0) await turn();
      this.reader!.push(text.slice(at, at + SLICE_CHARS));
    }
  }

  /** Picks the reader once the head tells the format (at the end of the file, whatever it holds). */
  private choose(atEnd: boolean): boolean {
    const start = this.head.search(/\S/);
    if (start < 0) return false;
    const first = this.head[start]!;
    if (first === '<') this.reader = new OpmlReader();
    else if (first === '{' || first === '[') this.reader = new JsonExportReader();
    else {
      const lineEnd = this.head.slice(start).search(/[\r\n]/);
      if (lineEnd < 0 && !atEnd) return false;
      const firstLine = lineEnd < 0 ? this.head.slice(start) : this.head.slice(start, start + lineEnd);
      this.reader = firstLine.includes(',') ? new CsvReader() : new TextLinesReader();
    }
    return true;
  }
}

/** The whole file at once (tests, tools): the same reading as an upload's. */
export async function parseImport(body: Buffer): Promise<ParsedImport> {
  const feed = new ImportFeed();
  for (let at = 0; at < body.length; at += 64 * 1024) await feed.push(body.subarray(at, at + 64 * 1024));
  return feed.end();
}
