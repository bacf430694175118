// Real store faults the way a full disk or an operator would cause them, working when the tests
// run as root (where chmod 0444 stops nothing): a small tmpfs filled to the last byte gives a
// genuine ENOSPC (SQLITE_FULL), and the immutable attribute (chattr +i), which root respects,
// makes the database files refuse every write. Each answers a reason instead when this machine
// cannot do it (no mount rights, a filesystem without attributes), so a suite can skip aloud.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface StoreFault {
  /** Where the database goes. */
  readonly dir: string;
  /** Turn the fault on. */
  apply(): void;
  /** Turn it off again (so the test can look at what was stored). */
  clear(): void;
  /** Undo everything (unmount, remove). */
  cleanup(): void;
}

const quiet = (cmd: string, args: string[]): void => void execFileSync(cmd, args, { stdio: 'ignore' });

/** A 2 MiB tmpfs; apply() fills it completely with a filler file. */
export function fullDiskFault(): StoreFault | string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tf-full-'));
  try {
    quiet('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a small tmpfs here (${(err as Error).message.split('\n')[0]})`;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    apply() {
      try {
        writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    },
    clear: () => rmSync(filler, { force: true }),
    cleanup() {
      quiet('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The database file and its WAL made immutable (root cannot write them either). */
export function readOnlyFault(databaseFile: string): StoreFault | string {
  const dir = path.dirname(databaseFile);
  mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, '.attr-probe');
  writeFileSync(probe, '');
  try {
    quiet('chattr', ['+i', probe]);
    quiet('chattr', ['-i', probe]);
  } catch (err) {
    return `chattr +i is not available on ${dir} (${(err as Error).message.split('\n')[0]})`;
  } finally {
    rmSync(probe, { force: true });
  }
  const files = [databaseFile, `${databaseFile}-wal`];
  return {
    dir,
    apply: () => quiet('chattr', ['+i', ...files]),
    clear: () => quiet('chattr', ['-i', ...files]),
    cleanup() {
      try {
        quiet('chattr', ['-i', ...files]);
      } catch {
        // already cleared, or the files are gone
      }
    },
  };
}
