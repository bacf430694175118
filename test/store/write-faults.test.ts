// A store that cannot write must never look as if it did (#11 item 1). Real faults on real files:
// a full disk (a filled tmpfs) and database files made immutable. Through the real Express app on
// port 0, every keyed request then answers the spec's 500 JSON body and logs an ERROR, instead of
// a 200 whose rate-limit count never moves; and registerChannel fails instead of reporting a
// channel it never stored.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SERVER_ERROR_PREFIX } from '../../api/errors';
import { CHANNEL, startApi, T0, type TestApi } from '../api/support';
import { StoreUnavailableError } from '../../shared/store';
import { fullDiskFault, readOnlyFault, type StoreFault } from '../support/store-faults';

const KEY = 'write-fault-key-0001';
const LIMIT = 50;

const startOn = (databaseFile: string) => startApi({ databaseFile, keys: { [KEY]: { name: 'faults', rate_limit: LIMIT, enabled: true } } });

const feed = (api: TestApi) => api.get(`/?channel_id=${CHANNEL}&format=atom`, { key: KEY });

const scenarios: { name: string; fault: (file: string) => StoreFault | string }[] = [
  { name: 'a full disk', fault: () => fullDiskFault() },
  { name: 'database files that refuse writes', fault: (file) => readOnlyFault(file) },
];

for (const scenario of scenarios) {
  describe(`store writes on ${scenario.name}`, function () {
    this.timeout(60_000);
    let faultDir: string;
    let fault: StoreFault;
    let running: TestApi | null = null;

    // Both tests run against this one API and store, started here so that neither depends on the other.
    before(async function () {
      faultDir = mkdtempSync(path.join(tmpdir(), 'tf-faults-'));
      // The read-only fault works on the file; the full-disk one brings its own directory.
      const made = scenario.fault(path.join(faultDir, 'db', 'api.db'));
      if (typeof made === 'string') {
        console.log(`      skipped: ${made}`);
        this.skip();
      }
      fault = made as StoreFault;
      running = await startOn(path.join(fault.dir, 'api.db'));
    });
    after(async () => {
      await running?.close();
      fault?.cleanup();
      rmSync(faultDir, { recursive: true, force: true });
    });

    it('every keyed request answers 500 with the spec body and an ERROR log; no request is let through', async () => {
      const api = running!;
      // Healthy first: the key works and its first hit is counted (404: nothing stored yet).
      const first = await feed(api);
      expect(first.status).to.equal(404);
      expect(first.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));

      fault.apply();
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 3 * LIMIT; i++) {
          const res = await feed(api);
          statuses.push(res.status);
          expect(res.headers.get('content-type')).to.match(/^application\/json/);
          const body = (await res.json()) as { error: string };
          expect(body.error.startsWith(SERVER_ERROR_PREFIX), body.error).to.equal(true);
          expect(res.headers.get('x-ratelimit-remaining'), 'no remaining count from a count never stored').to.equal(null);
        }
        expect(statuses.every((s) => s === 500), `statuses: ${[...new Set(statuses)].join(',')}`).to.equal(true);
        const errors = api.logLines.filter((l) => l.level === 'ERROR');
        expect(errors.length).to.be.at.least(3 * LIMIT);
        expect(JSON.stringify(errors)).not.to.contain(KEY);
      } finally {
        // Even when an assertion above fails, so the next test and the clean-up see a writable store.
        fault.clear();
      }
      expect((await feed(api)).headers.get('x-ratelimit-remaining'), 'the count went on from the last stored hit').to.equal(String(LIMIT - 2));
    });

    it('registerChannel fails instead of reporting a channel it never stored', async () => {
      const store = running!.store;
      fault.apply();
      let caught: unknown = null;
      try {
        await store.registerChannel({ channelId: 'UCnotstoredbecausefull01', wanted: 5 }, T0);
      } catch (err) {
        caught = err;
      } finally {
        fault.clear();
      }
      expect(caught).to.be.instanceOf(StoreUnavailableError);
      expect(await store.getChannel('UCnotstoredbecausefull01')).to.equal(null);
      // Once the store can write again, the same call stores the channel.
      expect((await store.registerChannel({ channelId: 'UCnotstoredbecausefull01', wanted: 5 }, T0)).wanted).to.equal(5);
    });
  });
}
