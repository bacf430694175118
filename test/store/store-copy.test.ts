// `npm run store:copy`: a 10,000-video SQLite store copied to MongoDB (the emulator, or the real
// server MONGODB_URI names) and back with equal counts, equal feeds, equal searches and the same
// work, subscriptions, playlists and push records at each end; the command killed with SIGKILL in
// the middle of a copy to MongoDB and run again finishing it from its checkpoint; an interruption
// between SQLite files; and the refusals an operator can meet.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { copyStore, CopyInterruptedError, CopyRefusedError, DEFAULT_BATCH_SIZE } from '../../shared/store/copy/copy';
import { openCopySide } from '../../shared/store/copy/open-side';
import type { CopySide } from '../../shared/store/copy/sides';
import { columnOf, COPY_TABLES, NOT_COPIED } from '../../shared/store/copy/tables';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { ensureBuilt, ROOT, spawnLogged } from '../support/processes';
import { feedsOf, fillStore, PLAYLIST_IDS, searchesOf, stateOf } from './copy-support';

const CLI = path.join(ROOT, 'dist/shared/cli/store-copy.js');
const CHANNELS = 100;
const PER_CHANNEL = 100;

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

/** A destination whose every page written is checked against the batch bound. */
const bounded = (side: CopySide, batch: number, onPage?: (table: string) => void): CopySide => ({
  ...side,
  write: async (t, rows) => {
    expect(rows.length, `a page of ${t.name}`).to.be.at.most(batch);
    await side.write(t, rows);
    onPage?.(t.name);
  },
  reindex: async (ids) => {
    expect(ids.length, 'a page of the search phase').to.be.at.most(batch);
    await side.reindex(ids);
  },
});

