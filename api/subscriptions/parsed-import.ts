// What every format reader (formats/*.ts) makes of an uploaded subscription list: the entries that
// name a channel, the ones rejected with their reason, or one ImportFileError for the whole file.

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

/** What a rejected entry shows of its text: enough to find it, never a whole line of junk. */
export const shown = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

export const REASONS = {
  notAChannel: 'kanal kimliği, handle ya da kanal bağlantısı değil',
  otherService: 'YouTube dışı bir servis',
  noFeedUrl: 'xmlUrl yok',
} as const;
