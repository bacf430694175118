// Notices the database file being deleted or replaced under a running process. SQLite keeps
// writing to the open (now nameless) file, so a process that went on would diverge from every
// process started later on the new file; the owner is told instead, and exits so that PM2
// restarts every process on one store.

import { statSync } from 'node:fs';

/** How often the file's identity is checked (a stat: cheap). */
export const FILE_CHECK_MS = 2000;

/** Why the file no longer is the one opened, or null while it still is. */
export function fileChange(file: string, opened: { dev: number; ino: number }): string | null {
  try {
    const now = statSync(file);
    return now.dev === opened.dev && now.ino === opened.ino ? null : 'replaced by another file';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'deleted' : null;
  }
}

/** Calls `onLost` once when `file` is deleted or replaced; returns a stop function. */
export function watchDatabaseFile(file: string, onLost: (reason: string) => void, everyMs = FILE_CHECK_MS): () => void {
  const { dev, ino } = statSync(file);
  const timer = setInterval(() => {
    const reason = fileChange(file, { dev, ino });
    if (reason === null) return;
    clearInterval(timer);
    onLost(reason);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
