// The daily caps hold across crawlers (issue 31 "the caps hold across crawler processes"): two
// summary queues, each on its own connection to one store (a SQLite file, the MongoDB emulator),
// racing over the same videos against the fake model on loopback, make exactly
// SUMMARY_VIDEOS_PER_DAY summaries a UTC day between them, and as many again the next day. A cap
// counted in each process's memory would make twice as many.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import type { Store } from '../../shared/store/types';
import { askEndpoint } from '../../shared/summary/summarise';
import { startSummaryQueue, type SummaryQueue } from '../../crawler/summaries/queue';
import { summaryKeyOf } from '../../crawler/summaries/summary-job';
import type { Timing } from '../../crawler/timing';
import { FakeModelServer } from '../fake-model/server';
import { transcriptRecord, videoRecord } from '../support/factories';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { until } from '../support/poll';

const CAP = 3;
const VIDEOS = 8;
const settings = { language: 'transcript', model: 'tiny', contextTokens: 8192 };
const KEY = summaryKeyOf(settings);
const DAY_MS = 86_400_000;

/** A clock the test moves; sleeps are short real waits, cut short by a stop. */
function testTiming(start: Date): Timing & { set(d: Date): void } {
  let now = start;
  return {
    now: () => now,
    set: (d) => {
      now = d;
    },
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted || ms <= 0) return resolve();
        const timer = setTimeout(done, Math.min(ms, 20));
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      }),
  };
}

function capsAcrossCrawlers(name: string, open: () => Promise<{ stores: [Store, Store]; close(): Promise<void> }>): void {
  describe(`daily summary caps across two crawlers (${name})`, function () {
    this.timeout(120_000);
    const model = new FakeModelServer();
    let stores: [Store, Store];
    let close: () => Promise<void>;
    let queues: SummaryQueue[] = [];

    before(() => model.start());
    after(() => model.stop());
    beforeEach(async () => {
      ({ stores, close } = await open());
      model.requests.length = 0;
      model.answered = 0;
    });
    afterEach(async () => {
      await Promise.all(queues.map((q) => q.stop()));
      queues = [];
      await close();
    });

    it(`the day's first claims at once: of ten, exactly ${CAP} are allowed`, async () => {
      const caps = { videosPerDay: CAP, tokensPerDay: 0 };
      const taken = await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2]!.takeSummaryAllowance('2025-03-01', caps)));
      expect(taken.filter(Boolean)).to.have.length(CAP);
    });

    it(`SUMMARY_VIDEOS_PER_DAY=${CAP}: exactly ${CAP} summaries a UTC day between the two, ${CAP} more the next day`, async () => {
      const t0 = new Date(Date.UTC(2025, 2, 1, 12, 0, 0));
      const vs = Array.from({ length: VIDEOS }, (_, i) => videoRecord({ videoId: `cap${String(i).padStart(8, '0')}`, publishedAt: new Date(t0.getTime() - (i + 1) * 60_000), durationSeconds: 600 }));
      await stores[0].upsertVideos(vs, vs.map((v) => transcriptRecord(v, [{ startMs: 0, text: `Opening of ${v.videoId}` }, { startMs: 30_000, text: 'Then more' }])));
      const timing = testTiming(t0);
      const endpoint = { url: model.url, apiKey: null, model: 'tiny', timeoutMs: 5000 };
      const start = (): SummaryQueue[] =>
        stores.map((store, i) =>
          startSummaryQueue({ store, askFor: (stop) => askEndpoint(endpoint, stop), settings, caps: { videosPerDay: CAP, tokensPerDay: 0 }, owner: `crawler-${i}`, pollMs: 20, leaseMs: 60_000, timing, logger: silentLogger() }),
        );
      const counts = () => stores[1].summaryCounts(KEY, timing.now());
      // The day's allowance spent: none waiting (the rest parked until the next UTC day) and the
      // made ones stored. Once `ready` summaries exist no allowance is left, so none is in flight.
      const settled = async (ready: number): Promise<boolean> => {
        const c = await counts();
        return c.waiting === 0 && c.ready >= ready && queues.every((q) => q.state.lastFault === null);
      };
      const stopAll = async (): Promise<void> => {
        await Promise.all(queues.map((q) => q.stop()));
        queues = [];
      };

      queues = start();
      await until(`${CAP} summaries on day 1`, () => settled(CAP), 60_000);
      await stopAll();
      expect((await counts()).ready).to.equal(CAP);
      expect(model.answered).to.equal(CAP);

      timing.set(new Date(t0.getTime() + DAY_MS));
      queues = start();
      await until(`${2 * CAP} summaries by day 2`, () => settled(2 * CAP), 60_000);
      await stopAll();
      expect((await counts()).ready).to.equal(2 * CAP);
      expect(model.answered).to.equal(2 * CAP);
    });
  });
}

capsAcrossCrawlers('two connections to one SQLite file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tf-summary-caps-'));
  const url = `sqlite:${path.join(dir, 'feeds.db')}`;
  const a = await openStore(url, { logger: silentLogger(), rootDir: dir });
  const b = await openStore(url, { logger: silentLogger(), rootDir: dir });
  return {
    stores: [a, b],
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

capsAcrossCrawlers('two connections to the MongoDB emulator', async () => {
  const target = await mongoTestDatabase();
  const a = await connectMongoStore(target.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
  const b = await connectMongoStore(target.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
  return {
    stores: [a, b],
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await target.drop();
    },
  };
});
