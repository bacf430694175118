// `npm run store:copy`: a 10,000-video store copied into an empty one with equal counts and equal
// feeds, resumed after an interruption (in process, and after a real SIGKILL of the command), the
// same store to MongoDB (the emulator, or MONGODB_URI's server) and back, and the refusals an
// operator can meet.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { copyStore, CopyInterruptedError, CopyRefusedError } from '../../shared/store/copy/copy';
import { openCopySide } from '../../shared/store/copy/open-side';
import type { CopySide } from '../../shared/store/copy/sides';
import { COPY_TABLES } from '../../shared/store/copy/tables';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { ensureBuilt, ROOT, spawnLogged, waitFor } from '../support/processes';
import { feedsOf, fillStore, KEY_IDS, searchesOf } from './copy-support';

const CLI = path.join(ROOT, 'dist/shared/cli/store-copy.js');

/** Opens both ends, runs `work`, closes them whatever happens. */
async function withSides<T>(from: string, to: string, work: (a: CopySide, b: CopySide) => Promise<T>): Promise<T> {
  const a = await openCopySide(from, { logger: silentLogger() });
  try {
    const b = await openCopySide(to, { logger: silentLogger() });
    try {
      return await work(a, b);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}

async function opened<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(url, { logger: silentLogger() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('store:copy', function () {
  this.timeout(120_000);
  let dir: string;
  let source: string;
  let channelIds: string[];
  let sourceFeeds: Map<string, string>;
  let sourceSearches: string[][];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-copy-'));
    source = `sqlite:${path.join(dir, 'source.db')}`;
    await opened(source, async (store) => {
      const filled = await fillStore(store, 100, 100);
      expect(filled.videos).to.equal(10_000);
      channelIds = filled.channelIds;
      sourceFeeds = await feedsOf(store, channelIds);
      sourceSearches = await searchesOf(store);
      expect(sourceSearches.every((hits) => hits.length > 0), 'every search finds something').to.equal(true);
    });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('copies 10,000 videos in bounded batches, resumes after an interruption, and ends with equal counts and feeds', async () => {
    const target = `sqlite:${path.join(dir, 'copy.db')}`;
    const checkpointFile = path.join(dir, 'checkpoint.json');
    const lines: string[] = [];
    const stop = new AbortController();
    let pages = 0;
    // Stopped in the middle of the videos: the checkpoint holds the position.
    const interrupted = await withSides(source, target, (a, b) => {
      const counting: CopySide = { ...b, write: async (t, rows) => {
        expect(rows.length).to.be.at.most(700);
        await b.write(t, rows);
        if (t.name === 'videos' && ++pages === 5) stop.abort();
      } };
      return copyStore(a, counting, { from: source, to: target, batchSize: 700, checkpointFile, progress: (l) => lines.push(l), signal: stop.signal }).then(() => null, (err: unknown) => err);
    });
    expect(interrupted).to.be.instanceOf(CopyInterruptedError);
    expect(fs.existsSync(checkpointFile)).to.equal(true);
    expect(lines.some((l) => /^channels: 100 \/ 100 rows \(100%\)$/.test(l)), lines.join('\n')).to.equal(true);

    const result = await withSides(source, target, (a, b) => copyStore(a, b, { from: source, to: target, batchSize: 700, checkpointFile, progress: (l) => lines.push(l) }));
    expect(result.resumed).to.equal(true);
    expect(result.ok).to.equal(true);
    expect(result.counts.map((c) => c.table)).to.deep.equal(COPY_TABLES.map((t) => t.name));
    const byTable = Object.fromEntries(result.counts.map((c) => [c.table, c]));
    expect(byTable.videos).to.deep.equal({ table: 'videos', source: 10_000, destination: 10_000 });
    expect(byTable.channels!.destination).to.equal(100);
    expect(byTable.handles!.destination).to.equal(100);
    expect(byTable.channel_languages!.destination).to.equal(200);
    expect(byTable.subscriptions!.destination).to.equal(101 + 20);
    expect(byTable.transcripts!.destination).to.be.greaterThan(9_000);
    expect(lines).to.include('videos: 10,000 / 10,000 rows (100%)');
    expect(fs.existsSync(checkpointFile), 'removed once the counts agree').to.equal(false);

    await opened(target, async (copy) => {
      expect(await feedsOf(copy, channelIds)).to.deep.equal(sourceFeeds);
      expect(await searchesOf(copy), 'search entries made again at the destination').to.deep.equal(sourceSearches);
      // The work queue came along as it was: schedule, wanted counts, handles, languages.
      expect(await copy.getChannel(channelIds[7]!)).to.deep.equal(await opened(source, (s) => s.getChannel(channelIds[7]!)));
      expect(await copy.getHandle('handle7')).to.equal(channelIds[7]);
      expect(await copy.wantedLanguages(channelIds[7]!, 5)).to.have.members(['tr', 'en']);
      expect(await copy.languagesToBackfill(channelIds[7]!, 5)).to.deep.equal(['tr']);
      for (const keyId of KEY_IDS) expect(await copy.listSubscriptions(keyId)).to.deep.equal(await opened(source, (s) => s.listSubscriptions(keyId)));
      expect(await copy.subscriptionFeed(KEY_IDS[1]!, 50)).to.deep.equal(await opened(source, (s) => s.subscriptionFeed(KEY_IDS[1]!, 50)));
    });
  });

  it('copies the 10,000-video SQLite store to MongoDB and back: equal counts and equal feeds at each end', async function () {
    this.timeout(600_000);
    const mongo = await mongoTestDatabase();
    try {
      const back = `sqlite:${path.join(dir, 'back.db')}`;
      const there = await withSides(source, mongo.url, (a, b) => copyStore(a, b, { from: source, to: mongo.url, checkpointFile: path.join(dir, 'to-mongo.json') }));
      expect(there.ok, JSON.stringify(there.counts)).to.equal(true);
      expect(there.counts.find((c) => c.table === 'videos')).to.deep.equal({ table: 'videos', source: 10_000, destination: 10_000 });
      await opened(mongo.url, async (store) => {
        expect(await feedsOf(store, channelIds)).to.deep.equal(sourceFeeds);
        expect(await searchesOf(store)).to.deep.equal(sourceSearches);
        expect(await store.listSubscriptions(KEY_IDS[0]!)).to.deep.equal(await opened(source, (s) => s.listSubscriptions(KEY_IDS[0]!)));
        expect(await store.getChannel(channelIds[3]!)).to.deep.equal(await opened(source, (s) => s.getChannel(channelIds[3]!)));
      });

      const again = await withSides(mongo.url, back, (a, b) => copyStore(a, b, { from: mongo.url, to: back, checkpointFile: path.join(dir, 'from-mongo.json') }));
      expect(again.ok, JSON.stringify(again.counts)).to.equal(true);
      expect(again.counts).to.deep.equal(there.counts);
      await opened(back, async (store) => {
        expect(await feedsOf(store, channelIds)).to.deep.equal(sourceFeeds);
        expect(await searchesOf(store)).to.deep.equal(sourceSearches);
      });
    } finally {
      await mongo.drop();
    }
  });

  it('refuses to fill a store that already holds data, and a checkpoint of another copy', async () => {
    const target = `sqlite:${path.join(dir, 'busy.db')}`;
    await opened(target, (s) => s.putHandle('someone', channelIds[0]!, new Date()));
    const err = await withSides(source, target, (a, b) => copyStore(a, b, { from: source, to: target, checkpointFile: path.join(dir, 'busy.json') }).then(() => null, (e: unknown) => e));
    expect(err).to.be.instanceOf(CopyRefusedError);
    expect((err as Error).message).to.equal('the destination already holds 1 handles rows; store:copy fills an empty store');

    const other = path.join(dir, 'other.json');
    fs.writeFileSync(other, JSON.stringify({ copy: 'someone else', tables: {} }));
    const fresh = `sqlite:${path.join(dir, 'fresh.db')}`;
    const err2 = await withSides(source, fresh, (a, b) => copyStore(a, b, { from: source, to: fresh, checkpointFile: other }).then(() => null, (e: unknown) => e));
    expect(err2).to.be.instanceOf(CopyRefusedError);
  });

  describe('the command', function () {
    before(() => ensureBuilt());

    const run = (args: string[], cwd: string) => spawnLogged([CLI, ...args], {}, cwd);
    const text = (r: ReturnType<typeof run>): string => r.logs.map((l) => String(l.raw ?? JSON.stringify(l))).join('\n');

    it('killed with SIGKILL mid-copy, the same command finishes the copy from its checkpoint', async () => {
      const cwd = fs.mkdtempSync(path.join(dir, 'cli-'));
      const args = ['--from', source, '--to', 'sqlite:data/moved.db', '--batch', '50'];
      const first = run(args, cwd);
      await waitFor('the copy to reach the videos', () => (first.logs.some((l) => /^videos: /.test(String(l.raw))) ? true : undefined), 60_000, 20);
      await first.stop('SIGKILL');
      const checkpoints = fs.readdirSync(path.join(cwd, 'data')).filter((f) => /^store-copy-[0-9a-f]{12}\.json$/.test(f));
      expect(checkpoints, 'a checkpoint named for the pair of stores').to.have.length(1);

      const second = run(args, cwd);
      const { code } = await second.exited;
      expect(code, `${text(second)}\n${second.stderr.join('')}`).to.equal(0);
      expect(text(second)).to.include('resuming the copy').and.include('videos: 10000 in the source, 10000 in the destination').and.include('done: every count matches');
      expect(fs.readdirSync(path.join(cwd, 'data')).filter((f) => f.endsWith('.json'))).to.deep.equal([]);
      await opened(`sqlite:${path.join(cwd, 'data/moved.db')}`, async (copy) => expect(await feedsOf(copy, channelIds)).to.deep.equal(sourceFeeds));
    });

    it('answers bad arguments with its usage and exit status 2, and never prints a password', async () => {
      const cwd = fs.mkdtempSync(path.join(dir, 'cli-'));
      const missing = run(['--from', source], cwd);
      expect((await missing.exited).code).to.equal(2);
      expect(missing.stderr.join('')).to.include('usage: npm run store:copy');
      const unreachable = run(['--from', source, '--to', 'mongodb://user:s3cret@127.0.0.1:1/x?serverSelectionTimeoutMS=300', '--batch', '10'], cwd);
      const { code } = await unreachable.exited;
      expect(code).to.equal(1);
      expect(text(unreachable) + unreachable.stderr.join('')).not.to.include('s3cret');
      const badBatch = run(['--from', source, '--to', 'sqlite:data/x.db', '--batch', '0'], cwd);
      expect((await badBatch.exited).code).to.equal(2);
    });
  });
});