describe('store:copy', function () {
  // In proportion to the work, not a wait: a 10,000-video copy to the emulator (one Python process)
  // and back takes about 34 s idle, and at load average ~20 on two cores a process gets about a
  // tenth of a core, so ~340 s; 300 s was cut there.
  this.timeout(900_000);
  let dir: string;
  let source: string;
  let channelIds: string[];
  let sourceFeeds: Map<string, string>;
  let sourceSearches: string[][];
  let sourceState: Record<string, unknown>;
  let claims = 0;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-copy-'));
    source = `sqlite:${path.join(dir, 'source.db')}`;
    await opened(source, async (store) => {
      const filled = await fillStore(store, CHANNELS, PER_CHANNEL);
      expect(filled.videos).to.equal(10_000);
      channelIds = filled.channelIds;
      sourceFeeds = await feedsOf(store, channelIds);
      sourceSearches = await searchesOf(store);
      sourceState = await stateOf(store, channelIds);
    });
    expect(sourceSearches.every((hits) => hits.length > 0), 'every search finds something').to.equal(true);
    expect((sourceState.keys as Record<string, { feed: unknown[] }>)[Object.keys(sourceState.keys as object)[1]!]!.feed).to.have.length(50);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Everything a reader or the crawler would see of `url`, compared with the source. */
  async function expectSameAsSource(url: string): Promise<void> {
    await opened(url, async (copy) => {
      expect(await feedsOf(copy, channelIds), 'every channel\'s feed, as stored and in Turkish').to.deep.equal(sourceFeeds);
      expect(await searchesOf(copy), 'search entries made again at the destination').to.deep.equal(sourceSearches);
      expect(await stateOf(copy, channelIds), 'work, playlists, push, subscriptions, handles, languages').to.deep.equal(sourceState);
      // The notified video is still waiting for the crawler (each check claims it later than the last one's lease).
      expect(await copy.claimPushedVideo('host:test', 1000, new Date(Date.UTC(2026, 0, 2) + ++claims * 60_000))).to.deep.include({ videoId: 'pushed00001', channelId: channelIds[0] });
    });
  }

  it('copies the 10,000-video SQLite store to MongoDB and back in bounded batches: equal counts, feeds, searches and state at each end', async () => {
    const mongo = await mongoTestDatabase();
    try {
      const lines: string[] = [];
      const there = await withSides(source, mongo.url, (a, b) =>
        copyStore(a, bounded(b, DEFAULT_BATCH_SIZE), { from: source, to: mongo.url, checkpointFile: path.join(dir, 'to-mongo.json'), progress: (l) => lines.push(l) }));
      expect(there.ok, JSON.stringify(there.counts)).to.equal(true);
      expect(there.resumed).to.equal(false);
      expect(there.counts.map((c) => c.table)).to.deep.equal(COPY_TABLES.map((t) => t.name));
      const byTable = Object.fromEntries(there.counts.map((c) => [c.table, c.destination]));
      expect(byTable).to.deep.include({ channels: CHANNELS + PLAYLIST_IDS.length, videos: 10_000, handles: CHANNELS, channel_languages: 2 * CHANNELS, playlists: 2, websub: 2, pushed_videos: 1 });
      expect(byTable.transcripts).to.be.greaterThan(10_000);
      expect(byTable.subscriptions).to.equal(CHANNELS + 1 + CHANNELS / 5 + PLAYLIST_IDS.length);
      expect(lines).to.include('videos: 10,000 / 10,000 rows (100%)').and.include('search index: 10,000 / 10,000 videos (100%)');
      expect(new Set(lines).size, 'no line said twice').to.equal(lines.length);
      expect(fs.existsSync(path.join(dir, 'to-mongo.json')), 'the checkpoint goes once the counts agree').to.equal(false);
      await expectSameAsSource(mongo.url);

      const back = `sqlite:${path.join(dir, 'back.db')}`;
      const again = await withSides(mongo.url, back, (a, b) =>
        copyStore(a, bounded(b, DEFAULT_BATCH_SIZE), { from: mongo.url, to: back, checkpointFile: path.join(dir, 'from-mongo.json') }));
      expect(again.ok, JSON.stringify(again.counts)).to.equal(true);
      expect(again.counts).to.deep.equal(there.counts);
      await expectSameAsSource(back);
    } finally {
      await mongo.drop();
    }
  });

  it('killed with SIGKILL in the middle of a copy to MongoDB, the same command finishes it from its checkpoint', async () => {
    ensureBuilt();
    const mongo = await mongoTestDatabase();
    try {
      const cwd = fs.mkdtempSync(path.join(dir, 'cli-'));
      const args = [CLI, '--from', source, '--to', mongo.url, '--batch', '100'];
      const first = spawnLogged(args, {}, cwd);
      // Killed once some videos are written and before they all are: the moment the progress line is
      // read, not at the next poll, however slowly a loaded machine runs the copy.
      await first.line((l) => /^videos: [\d,]+ \/ 10,000 rows \((?!100%)/.test(String(l.raw)));
      await first.stop('SIGKILL');
      expect(await opened(mongo.url, async (s) => (await s.listChannels(null, 1000)).length), 'the channels went first').to.equal(CHANNELS + 2);
      const checkpoints = fs.readdirSync(path.join(cwd, 'data')).filter((f) => /^store-copy-[0-9a-f]{12}\.json$/.test(f));
      expect(checkpoints, 'a checkpoint named for the pair of stores').to.have.length(1);
      const position = JSON.parse(fs.readFileSync(path.join(cwd, 'data', checkpoints[0]!), 'utf8')) as { tables: Record<string, { done: boolean; copied: number }> };
      expect(position.tables.channels!.done).to.equal(true);
      expect(position.tables.videos!.copied).to.be.within(1, 9_999);

      const second = spawnLogged(args, {}, cwd);
      const { code } = await second.exited;
      const out = second.logs.map((l) => String(l.raw)).join('\n');
      expect(code, `${out}\n${second.stderr.join('')}`).to.equal(0);
      expect(out).to.include('resuming the copy').and.include('videos: 10000 in the source, 10000 in the destination').and.include('done: every count matches');
      expect(out, 'the resumed run starts where the first stopped').not.to.match(/^channels: [\d,]+ \/ /m);
      expect(fs.readdirSync(path.join(cwd, 'data')).filter((f) => f.endsWith('.json'))).to.deep.equal([]);
      await expectSameAsSource(mongo.url);
    } finally {
      await mongo.drop();
    }
  });

  it('an interruption between SQLite files (Ctrl-C) keeps the checkpoint; the next run resumes and ends equal', async () => {
    const target = `sqlite:${path.join(dir, 'copy.db')}`;
    const checkpointFile = path.join(dir, 'checkpoint.json');
    const lines: string[] = [];
    const stop = new AbortController();
    let videoPages = 0;
    const interrupted = await withSides(source, target, (a, b) =>
      copyStore(a, bounded(b, 700, (t) => t === 'videos' && ++videoPages === 5 && stop.abort()), { from: source, to: target, batchSize: 700, checkpointFile, progress: (l) => lines.push(l), signal: stop.signal })
        .then(() => null, (err: unknown) => err));
    expect(interrupted).to.be.instanceOf(CopyInterruptedError);
    expect(fs.existsSync(checkpointFile)).to.equal(true);
    expect(lines).to.include(`channels: ${CHANNELS + 2} / ${CHANNELS + 2} rows (100%)`);

    const result = await withSides(source, target, (a, b) => copyStore(a, bounded(b, 700), { from: source, to: target, batchSize: 700, checkpointFile, progress: (l) => lines.push(l) }));
    expect(result.resumed).to.equal(true);
    expect(result.ok, JSON.stringify(result.counts)).to.equal(true);
    expect(lines).to.include('videos: 10,000 / 10,000 rows (100%)');
    expect(fs.existsSync(checkpointFile)).to.equal(false);
    await expectSameAsSource(target);
  });

  it('knows every SQLite table and column: each is copied or named as left behind', () => {
    const db = new Database(path.join(dir, 'source.db'), { readonly: true });
    try {
      const tables = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'search_index_%'").pluck().all();
      const unknown = tables.filter((t) => !COPY_TABLES.some((c) => c.name === t) && !(t in NOT_COPIED));
      expect(unknown, 'add them to COPY_TABLES or NOT_COPIED in shared/store/copy/tables.ts').to.deep.equal([]);
      for (const t of COPY_TABLES) {
        const columns = db.prepare<[], string>(`SELECT name FROM pragma_table_info('${t.name}')`).pluck().all();
        const known = Object.entries(t.fields).filter(([, f]) => typeof f === 'string' || f.sqliteRead === undefined).map(([f]) => columnOf(f));
        expect(columns.sort(), `the columns of ${t.name} (shared/store/copy/tables.ts)`).to.deep.equal(known.sort());
      }
    } finally {
      db.close();
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

  it('the command answers bad arguments with its usage and exit status 2, and never prints a password', async () => {
    ensureBuilt();
    const cwd = fs.mkdtempSync(path.join(dir, 'cli-'));
    const run = (args: string[]) => spawnLogged([CLI, ...args], {}, cwd);
    const text = (r: ReturnType<typeof run>): string => r.logs.map((l) => String(l.raw ?? JSON.stringify(l))).join('\n') + r.stderr.join('');
    const missing = run(['--from', source]);
    expect((await missing.exited).code).to.equal(2);
    expect(text(missing)).to.include('usage: npm run store:copy');
    const unreachable = run(['--from', source, '--to', 'mongodb://user:s3cret@127.0.0.1:1/x?serverSelectionTimeoutMS=300', '--batch', '10']);
    expect((await unreachable.exited).code).to.equal(1);
    expect(text(unreachable)).not.to.include('s3cret');
    const badBatch = run(['--from', source, '--to', 'sqlite:data/x.db', '--batch', '0']);
    expect((await badBatch.exited).code).to.equal(2);
  });
});
