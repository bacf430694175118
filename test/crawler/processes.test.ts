// The crawler daemon as real processes over one store (a SQLite file; a MongoDB database on the
// emulator or MONGODB_URI) and the fake platform: two crawlers
// share the work without doing anything twice and stop cleanly on SIGTERM; a crawler killed in the
// middle of a channel loses nothing already stored, and restarted as PM2 would (same instance) it
// takes its own lease back and finishes the channel at once, with the default lease length; killed
// inside a batch it has stored only whole batches, and restarted it ends the channel with every
// video once.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import type { Store, VideoRecord } from '../../shared/store/types';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../fake-platform';
import { startCrawlerProcess, runsStarted, type CrawlerProcess } from './support/crawler-process';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { ensureBuilt } from '../support/processes';
import { mainTranscripts, textOf } from '../support/factories';
import { until } from '../support/poll';

/** A fresh store of the backend for one test: its DATABASE_URL, and how to remove it. */
const backends: Record<'sqlite' | 'mongodb', (dir: string) => Promise<{ url: string; drop(): Promise<void> }>> = {
  sqlite: async (dir) => ({ url: `sqlite:${path.join(dir, 'feeds.db')}`, drop: async () => undefined }),
  mongodb: async () => mongoTestDatabase(),
};

for (const backend of ['sqlite', 'mongodb'] as const) describe(`crawler processes on ${backend}`, function () {
  this.timeout(120_000);
  let dir: string;
  let fake: FakePlatform;
  let store: Store;
  let databaseUrl: string;
  let dropStore: () => Promise<void>;
  let procs: CrawlerProcess[];

  before(() => ensureBuilt());
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-crawler-proc-'));
    ({ url: databaseUrl, drop: dropStore } = await backends[backend](dir));
    store = await openStore(databaseUrl, { logger: silentLogger(), rootDir: dir });
    fake = await startFakePlatform();
    procs = [];
  });
  afterEach(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await fake.close();
    await store.close();
    await dropStore();
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
      const texts = await mainTranscripts(store, rows.map((r) => r.videoId));
      rows.forEach((r) => expect(textOf(texts.get(r.videoId)), r.videoId).not.to.equal(''));
    }

    // What the operator sees: each run in the history, each crawler's heartbeat.
    for (const ch of channels) expect((await store.listRuns(ch.channelId, 5)).map((r) => [r.outcome, r.stored])).to.deep.equal([['ok', 8]]);
    const beats = await store.listHeartbeats();
    expect(beats).to.have.length(2);
    expect(beats.every((h) => h.state !== 'stopped' && h.budgetPerHour > 0)).to.equal(true);

    const [ea, eb] = await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
    expect(ea, a.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    expect(eb, b.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    for (const p of [a, b]) expect(p.logs.some((l) => l.msg === 'crawler stopped')).to.equal(true);
    // The last beat says stopped and brings the hourly counts up to date.
    expect((await store.listHeartbeats()).map((h) => h.state)).to.deep.equal(['stopped', 'stopped']);
    const hours = await store.hourlyCounts(new Date(Date.now() - 2 * 3_600_000));
    expect(hours.reduce((n, h) => n + h.videosStored, 0)).to.equal(6 * 8);
    expect(hours.reduce((n, h) => n + h.platformRequests, 0)).to.equal(fake.counters.total);
  });

  it('a crawler killed mid-channel and restarted as PM2 would resumes at once with the default lease, losing no stored batch', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'crashtest', count: 50, seed: 200, captionsMix: { manual: 1 } }));
    // As PM2 starts the crawler app's first instance; the lease is the default (300 s).
    const asPm2 = { NODE_APP_INSTANCE: '0' };
    // A ten-minute pause after each batch: once the first batch is stored the crawler sits in that
    // pause, so the kill lands there on every run, however fast the machine is.
    const first = start({ ...asPm2, CRAWL_BATCH_WAIT: '600' });
    await store.registerChannel({ channelId: ch.channelId, wanted: 50 }, new Date());
    await until('the first batch stored', () => first.logs.some((l) => l.msg === 'batch stored'), 60_000);
    await first.kill('SIGKILL');
    const before = await stored(ch);
    expect(before.length, 'killed in the pause after the first batch').to.equal(20);
    const leased = (await store.getChannel(ch.channelId))!;
    expect(leased.leaseOwner, 'the dead crawler still holds the lease').to.match(/:crawler-0$/);
    const leaseWouldExpire = leased.leaseExpiresAt!.getTime();
    expect(leaseWouldExpire - Date.now(), 'the default lease is minutes long').to.be.greaterThan(60_000);

    const second = start(asPm2);
    await until('the channel done by the restarted crawler', () => done(ch), 60_000);
    // The release is written before the run's summary line, which may still be on its way.
    await until('the run summary logged', () => second.logs.some((l) => l.msg === 'run ended'), 10_000);
    expect(runsStarted(second)).to.deep.equal([ch.channelId]);
    expect(second.logs.find((l) => typeof l.msg === 'string' && l.msg.startsWith('took back the leases'))).to.deep.include({ level: 'WARNING', channels: 1 });
    // Resumed by its own successor long before the dead process's lease would have let anyone in.
    expect((await store.getChannel(ch.channelId))!.lastCrawlAt!.getTime()).to.be.lessThan(leaseWouldExpire);

    const after = await stored(ch);
    expect(after).to.have.length(50);
    expect(new Set(after.map((r) => r.videoId)).size).to.equal(50);
    const texts = await mainTranscripts(store, after.map((r) => r.videoId));
    after.forEach((r) => {
      expect(r.state).to.equal('ready');
      expect(textOf(texts.get(r.videoId)), r.videoId).not.to.equal('');
    });
    const byId = new Map(after.map((r) => [r.videoId, r]));
    for (const r of before) expect(byId.get(r.videoId), `${r.videoId} intact`).to.deep.equal(r);
    const summary = second.logs.find((l) => l.msg === 'run ended');
    expect(summary, 'the summary counts what this run stored').to.deep.include({ outcome: 'ok', stored: 30 });

    const exit = await second.kill('SIGTERM');
    expect(exit, second.stderr.join('')).to.deep.equal({ code: 0, signal: null });
  });

  it('SIGKILL in the middle of a batch: only whole batches were stored; restarted, the channel ends 60/60 with no video twice (issue 27, held)', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'midbatch', count: 60, seed: 400, captionsMix: { manual: 1 } }));
    // Slow answers hold each batch of 20 open for seconds, so the kill lands inside the second one.
    fake.scenario.slow(100);
    const first = start({ NODE_APP_INSTANCE: '0', CRAWL_BATCH_SIZE: '20' });
    await store.registerChannel({ channelId: ch.channelId, wanted: 60 }, new Date());
    await until('five transcripts into the second batch', () => fake.counters.timedtext >= 25, 60_000);
    await first.kill('SIGKILL');
    const fetched = fake.counters.timedtext;
    const before = await stored(ch);
    expect(before.length % 20, `${before.length} stored: a batch is stored whole or not at all`).to.equal(0);
    expect(fetched, 'killed with transcripts fetched but their batch not stored').to.be.greaterThan(before.length);

    fake.scenario.slow(0);
    const second = start({ NODE_APP_INSTANCE: '0', CRAWL_BATCH_SIZE: '20' });
    await until('the channel done by the restarted crawler', () => done(ch), 60_000);
    const after = await stored(ch);
    expect(after).to.have.length(60);
    expect(new Set(after.map((r) => r.videoId)).size, 'no video twice').to.equal(60);
    after.forEach((r) => expect(r.state, r.videoId).to.equal('ready'));
    const byId = new Map(after.map((r) => [r.videoId, r]));
    for (const r of before) expect(byId.get(r.videoId), `${r.videoId} intact`).to.deep.equal(r);
    const texts = await mainTranscripts(store, after.map((r) => r.videoId));
    for (const r of after) expect(textOf(texts.get(r.videoId)), r.videoId).not.to.equal('');
    await second.kill('SIGTERM');
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

  it('a stop that arrives while it is still starting ends the same orderly way: "crawler stopped", exit 0', async () => {
    const p = start();
    // Its first line comes from the start-up, before the scheduler and the shutdown handling exist:
    // PM2 stopping everything because the API could not start sends its signal about then.
    await until('the first log line', () => p.logs.length > 0, 30_000);
    p.child.kill('SIGTERM');
    const exit = await p.exited;
    expect(exit, p.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    expect(p.logs.map((l) => l.msg)).to.include('crawler stopped');
  });

  it('a stop that arrives while its modules are still loading ends the same orderly way too', async () => {
    // Preloaded into the crawler: SIGTERM to itself just before the store's bootstrap module loads,
    // long before main() runs. Without a listener by then, the signal's default action would kill
    // the process there and then, silently.
    const preload = path.join(dir, 'stop-while-loading.cjs');
    writeFileSync(preload, `
      const Module = require('node:module');
      const load = Module._load;
      let sent = false;
      Module._load = function (request, ...rest) {
        if (!sent && /shared\\/bootstrap$/.test(request)) {
          sent = true;
          process.kill(process.pid, 'SIGTERM');
        }
        return load.call(this, request, ...rest);
      };
    `);
    const p = start({ NODE_OPTIONS: `--require ${preload}` });
    const exit = await p.exited;
    expect(exit, p.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    expect(p.logs.map((l) => l.msg)).to.include('crawler stopped');
  });

  it('a second signal during the drain exits at once with 143, the drain left unfinished', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'impatient', count: 5, seed: 400, captionsMix: { manual: 1 } }));
    // Every timed-text request is held far longer than the test can take, and the crawler waits
    // for it as long (both timeouts raised): the drain cannot end before the second signal, so the
    // outcome does not depend on how quickly the test sends it.
    const HELD_MS = 600_000;
    fake.scenario.timedTextStall(HELD_MS, 'all');
    const p = start({ PLATFORM_TIMEOUT_MS: String(HELD_MS), PLATFORM_TIMED_TEXT_TIMEOUT_MS: String(HELD_MS) });
    await store.registerChannel({ channelId: ch.channelId, wanted: 5 }, new Date());
    // A request is in flight, held at the platform: the first signal must wait for it.
    await until('a timed-text request held at the platform', () => fake.counters.timedtext > 0, 30_000);
    p.child.kill('SIGTERM');
    await until('the drain began', () => p.logs.some((l) => l.msg === 'signal received: finishing the request in flight, then exiting'), 10_000);
    p.child.kill('SIGTERM');
    const exit = await p.exited;
    expect(exit, p.stderr.join('')).to.deep.equal({ code: 143, signal: null });
    const msgs = p.logs.map((l) => l.msg);
    expect(msgs).to.include('second signal: exiting at once');
    expect(msgs, 'the drain never finished').not.to.include('crawler stopped');
    expect(fake.counters.timedtext, 'no request after the first signal').to.equal(1);
  });
});
