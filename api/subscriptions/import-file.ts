// An uploaded subscription list → the channels it names, whatever wrote it. The format is told from
// the content (never only from the Content-Type, which apps and curl set every which way):
// `<` → OPML, `{` / `[` → one of the apps' JSON exports, a first line with a comma → a CSV with the
// platform's Takeout header, anything else → one channel reference per line. A file that cannot be
// read as a whole is refused with one ImportFileError (nothing is stored); single entries that name
// no channel are listed as rejected, with their line, and the rest is imported.

import { readCsv } from './formats/csv';
import { readJsonExport } from './formats/json-exports';
import { readOpml } from './formats/opml';
import { readTextLines } from './formats/text-lines';
import { ImportFileError, type ParsedImport } from './parsed-import';

/** At most this many channels (entries, rejected ones included) per import. */
export const MAX_IMPORT_CHANNELS = 5_000;
/** Largest accepted body (POST /subscriptions), in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text: UTF-8 (a BOM is dropped), no NUL; else the file is binary. */
function textOf(body: Buffer): string {
  if (body.includes(0)) throw new ImportFileError('binary', 'dosya metin değil (ikili veri içeriyor)');
  try {
    return utf8.decode(body);
  } catch {
    throw new ImportFileError('binary', 'dosya UTF-8 metin değil');
  }
}

function firstLine(text: string, start: number): string {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.slice(start) : text.slice(start, end);
}

export function parseImport(body: Buffer): ParsedImport {
  const text = textOf(body);
  const start = text.search(/\S/);
  if (start < 0) throw new ImportFileError('empty', 'dosya boş');
  const first = text[start]!;
  let parsed: ParsedImport;
  if (first === '<') parsed = readOpml(text);
  else if (first === '{' || first === '[') parsed = readJsonExport(text);
  else if (firstLine(text, start).includes(',')) parsed = readCsv(text);
  else parsed = readTextLines(text);
  const count = parsed.entries.length + parsed.rejected.length;
  if (count > MAX_IMPORT_CHANNELS) {
    throw new ImportFileError('tooMany', `dosyada ${count} kanal var; bir içe aktarmada en fazla ${MAX_IMPORT_CHANNELS} kanal olabilir`);
  }
  return parsed;
}
