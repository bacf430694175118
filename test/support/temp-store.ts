// A real SQLite store in a fresh temp directory, removed after the test: the one setup every test
// that needs an empty store on disk uses.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger, type Logger } from '../../shared/logger';
import { openStore, type OpenStoreOptions } from '../../shared/store';
import type { Store } from '../../shared/store/types';

export interface TempStore {
  store: Store;
  dir: string;
  /** The SQLite file. */
  file: string;
  url: string;
  /** Another connection to the same file (a second process's view). */
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
}

export interface TempStoreOptions {
  logger?: Logger;
  /** The file's name in the temp dir (default store.db), or an absolute path elsewhere (a fault-injecting mount). */
  file?: string;
  /** Further openStore options (the store's waits, a clock). */
  store?: Omit<OpenStoreOptions, 'logger' | 'rootDir'>;
}

export async function tempStore(prefix = 'tf-store-', opts: TempStoreOptions = {}): Promise<TempStore> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const file = path.resolve(dir, opts.file ?? 'store.db');
  const url = `sqlite:${file}`;
  const opened: Store[] = [];
  const open = async (): Promise<Store> => {
    const s = await openStore(url, { ...opts.store, logger: opts.logger ?? silentLogger(), rootDir: dir });
    opened.push(s);
    return s;
  };
  let store: Store;
  try {
    store = await open();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    store,
    dir,
    file,
    url,
    reopen: open,
    async cleanup() {
      for (const s of opened) await s.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
