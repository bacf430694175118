// Opens the SQLite file the API and the crawler share: WAL so readers never wait for the writer,
// a busy timeout so the two processes queue for the write lock instead of failing, and
// synchronous=NORMAL (safe with WAL; a power cut may lose the last commits, never corrupt).

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const BUSY_TIMEOUT_MS = 5000;
/**
 * Reads through a memory map instead of a read() per page. A feed's rows are scattered over the
 * file (videos arrive in batches across many channels), so at 100k videos each feed read touches
 * pages outside SQLite's own small cache; mapped, they cost a memory access, not a system call.
 */
const MMAP_BYTES = 1024 * 1024 * 1024;

/** Opens with BUSY_TIMEOUT_MS (migrations wait for another process's write); the caller may shorten it after. */
export function openDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  return db;
}
