// `npm run backup -- <file>`: a consistent copy of the running service's SQLite store (the one
// DATABASE_URL names, read through the same configuration as the two processes, CONFIG_FILE
// included), checked before it is called good, with the time it took. Exit 0 with a summary; 1 when the copy failed or is unsound; 2 for a usage error.
// A MongoDB store is backed up with MongoDB's own tools (docs/operations.md, "Backups").

import path from 'node:path';
import { loadConfig } from '../config/load';
import { sqlitePath } from '../store';
import { BackupError, backupSqlite } from '../store/sqlite/backup';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const fail = (code: number, line: string): never => {
  process.stderr.write(`backup: ${line}\n`);
  process.exit(code);
};

function main(): void {
  const [target, ...extra] = process.argv.slice(2);
  if (target === undefined || target.startsWith('-') || extra.length > 0) fail(2, 'usage: npm run backup -- <new-file.db>');
  let databaseUrl: string;
  let rootDir: string;
  try {
    const config = loadConfig();
    databaseUrl = config.databaseUrl;
    rootDir = config.rootDir;
  } catch (err) {
    fail(2, (err as Error).message.split('\n')[0]!);
  }
  if (!databaseUrl!.startsWith('sqlite:')) fail(2, 'DATABASE_URL is not a SQLite store; back up MongoDB with mongodump (docs/operations.md, "Backups")');
  const source = sqlitePath(databaseUrl!, rootDir!);
  if (source === ':memory:') fail(2, 'DATABASE_URL names an in-memory store; there is nothing to back up');
  const dest = path.resolve(target!);
  out(`copying the store ${source} (DATABASE_URL) to ${dest}`);
  try {
    const report = backupSqlite(source, dest);
    const rows = Object.entries(report.rows).map(([t, n]) => `${t} ${n}`).join(', ');
    out(`copied ${report.pages} pages (${(report.bytes / 1048576).toFixed(1)} MiB) from ${report.source} to ${report.target} in ${(report.ms / 1000).toFixed(1)} s`);
    out(`rows: ${rows}`);
    out('integrity check: ok');
  } catch (err) {
    fail(1, err instanceof BackupError ? err.message : `failed: ${(err as Error).message}`);
  }
}

main();
