// The platform's Takeout `subscriptions.csv` (header `Channel Id,Channel Url,Channel Title`; FreeTube
// writes the same columns as `Channel ID,Channel URL,Channel title`): RFC 4180 records, so a quoted
// title may hold commas, doubled quotes and line breaks; CRLF or LF; a BOM is already gone. The
// header is matched without regard to case; a CSV without it is refused as a whole.

import { followRefOf } from '../channel-refs';
import { ImportFileError, REASONS, shown, type ImportEntry, type ParsedImport, type RejectedEntry } from '../parsed-import';

const HEADER = ['channel id', 'channel url', 'channel title'] as const;

interface CsvRecord {
  fields: string[];
  /** 1-based line the record starts on. */
  line: number;
}

/** RFC 4180 records (fields may be quoted; `""` is a quote inside a quoted field). */
export function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = (): void => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === '\n') line += 1;
        field += c;
      }
      i += 1;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else field += c;
    i += 1;
  }
  if (quoted) throw new ImportFileError('badCsv', `satır ${recordLine}: kapanmayan tırnak`, recordLine);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

export function readCsv(text: string): ParsedImport {
  const [header, ...rows] = csvRecords(text);
  const names = (header?.fields ?? []).map((f) => f.trim().toLowerCase());
  const column = HEADER.map((h) => names.indexOf(h));
  if (header === undefined || column.some((c) => c < 0)) {
    throw new ImportFileError('badCsv', `ilk satır '${HEADER.map((h) => h.replace(/\b\w/g, (x) => x.toUpperCase())).join(',')}' başlığı olmalı`, header?.line ?? 1);
  }
  const [idColumn, urlColumn, titleColumn] = column as [number, number, number];
  const entries: ImportEntry[] = [];
  const rejected: RejectedEntry[] = [];
  for (const { fields, line } of rows) {
    const id = fields[idColumn]?.trim() ?? '';
    const url = fields[urlColumn]?.trim() ?? '';
    const ref = followRefOf(id) ?? followRefOf(url);
    const title = fields[titleColumn]?.trim() || null;
    if (ref) entries.push({ ref, title, line });
    else rejected.push({ line, text: shown(fields.join(',')), reason: REASONS.notAChannel });
  }
  return { format: 'takeout_csv', entries, rejected };
}
