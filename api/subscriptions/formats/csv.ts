// The platform's Takeout `subscriptions.csv` (header `Channel Id,Channel Url,Channel Title`; FreeTube
// writes the same columns as `Channel ID,Channel URL,Channel title`): RFC 4180 records, so a quoted
// title may hold commas, doubled quotes and line breaks; CRLF or LF; a BOM is already gone. The
// header is matched without regard to case; a CSV without it is refused as a whole, as soon as its
// first record is read. Records are read as the text arrives, each taken as soon as it is complete.

import { followRefOf } from '../channel-refs';
import { EntryList, ImportFileError, REASONS, type FormatReader, type ParsedImport } from '../parsed-import';

const HEADER = ['channel id', 'channel url', 'channel title'] as const;

/** RFC 4180 records (fields may be quoted; `""` is a quote inside a quoted field), fed piece by piece. */
class CsvRecords {
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  /** A quote seen inside a quoted field as the last character of a piece: a `""` or the closing one. */
  private quotePending = false;
  /** A CR seen as the last character of a piece: a CRLF's first half or a line end of its own. */
  private crPending = false;
  private line = 1;
  private recordLine = 1;

  constructor(private readonly onRecord: (fields: string[], line: number) => void) {}

  push(text: string): void {
    let i = 0;
    if (this.quotePending) {
      this.quotePending = false;
      if (text[0] === '"') {
        this.field += '"';
        i = 1;
      } else this.quoted = false;
    }
    if (this.crPending) {
      this.crPending = false;
      if (text[0] === '\n') i = 1;
    }
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (this.quoted) {
        if (c === '"') {
          if (i === text.length - 1) this.quotePending = true;
          else if (text[i + 1] === '"') {
            this.field += '"';
            i += 1;
          } else this.quoted = false;
          continue;
        }
        if (c === '\n') this.line += 1;
        this.field += c;
        continue;
      }
      if (c === '"' && this.field.trim() === '') {
        this.quoted = true;
        this.field = '';
      } else if (c === ',') {
        this.fields.push(this.field);
        this.field = '';
      } else if (c === '\r' || c === '\n') {
        if (c === '\r') {
          if (i === text.length - 1) this.crPending = true;
          else if (text[i + 1] === '\n') i += 1;
        }
        this.endRecord();
        this.line += 1;
        this.recordLine = this.line;
      } else this.field += c;
    }
  }

  end(): void {
    if (this.quotePending) {
      this.quotePending = false;
      this.quoted = false;
    }
    if (this.quoted) throw new ImportFileError('badCsv', `satır ${this.recordLine}: kapanmayan tırnak`, this.recordLine);
    if (this.field !== '' || this.fields.length > 0) this.endRecord();
  }

  private endRecord(): void {
    const fields = [...this.fields, this.field];
    this.fields = [];
    this.field = '';
    if (!(fields.length === 1 && fields[0]!.trim() === '')) this.onRecord(fields, this.recordLine);
  }
}

export class CsvReader implements FormatReader {
  private readonly list = new EntryList();
  private columns: [number, number, number] | null = null;
  private readonly records = new CsvRecords((fields, line) => this.take(fields, line));

  push(text: string): void {
    this.records.push(text);
  }

  end(): ParsedImport {
    this.records.end();
    if (this.columns === null) throw headerError(1);
    return this.list.result('takeout_csv');
  }

  private take(fields: string[], line: number): void {
    if (this.columns === null) {
      const names = fields.map((f) => f.trim().toLowerCase());
      const column = HEADER.map((h) => names.indexOf(h));
      if (column.some((c) => c < 0)) throw headerError(line);
      this.columns = column as [number, number, number];
      return;
    }
    const [idColumn, urlColumn, titleColumn] = this.columns;
    const ref = followRefOf(fields[idColumn]?.trim() ?? '') ?? followRefOf(fields[urlColumn]?.trim() ?? '');
    if (ref) this.list.add(ref, fields[titleColumn], line);
    else this.list.reject(line, fields.join(','), REASONS.notAChannel);
  }
}

function headerError(line: number): ImportFileError {
  return new ImportFileError('badCsv', `ilk satır '${HEADER.map((h) => h.replace(/\b\w/g, (x) => x.toUpperCase())).join(',')}' başlığı olmalı`, line);
}
