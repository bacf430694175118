// Runs the store contract on a real SQLite file in a temp dir, then the cases only a shared file
// has: two OS processes claiming and counting against one database at once.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { MIGRATIONS } from '../../shared/store/sqlite/migrations';
import { storeContract } from './contract';
import { runWorkers } from './run-workers';
import { tempStore } from '../support/temp-store';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tf-store-'));
}

storeContract('sqlite', () => tempStore());

describe('sqlite store specifics', function () {
  let dir: string;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resolves a relative path against rootDir and creates the directory', async function () {
    const store = await openStore('sqlite:data/nested/feed.db', { logger: silentLogger(), rootDir: dir });
    expect(await store.getChannel('UC_none')).to.equal(null);
    await store.close();
    expect(fs.existsSync(path.join(dir, 'data', 'nested', 'feed.db'))).to.equal(true);
  });

  it('rejects an unknown scheme with one line naming DATABASE_URL', async function () {
    let message = '';
    try {
      await openStore('postgres://user:secret@host/db', { logger: silentLogger() });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.match(/^DATABASE_URL .*postgres:/);
    expect(message).not.to.include('secret');
    expect(message).not.to.include('\n');
  });

  it('migrates once, uses WAL, and reopens an existing file', async function () {
    const file = path.join(dir, 'store.db');
    const first = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    await first.registerChannel({ channelId: 'UC_a', wanted: 3 }, new Date(0));
    await first.close();
    const second = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    expect((await second.getChannel('UC_a'))?.wanted).to.equal(3);
    await second.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.prepare('SELECT version FROM schema_version').all()).to.deep.equal([{ version: MIGRATIONS.length }]);
    } finally {
      db.close();
    }
  });

  it('reads the feed and its version through the partial indexes', async function () {
    const file = path.join(dir, 'store.db');
    const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    await store.close();
    const db = new Database(file, { readonly: true });
    const feedEntry = `(state = 'ready' OR (state = 'no_transcript' AND next_attempt_at IS NULL))`;
    const plan = (sql: string): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('UC_a') as { detail: string }[]).map((r) => r.detail).join('; ');
    try {
      const feed = plan(`SELECT * FROM videos WHERE channel_id = ? AND ${feedEntry} ORDER BY published_at DESC, video_id LIMIT 10`);
      expect(feed).to.include('USING INDEX videos_feed').and.not.include('TEMP B-TREE');
      const version = plan(`SELECT fetched_at FROM videos WHERE channel_id = ? AND ${feedEntry} ORDER BY fetched_at DESC LIMIT 1`);
      expect(version).to.include('videos_feed_version').and.not.include('TEMP B-TREE');
    } finally {
      db.close();
    }
  });

  it('finds due retries through the retry index and the window edge from the channel index alone', async function () {
    const file = path.join(dir, 'store.db');
    const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    await store.close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('UC_a') as { detail: string }[]).map((r) => r.detail).join('; ');
    try {
      const due = plan(`SELECT * FROM videos WHERE channel_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= 5
        AND state <> 'ready' AND (published_at >= 1 OR published_at = 0) ORDER BY published_at DESC, video_id`);
      expect(due).to.include('USING INDEX videos_retry');
      const edge = plan('SELECT published_at FROM videos WHERE channel_id = ? ORDER BY published_at DESC LIMIT 1 OFFSET 39');
      expect(edge).to.include('COVERING INDEX videos_channel_published').and.not.include('TEMP B-TREE');
    } finally {
      db.close();
    }
  });

  it('upgrades a version 1 file in place: channels kept, their coverage unknown', async function () {
    const file = path.join(dir, 'store.db');
    const old = new Database(file);
    old.exec(MIGRATIONS[0] as string);
    old.exec('CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version (version) VALUES (1)');
    old.prepare('INSERT INTO channels (channel_id, wanted, due_at, created_at) VALUES (?, ?, ?, ?)').run('UC_a', 40, 0, 0);
    old.close();
    const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    try {
      expect(await store.getChannel('UC_a')).to.deep.include({ wanted: 40, coveredWanted: null });
      expect(await store.videosDueForRetry('UC_a', new Date(), 40)).to.deep.equal([]);
    } finally {
      await store.close();
    }
  });
});

describe('sqlite store across two processes', function () {
  this.timeout(60_000);
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'shared.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function seed(work: (store: Store) => Promise<void>): Promise<void> {
    const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
    try {
      await work(store);
    } finally {
      await store.close();
    }
  }

  it('never hands one due channel to two processes', async function () {
    const total = 2000;
    await seed(async (store) => {
      for (let i = 0; i < total; i++) {
        await store.registerChannel({ channelId: `UC_${String(i).padStart(4, '0')}`, wanted: 1 }, new Date(Date.UTC(2025, 0, 1, 11, 0, 0)));
      }
    });
    const [a, b] = await runWorkers([['claim', `sqlite:${file}`, 'worker-a'], ['claim', `sqlite:${file}`, 'worker-b']]);
    const all = [...a!, ...b!];
    expect(new Set(all).size, 'no channel claimed twice').to.equal(all.length);
    expect(all.length, 'every channel claimed').to.equal(total);
  });

  it('counts rate-limit hits from two processes exactly', async function () {
    await seed(async () => undefined);
    const perWorker = 2000;
    const [a, b] = await runWorkers([['hit', `sqlite:${file}`, 'key-1', String(perWorker)], ['hit', `sqlite:${file}`, 'key-1', String(perWorker)]]);
    const counts = [...a!, ...b!];
    expect(new Set(counts).size, 'every count handed out once').to.equal(2 * perWorker);
    expect(Math.max(...(counts as number[]))).to.equal(2 * perWorker);
  });
});
