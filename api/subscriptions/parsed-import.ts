// What every format reader (formats/*.ts) makes of an uploaded subscription list: the entries that
// name a channel, the ones rejected with their reason, or one ImportFileError for the whole file.
// Readers take the file piece by piece as it arrives (FormatReader) and collect into one EntryList,
// which refuses the file at its 5,001st entry: nothing after that is read.

import type { FollowRef } from './channel-refs';

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

/** At most this many channels (entries, rejected ones included) per import. */
export const MAX_IMPORT_CHANNELS = 5_000;
/** A title longer than this (in UTF-16 code units) is cut: channel names are at most 100 characters. */
export const MAX_TITLE_LENGTH = 200;

/** A format's reader: `push` takes the next piece of text (cut anywhere), `end` the end of the file. Both may throw ImportFileError. */
export interface FormatReader {
  push(text: string): void;
  end(): ParsedImport;
}

/** A title as stored: trimmed, null when empty, at most MAX_TITLE_LENGTH (never cut inside a surrogate pair). */
export function boundedTitle(raw: string | null | undefined): string | null {
  const t = raw?.trim() ?? '';
  if (t === '') return null;
  if (t.length <= MAX_TITLE_LENGTH) return t;
  const cut = /[\uD800-\uDBFF]/.test(t[MAX_TITLE_LENGTH - 1]!) ? MAX_TITLE_LENGTH - 1 : MAX_TITLE_LENGTH;
  return t.slice(0, cut).trimEnd();
}

/** The entries of one file, counted as they come: the one past MAX_IMPORT_CHANNELS refuses the file. */
export class EntryList {
  readonly entries: ImportEntry[] = [];
  readonly rejected: RejectedEntry[] = [];

  add(ref: FollowRef, title: string | null | undefined, line: number): void {
    this.count();
    this.entries.push({ ref, title: boundedTitle(title), line });
  }

  reject(line: number, text: string, reason: string): void {
    this.count();
    this.rejected.push({ line, text: shown(text), reason });
  }

  result(format: ImportFormat): ParsedImport {
    return { format, entries: this.entries, rejected: this.rejected };
  }

  private count(): void {
    if (this.entries.length + this.rejected.length < MAX_IMPORT_CHANNELS) return;
    throw new ImportFileError('tooMany', `dosyada ${MAX_IMPORT_CHANNELS} kanaldan fazlası var; bir içe aktarmada en fazla ${MAX_IMPORT_CHANNELS} kanal olabilir`);
  }
}

/** What a rejected entry shows of its text: enough to find it, never a whole line of junk. */
export const shown = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

export const REASONS = {
  notAChannel: 'kanal kimliği, handle ya da kanal bağlantısı değil',
  otherService: 'YouTube dışı bir servis',
  noFeedUrl: 'xmlUrl yok',
} as const;
