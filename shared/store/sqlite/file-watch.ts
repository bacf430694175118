// Notices the database file being deleted or replaced under a running process. SQLite keeps
// writing to the open (now nameless) file, so a process that went on would diverge from every
// process started later on the new file; the owner is told instead, and exits so that PM2
// restarts every process on one store.

import { statSync } from 'node:fs';
import { fileErrorText } from '../../error-text';

/** How often the file's identity is checked (a stat: cheap). */
export const FILE_CHECK_MS = 2000;

/**
 * Why the file no longer is the one opened, or null while it still is. Throws when the file cannot
 * be looked at (a permission problem, say): that says nothing about whether it is still the same.
 */
export function fileChange(file: string, opened: { dev: number; ino: number }, stat: (file: string) => { dev: number; ino: number } = statSync): string | null {
  let now;
  try {
    now = stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'deleted';
    throw err;
  }
  return now.dev === opened.dev && now.ino === opened.ino ? null : 'replaced by another file';
}

export interface FileWatchOptions {
  readonly everyMs?: number;
  /** Told once per stretch in which the file cannot be looked at, with the named reason. */
  readonly onUnchecked?: (reason: string) => void;
  readonly stat?: (file: string) => { dev: number; ino: number };
}

/** Calls `onLost` once when `file` is deleted or replaced; returns a stop function. */
export function watchDatabaseFile(file: string, onLost: (reason: string) => void, opts: FileWatchOptions = {}): () => void {
  const stat = opts.stat ?? statSync;
  const { dev, ino } = stat(file);
  let unchecked = false;
  const timer = setInterval(() => {
    let reason: string | null;
    try {
      reason = fileChange(file, { dev, ino }, stat);
      unchecked = false;
    } catch (err) {
      if (!unchecked) opts.onUnchecked?.(fileErrorText(err, 'look at the database file'));
      unchecked = true;
      return;
    }
    if (reason === null) return;
    clearInterval(timer);
    onLost(reason);
  }, opts.everyMs ?? FILE_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
