// A real SQLite store in a fresh temp directory, removed after the test: the one setup every test
// that needs an empty store on disk uses.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger, type Logger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import type { Store } from '../../shared/store/types';

export interface TempStore {
  store: Store;
  dir: string;
  url: string;
  /** Another connection to the same file (a second process's view). */
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
}

export async function tempStore(prefix = 'tf-store-', logger: Logger = silentLogger()): Promise<TempStore> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const url = `sqlite:${path.join(dir, 'store.db')}`;
  const opened: Store[] = [];
  const open = async (): Promise<Store> => {
    const s = await openStore(url, { logger, rootDir: dir });
    opened.push(s);
    return s;
  };
  const store = await open();
  return {
    store,
    dir,
    url,
    reopen: open,
    async cleanup() {
      for (const s of opened) await s.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
