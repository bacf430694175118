// An uploaded subscription list → the channels it names, whatever wrote it. The format is told from
// the content (never only from the Content-Type, which apps and curl set every which way):
// `<` → OPML, `{` / `[` → one of the apps' JSON exports, a first line with a comma → a CSV with the
// platform's Takeout header, anything else → one channel reference per line. A file that cannot be
// read as a whole is refused with one ImportFileError (nothing is stored); single entries that name
// no channel are listed as rejected, with their line, and the rest is imported.

import type { FollowRef } from './channel-refs';
import { readCsv } from './formats/csv';
import { readJsonExport } from './formats/json-exports';
import { readOpml } from './formats/opml';
import { readTextLines } from './formats/text-lines';

/** At most this many channels (entries, rejected ones included) per import. */
export const MAX_IMPORT_CHANNELS = 5_000;
/** Largest accepted body (POST /subscriptions), in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export type ImportFormat = 'opml' | 'takeout_csv' | 'newpipe_json' | 'freetube_db' | 'invidious_json' | 'youtube_json' | 'text';

export interface ImportEntry {
  readonly ref: FollowRef;
  /** The title the file gives the channel (or playlist), if any. */
  readonly title: string | null;
  /** 1-based line of the file (for JSON, the item's place in its list). */
  readonly line: number;
}

export interface RejectedEntry {
  readonly line: number;
  readonly text: string;
  readonly reason: string;
}

export interface ParsedImport {
  readonly format: ImportFormat;
  readonly entries: readonly ImportEntry[];
  readonly rejected: readonly RejectedEntry[];
}

/** Why a whole file is refused; each is one catalogue error of the API. */
export type ImportProblem = 'empty' | 'binary' | 'xmlDeclarations' | 'badXml' | 'notOpml' | 'badCsv' | 'badJson' | 'jsonShape' | 'tooMany';

export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
  constructor(
    readonly problem: ImportProblem,
    /** Turkish, for the error body's message: what was wrong. */
    readonly detail: string,
    readonly line?: number,
  ) {
    super(detail);
  }
}

/** What a rejected entry shows of its text: enough to find it, never a whole line of junk. */
export const shown = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

export const REASONS = {
  notAChannel: 'kanal kimliği, handle ya da kanal bağlantısı değil',
  otherService: 'YouTube dışı bir servis',
  noFeedUrl: 'xmlUrl yok',
} as const;

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
