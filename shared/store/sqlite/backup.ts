// An online copy of the SQLite store while the API and the crawler keep using it: `VACUUM INTO`,
// which writes the whole database as one read transaction sees it. In WAL mode that transaction
// never blocks the writers and they never disturb it, so the copy is one consistent snapshot taken
// in one pass whatever the write traffic. (SQLite's online backup API restarts whenever another
// connection writes, and every keyed request writes its rate-limit counter, so under light traffic
// it never finished — issue 27 item 5.) The copy is written to a temporary name in the destination's
// folder and only linked to its real name once it is complete and has passed `PRAGMA integrity_check`
// on its own, so a failure never leaves a file that looks like a backup.

import { existsSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupReport {
  source: string;
  target: string;
  pages: number;
  bytes: number;
  ms: number;
  /** Rows per table in the copy, for the operator to compare with what they expect. */
  rows: Record<string, number>;
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

/** The temporary name a copy to `target` is written under (fixed, so a later run clears a stale one). */
export const partialName = (target: string): string => path.join(path.dirname(target), `.${path.basename(target)}.partial`);

const removePartial = (partial: string): void => {
  for (const f of [partial, `${partial}-journal`]) rmSync(f, { force: true });
};

/** Opens the finished copy on its own: its integrity check and its row counts. */
function check(file: string): { pages: number; rows: Record<string, number> } {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (copy.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    if (integrity !== 'ok') throw new BackupError(`the copy failed its integrity check: ${integrity}`);
    const rows: Record<string, number> = {};
    for (const table of userTables(copy)) rows[table] = (copy.prepare(`SELECT count(*) AS n FROM ${quoted(table)}`).get() as { n: number }).n;
    return { pages: copy.pragma('page_count', { simple: true }) as number, rows };
  } finally {
    copy.close();
  }
}

/**
 * Copies `source` to `target` (a new file: an existing one is refused, never overwritten; its folder
 * is created) and checks the copy. Throws BackupError with an operator-readable message when anything
 * fails, having removed whatever it had written.
 */
export function backupSqlite(source: string, target: string): BackupReport {
  if (!existsSync(source)) throw new BackupError(`no SQLite store at ${source}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file (a backup never overwrites one)`);
  const started = performance.now();
  const partial = partialName(target);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    removePartial(partial); // left by a run that was killed; VACUUM INTO refuses an existing file
    // Read-only and never migrating: the backup must not change the live store in any way.
    const live = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      live.prepare('VACUUM INTO ?').run(partial); // a bound parameter: no quoting of the path
    } finally {
      live.close();
    }
    const { pages, rows } = check(partial);
    // link() fails when the name was taken meanwhile, where rename() would overwrite it.
    linkSync(partial, target);
    removePartial(partial);
    return { source, target, pages, bytes: statSync(target).size, ms: Math.round(performance.now() - started), rows };
  } catch (err) {
    removePartial(partial);
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the backup of ${source} to ${target} failed: ${(err as Error).message}`, { cause: err });
  }
}
