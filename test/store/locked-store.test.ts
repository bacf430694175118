// Another OS process holds the SQLite write lock (#11 item 2). The synchronous driver waits for a
// lock on the event loop, so with the old 5 s wait per request /health took seconds and keyed
// requests queued. Now the API waits briefly (API_STORE_BUSY_TIMEOUT_MS) and then fails fast:
// while the lock is still held, every /health has answered 200 and every keyed request a clean
// 500. No duration is asserted: only that all of it happened before the holder let go.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createApp } from '../../api/create-app';
import { SERVER_ERROR_PREFIX } from '../../api/errors';
import { KeyRing } from '../../api/key-ring';
import { listen, type Listening } from '../../api/server';
import { storeWaits } from '../../shared/bootstrap';
import { loadConfig } from '../../shared/config/load';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { until } from '../crawler/support/logs';
import { holdWriteLock, type LockHolder } from '../support/lock-holder';

const KEY = 'locked-store-key-0001';
const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';

describe('API while another process holds the store write lock', function () {
  this.timeout(60_000);
  let dir: string;
  let store: Store;
  let keys: KeyRing;
  let server: Listening;
  let base: string;
  let holder: LockHolder | null = null;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-locked-'));
    const securityFile = path.join(dir, 'security.yaml');
    writeFileSync(securityFile, `security:\n  api_keys:\n    ${KEY}:\n      name: locked\n      rate_limit: 1000000\n      enabled: true\n`);
    const logger = silentLogger();
    // Opened exactly as the API process opens it, with the default settings.
    store = await openStore(`sqlite:${path.join(dir, 'api.db')}`, { logger, ...storeWaits('api', loadConfig({}, dir)) });
    keys = KeyRing.open(securityFile, { defaultRateLimit: 60, logger });
    server = await listen(createApp({ store, keys, platform: { resolveHandle: () => Promise.resolve(null) }, logger }), 0, '127.0.0.1', { logger });
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await holder?.release().catch(() => undefined);
    await server.close();
    keys.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const keyed = () => fetch(`${base}/?channel_id=${CHANNEL}`, { headers: { 'X-API-Key': KEY } });

  it('/health answers and keyed requests fail with a clean 500, all before the lock is released', async () => {
    expect((await keyed()).status, 'healthy first: nothing stored yet').to.equal(404);

    holder = holdWriteLock(path.join(dir, 'api.db'), 20_000);
    await holder.locked;

    const answered: string[] = [];
    const requests: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      requests.push(
        keyed().then(async (res) => {
          const body = (await res.json()) as { error: string };
          expect(res.status).to.equal(500);
          expect(body.error.startsWith(SERVER_ERROR_PREFIX), body.error).to.equal(true);
          answered.push(`keyed:${res.status}`);
        }),
      );
      if (i % 2 === 0) {
        requests.push(
          fetch(`${base}/health`).then(async (res) => {
            expect(res.status).to.equal(200);
            expect(await res.json()).to.deep.include({ status: 'ok' });
            answered.push('health:200');
          }),
        );
      }
    }
    await Promise.all(requests);
    expect(holder.lines, 'everything was answered while the lock was still held').to.deep.equal(['locked']);
    expect(answered.filter((a) => a === 'health:200')).to.have.length(20);
    expect(answered.filter((a) => a === 'keyed:500')).to.have.length(40);

    // Once the lock is gone the same key works again (after the short fail-fast window).
    await holder.release();
    await until('a keyed request served again', async () => (await keyed()).status === 404, 10_000);
  });
});
