// An online copy of the SQLite store while the API and the crawler keep using it: SQLite's own
// backup API (better-sqlite3 `backup()`), which copies page by page and restarts a step whenever a
// writer changed a page already copied, so the result is one consistent snapshot — unlike a file
// copy, which can catch the main file and its WAL at different moments. The copy is then opened on
// its own and must pass `PRAGMA integrity_check` before it is reported as good.

import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface BackupReport {
  source: string;
  target: string;
  pages: number;
  bytes: number;
  ms: number;
  /** Rows per table in the copy, for the operator to compare with what they expect. */
  rows: Record<string, number>;
  /** What integrity_check said ('ok' when sound). */
  integrity: string;
}

export class BackupError extends Error {
  override readonly name = 'BackupError';
}

/** Tables worth counting for the report (the schema's own bookkeeping is left out). */
function userTables(db: Database.Database): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
  // FTS shadow tables (name_data, name_idx, …) would double-count; their virtual table is counted.
  const virtuals = rows.filter((r) => r.name.endsWith('_config')).map((r) => r.name.slice(0, -'_config'.length));
  return rows.map((r) => r.name).filter((n) => !virtuals.some((v) => n.startsWith(`${v}_`)));
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies `source` to `target` (a new file: an existing one is refused, never overwritten) and checks
 * the copy. Throws BackupError with an operator-readable message when anything fails; a copy that
 * fails its check is removed by the caller's choice (it is left for inspection here).
 */
export async function backupSqlite(source: string, target: string, onProgress?: (done: number, total: number) => void): Promise<BackupReport> {
  if (!existsSync(source)) throw new BackupError(`no SQLite store at ${source}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file (a backup never overwrites one)`);
  const started = performance.now();
  // Read-only and never migrating: the backup must not change the live store in any way.
  const live = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  let pages = 0;
  try {
    await live.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        pages = totalPages;
        onProgress?.(totalPages - remainingPages, totalPages);
        return 1000; // pages per step: short steps let the writers in between
      },
    });
  } catch (err) {
    throw new BackupError(`the backup of ${source} failed: ${(err as Error).message}`, { cause: err });
  } finally {
    live.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const integrity = (copy.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    const rows: Record<string, number> = {};
    for (const table of userTables(copy)) rows[table] = (copy.prepare(`SELECT count(*) AS n FROM ${quoted(table)}`).get() as { n: number }).n;
    return { source, target, pages, bytes: statSync(target).size, ms: Math.round(performance.now() - started), rows, integrity };
  } finally {
    copy.close();
  }
}
