// The crawler daemon as real processes over one SQLite file and the fake platform: two crawlers
// share the work without doing anything twice and stop cleanly on SIGTERM; a crawler killed in the
// middle of a channel loses nothing already stored, and a restarted one finishes the channel once
// the dead one's lease has expired.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import type { Store, VideoRecord } from '../../shared/store/types';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../fake-platform';
import { startCrawlerProcess, runsStarted, type CrawlerProcess } from './support/crawler-process';
import { until } from './support/logs';

describe('crawler processes', function () {
  this.timeout(120_000);
  let dir: string;
  let fake: FakePlatform;
  let store: Store;
  let databaseUrl: string;
  let procs: CrawlerProcess[];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-crawler-proc-'));
    databaseUrl = `sqlite:${path.join(dir, 'feeds.db')}`;
    store = await openStore(databaseUrl, { logger: silentLogger(), rootDir: dir });
    fake = await startFakePlatform();
    procs = [];
  });
  afterEach(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await fake.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}): CrawlerProcess => {
    const p = startCrawlerProcess(dir, { DATABASE_URL: databaseUrl, PLATFORM_BASE_URL: fake.url, ...env });
    procs.push(p);
    return p;
  };
  const done = async (ch: FakeChannelSpec): Promise<boolean> => {
    const c = await store.getChannel(ch.channelId);
    return c !== null && c.leaseOwner === null && c.lastOutcome === 'ok';
  };
  const stored = async (ch: FakeChannelSpec): Promise<VideoRecord[]> => store.getVideos(ch.videos.map((v) => v.videoId));

  it('two crawler processes on one store share the channels without working any twice, and exit 0 on SIGTERM', async () => {
    const channels = Array.from({ length: 6 }, (_, i) =>
      fake.addChannel(makeChannel({ handle: `sharedwork${i}`, count: 8, seed: 100 + i, captionsMix: { manual: 1 } })));
    // Slow answers (about a second per channel) make the two crawlers' runs overlap in time.
    fake.scenario.slow(60);
    const a = start();
    const b = start();
    const started = (p: CrawlerProcess) => p.logs.some((l) => l.msg === 'crawler started');
    await until('both crawlers up', () => started(a) && started(b), 30_000);
    for (const ch of channels) await store.registerChannel({ channelId: ch.channelId, wanted: 8 }, new Date());
    await until('every channel done', async () => (await Promise.all(channels.map(done))).every(Boolean), 90_000);

    const byA = runsStarted(a);
    const byB = runsStarted(b);
    for (const ch of channels) {
      const runs = [...byA, ...byB].filter((id) => id === ch.channelId);
      expect(runs, `${ch.channelId} run by exactly one process, once`).to.have.length(1);
    }
    expect(byA.length, 'both crawlers took part').to.be.greaterThan(0);
    expect(byB.length, 'both crawlers took part').to.be.greaterThan(0);
    // Each video was asked for once in total: no process fetched what the other did.
    expect(fake.counters.player).to.equal(6 * 8);
    for (const ch of channels) {
      const rows = await stored(ch);
      expect(rows).to.have.length(8);
      rows.forEach((r) => expect(r.transcriptHtml).to.match(/^<p>/));
    }

    const [ea, eb] = await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
    expect(ea, a.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    expect(eb, b.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    for (const p of [a, b]) expect(p.logs.some((l) => l.msg === 'crawler stopped')).to.equal(true);
  });

  it('a crawler killed mid-channel loses no stored batch; a restarted one finishes after the lease expires', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'crashtest', count: 50, seed: 200, captionsMix: { manual: 1 } }));
    // A ten-minute pause after each batch: once the first batch is stored the crawler sits in that
    // pause, so the kill lands there on every run, however fast the machine is.
    const first = start({ CRAWL_LEASE_SECONDS: '10', CRAWL_BATCH_WAIT: '600' });
    await store.registerChannel({ channelId: ch.channelId, wanted: 50 }, new Date());
    await until('the first batch stored', () => first.logs.some((l) => l.msg === 'batch stored'), 60_000);
    await first.kill('SIGKILL');
    const before = await stored(ch);
    expect(before.length, 'killed in the pause after the first batch').to.equal(20);
    const leased = (await store.getChannel(ch.channelId))!;
    expect(leased.leaseOwner, 'the dead crawler still holds the lease').not.to.equal(null);

    const second = start({ CRAWL_LEASE_SECONDS: '10' });
    await until('the channel done by the restarted crawler', () => done(ch), 60_000);
    expect(runsStarted(second)).to.deep.equal([ch.channelId]);

    const after = await stored(ch);
    expect(after).to.have.length(50);
    expect(new Set(after.map((r) => r.videoId)).size).to.equal(50);
    after.forEach((r) => {
      expect(r.state).to.equal('ready');
      expect(r.transcriptHtml ?? '').to.match(/^<p>.+<\/p>$/s);
    });
    const byId = new Map(after.map((r) => [r.videoId, r]));
    for (const r of before) expect(byId.get(r.videoId), `${r.videoId} intact`).to.deep.equal(r);

    const exit = await second.kill('SIGTERM');
    expect(exit, second.stderr.join('')).to.deep.equal({ code: 0, signal: null });
  });

  it('SIGTERM mid-channel: the request in flight finishes, the finished videos are stored, the lease released, exit 0', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'termtest', count: 40, seed: 300, captionsMix: { manual: 1 } }));
    fake.scenario.slow(50);
    const p = start();
    await store.registerChannel({ channelId: ch.channelId, wanted: 40 }, new Date());
    await until('a few videos fetched', () => fake.counters.timedtext >= 5, 60_000);
    const exit = await p.kill('SIGTERM');
    expect(exit, p.stderr.join('')).to.deep.equal({ code: 0, signal: null });

    const c = (await store.getChannel(ch.channelId))!;
    expect(c).to.deep.include({ leaseOwner: null, lastOutcome: 'stopped' });
    // Every transcript the crawler received before stopping was stored (none half-done, none lost).
    const rows = await stored(ch);
    expect(rows.length).to.be.at.least(fake.counters.timedtext - 1).and.at.most(fake.counters.timedtext);
    rows.forEach((r) => expect(r.state).to.equal('ready'));
    const ended = p.logs.find((l) => l.msg === 'run ended');
    expect(ended).to.deep.include({ outcome: 'stopped' });
  });

  it('a second signal exits at once', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'impatient', count: 5, seed: 400, captionsMix: { manual: 1 } }));
    fake.scenario.slow(5000);
    const p = start();
    await store.registerChannel({ channelId: ch.channelId, wanted: 5 }, new Date());
    await until('the run started', () => runsStarted(p).length > 0, 30_000);
    p.child.kill('SIGTERM');
    await until('the drain began', () => p.logs.some((l) => l.msg === 'signal received: finishing the request in flight, then exiting'), 10_000);
    p.child.kill('SIGTERM');
    const exit = await p.exited;
    expect(exit.code).to.equal(143);
  });
});
