// Another OS process holds the SQLite write lock (#11 item 2). The synchronous driver waits for a
// lock on the event loop, so with the old 5 s wait per request /health took seconds and keyed
// requests queued. Now the API waits briefly (API_STORE_BUSY_TIMEOUT_MS) and then fails fast:
// while the lock is still held, every /health has answered 200 and every keyed request a clean
// 500. No duration is asserted: only that all of it happened before the holder let go.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SERVER_ERROR_PREFIX } from '../../api/errors';
import { storeWaits } from '../../shared/bootstrap';
import { loadConfig } from '../../shared/config/load';
import { CHANNEL, startApi, type TestApi } from '../api/support';
import { holdWriteLock, type LockHolder } from '../support/lock-holder';
import { until } from '../support/poll';

const KEY = 'locked-store-key-0001';

describe('API while another process holds the store write lock', function () {
  this.timeout(60_000);
  let api: TestApi;
  let holder: LockHolder | null = null;

  before(async () => {
    // An empty directory: no settings file, so loadConfig gives the defaults.
    const noSettings = mkdtempSync(path.join(tmpdir(), 'tf-locked-'));
    const waits = storeWaits('api', loadConfig({}, noSettings));
    rmSync(noSettings, { recursive: true, force: true });
    api = await startApi({
      keys: { [KEY]: { name: 'locked', rate_limit: 1_000_000, enabled: true } },
      // Opened exactly as the API process opens it, with the default settings.
      store: waits,
    });
  });
  after(async () => {
    await holder?.release().catch(() => undefined);
    await api?.close();
  });

  const keyed = () => api.get(`/?channel_id=${CHANNEL}`, { key: KEY });

  it('/health answers and keyed requests fail with a clean 500, all before the lock is released', async () => {
    expect((await keyed()).status, 'healthy first: nothing stored yet').to.equal(404);

    holder = holdWriteLock(path.join(api.dir, 'api.db'), 20_000);
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
          fetch(`${api.base}/health`).then(async (res) => {
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
