// The crawler's side of POST /admin/platform-check: a request recorded in the store (as the API
// records it) is taken by the crawler's worker, which asks the fake platform with every known
// client and stores the report; a second worker does not run it again.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import type { PlatformCheckReport } from '../../shared/platform/platform-check';
import type { Store } from '../../shared/store/types';
import { budgetRefusal, CHECK_REQUESTS, startPlatformCheckWorker, type Worker } from '../../crawler/platform-check-worker';
import { realTiming } from '../../crawler/timing';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { platformConfig } from '../platform/support';
import { waitFor } from '../support/poll';
import { tempStore, type TempStore } from '../support/temp-store';

describe('platform check worker (the crawler answers POST /admin/platform-check through the store)', function () {
  this.timeout(30_000);
  let ts: TempStore;
  let store: Store;
  let fake: FakePlatform;
  let workers: Worker[];

  beforeEach(async () => {
    ts = await tempStore('tf-check-worker-');
    store = ts.store;
    fake = await startFakePlatform();
    workers = [];
  });
  afterEach(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await fake.close();
    await ts.cleanup();
  });

  it('takes a pending request, asks every client once, stores the report; a second worker leaves it alone', async () => {
    const videoId = fake.addChannel(makeChannel({ handle: 'checkworker', count: 1, seed: 3, captionsMix: { manual: 1 } })).videos[0]!.videoId;
    const platform = createPlatformClient(platformConfig(fake.url), silentLogger());
    let runs = 0;
    const check = async (): Promise<PlatformCheckReport> => {
      runs += 1;
      return platform.checkPlatform(videoId);
    };
    for (const owner of ['crawler-a', 'crawler-b']) {
      workers.push(startPlatformCheckWorker({ store, check, owner, pollMs: 20, timing: realTiming, logger: silentLogger() }));
    }
    const asked = await store.requestPlatformCheck(new Date());
    const done = await waitFor('the report', async () => {
      const s = await store.getPlatformCheck();
      return s?.finishedAt && s.finishedAt >= asked.requestedAt! ? s : undefined;
    }, 20_000);
    const report = JSON.parse(done.report!) as PlatformCheckReport;
    expect(report.videoId).to.equal(videoId);
    expect(report.ok).to.equal(true);
    expect(report.working).to.include('VISIONOS');
    expect(runs).to.equal(1);
    expect(fake.counters.player).to.equal(report.clients.length);
  });

  it('with the hourly budget spent or in a cool-down it sends nothing and answers why', async () => {
    const videoId = fake.addChannel(makeChannel({ handle: 'checkbudget', count: 1, seed: 6, captionsMix: { manual: 1 } })).videos[0]!.videoId;
    const platform = createPlatformClient(platformConfig(fake.url), silentLogger());
    let runs = 0;
    const check = async (): Promise<PlatformCheckReport> => {
      runs += 1;
      return platform.checkPlatform(videoId);
    };
    const budget = { perHour: 100, coolDownUntil: null as Date | null, used: 100 - CHECK_REQUESTS + 1, usedInLastHour(): number { return this.used; } };
    workers.push(startPlatformCheckWorker({ store, check, refusal: () => budgetRefusal(budget), owner: 'crawler-a', pollMs: 20, timing: realTiming, logger: silentLogger() }));
    const answered = async (): Promise<{ skipped?: boolean; verdict: string }> => {
      // A request in the same millisecond as the last answer would not be pending (requestedAt must be later).
      await new Promise((resolve) => setTimeout(resolve, 5));
      const asked = await store.requestPlatformCheck(new Date());
      const done = await waitFor('the answer', async () => {
        const s = await store.getPlatformCheck();
        return s?.finishedAt && s.finishedAt >= asked.requestedAt! ? s : undefined;
      }, 20_000);
      return JSON.parse(done.report!) as { skipped?: boolean; verdict: string };
    };
    const spent = await answered();
    expect(spent.skipped).to.equal(true);
    expect(spent.verdict).to.match(/^not run: hourly platform budget spent \(89 of CRAWL_REQUESTS_PER_HOUR=100/);
    budget.used = 0;
    budget.coolDownUntil = new Date(Date.now() + 30 * 60_000);
    const cooling = await answered();
    expect(cooling.verdict).to.match(/^not run: platform cool-down until /);
    expect(runs).to.equal(0);
    expect(fake.counters.player, 'no platform request').to.equal(0);
    budget.coolDownUntil = null;
    const ran = await answered();
    expect(ran.skipped).to.equal(undefined);
    expect(runs).to.equal(1);
  });
});
