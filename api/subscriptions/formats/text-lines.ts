// Plain text: one channel reference per line, in any form GET / accepts (or a platform feed URL).
// Blank lines and lines starting with `#` are skipped. Read line by line as the text arrives (a
// line cut between two pieces waits for the rest); LF, CRLF and a lone CR all end a line.

import { followRefOf } from '../channel-refs';
import { EntryList, REASONS, type FormatReader, type ParsedImport } from '../parsed-import';

export class TextLinesReader implements FormatReader {
  private readonly list = new EntryList();
  /** The text after the last complete line. */
  private rest = '';
  private line = 0;

  push(text: string): void {
    const all = this.rest + text;
    const breaks = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = breaks.exec(all); m !== null; m = breaks.exec(all)) {
      // A CR at the very end may be the first half of a CRLF: wait for the next piece.
      if (m[0] === '\r' && m.index === all.length - 1) break;
      this.take(all.slice(start, m.index));
      start = m.index + m[0].length;
    }
    this.rest = all.slice(start);
  }

  end(): ParsedImport {
    const last = this.rest.replace(/\r$/, '');
    if (last !== '' || this.rest !== '') this.take(last);
    this.rest = '';
    return this.list.result('text');
  }

  private take(raw: string): void {
    this.line += 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const ref = followRefOf(line);
    if (ref) this.list.add(ref, null, this.line);
    else this.list.reject(this.line, line, REASONS.notAChannel);
  }
}
