// Another OS process holding the SQLite write lock, as a crawler in a long write or an operator's
// `sqlite3` shell would: BEGIN IMMEDIATE plus a write, then it waits (at most `maxHoldMs`) until
// told to COMMIT. Prints "locked" once it holds the lock and "released" once it let go.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './processes';

const SCRIPT = `
const Database = require(process.env.BETTER_SQLITE3);
const db = new Database(process.env.DB_FILE, { timeout: 5000 });
db.exec('BEGIN IMMEDIATE');
db.exec('CREATE TABLE IF NOT EXISTS lock_holder (n INTEGER)');
db.prepare('INSERT INTO lock_holder (n) VALUES (1)').run();
process.stdout.write('locked\\n');
const release = () => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); process.exit(0); };
setTimeout(release, Number(process.env.MAX_HOLD_MS));
process.stdin.on('data', release);
`;

export interface LockHolder {
  child: ChildProcess;
  /** Lines printed so far ("locked", "released"). */
  lines: string[];
  locked: Promise<void>;
  released: Promise<void>;
  release(): Promise<void>;
}

export function holdWriteLock(dbFile: string, maxHoldMs = 20_000): LockHolder {
  const child = spawn(process.execPath, ['-e', SCRIPT], {
    env: { PATH: process.env.PATH ?? '', DB_FILE: dbFile, MAX_HOLD_MS: String(maxHoldMs), BETTER_SQLITE3: path.join(ROOT, 'node_modules/better-sqlite3') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (lines.includes(line) ? resolve() : undefined);
      child.stdout!.on('data', check);
      child.once('exit', () => (lines.includes(line) ? resolve() : reject(new Error(`lock holder exited without "${line}"`))));
    });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  const released = waitFor('released');
  return {
    child,
    lines,
    locked: waitFor('locked'),
    released,
    async release() {
      if (child.exitCode === null) child.stdin!.write('go\n');
      await released;
    },
  };
}
