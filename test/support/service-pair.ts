// The API and the crawler as PM2 starts them (compiled entry points, settings from the environment)
// in a temp dir holding a key file and an empty settings file, against a platform on loopback, with
// the crawler's waits shortened for a test: the fast profile, short batch and blocked waits, a 1 s
// poll, and each channel listed again every 2 s (by default its upload rhythm picks between 30
// minutes and 24 hours), so a new upload is seen within the test. The API listens on a port the
// system picks (PORT=0), read from its own line.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from './poll';
import { ensureBuilt, listeningPort, startEntry, type Started } from './processes';

export interface ServicePair {
  dir: string;
  api: Started;
  crawler: Started;
  /** The API's address, answering /health. */
  base: string;
  /** SIGKILL for whatever still runs, then the temp dir goes. */
  kill(): Promise<void>;
}

export interface ServicePairOptions {
  /** Temp dir prefix. */
  prefix: string;
  /** The one API key in the key file, and its name. */
  key: string;
  keyName: string;
  /** The key's role (default reader). */
  keyRole?: 'reader' | 'admin';
  platformUrl: string;
  /** Default: a SQLite file in the temp dir. */
  databaseUrl?: string;
  /** More settings, over the ones above. */
  env?: Record<string, string>;
}

export async function startServicePair(o: ServicePairOptions): Promise<ServicePair> {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), o.prefix));
  writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${o.key}:\n      name: ${JSON.stringify(o.keyName)}\n      rate_limit: 1000\n      enabled: true\n${o.keyRole ? `      role: ${o.keyRole}\n` : ''}`);
  writeFileSync(path.join(dir, 'settings.yaml'), '');
  const env = {
    PORT: '0', HOST: '127.0.0.1', CONFIG_FILE: path.join(dir, 'settings.yaml'),
    DATABASE_URL: o.databaseUrl ?? `sqlite:${path.join(dir, 'feeds.db')}`, SECURITY_CONFIG: path.join(dir, 'security.yaml'), PLATFORM_BASE_URL: o.platformUrl,
    CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0.05', CRAWL_BLOCKED_WAIT: '0.05-0.1', CRAWL_POLL_SECONDS: '1',
    CRAWL_LISTING_INTERVAL: '2', BROWSER_EXECUTABLE_PATH: 'off', LOG_LEVEL: 'info',
    ...o.env,
  };
  const api = startEntry('api', env, dir);
  const crawler = startEntry('crawler', env, dir);
  const kill = async (): Promise<void> => {
    await api.stop('SIGKILL');
    await crawler.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = `http://127.0.0.1:${await listeningPort(api)}`;
    await waitFor('the API to answer /health', async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 30_000);
    return { dir, api, crawler, base, kill };
  } catch (err) {
    await kill();
    throw err;
  }
}
