// `npm run backup` while the service runs: the compiled backup command copies the SQLite file a
// compiled crawler is writing batch after batch into, and the copy is a sound database (its own
// integrity check and ours) holding what had been stored by then. It never overwrites a file and
// sends a MongoDB deployment to MongoDB's own tools.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { Store } from '../../shared/store/types';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { startCrawlerProcess, type CrawlerProcess } from '../crawler/support/crawler-process';
import { ROOT, ensureBuilt, spawnLogged } from '../support/processes';
import { waitFor } from '../support/poll';
import { tempStore, type TempStore } from '../support/temp-store';

const BACKUP = path.join(ROOT, 'dist/shared/cli/backup.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function backup(dir: string, databaseUrl: string, ...args: string[]): Promise<Run> {
  const settings = path.join(dir, 'settings.yaml');
  if (!existsSync(settings)) writeFileSync(settings, '');
  const p = spawnLogged([BACKUP, ...args], { DATABASE_URL: databaseUrl, CONFIG_FILE: settings }, dir);
  const { code } = await p.exited;
  return { code, stdout: p.logs.map((l) => String(l.raw ?? JSON.stringify(l))).join('\n'), stderr: p.stderr.join('') };
}

describe('npm run backup (SQLite)', function () {
  this.timeout(120_000);
  let ts: TempStore;
  let dir: string;
  let fake: FakePlatform;
  let store: Store;
  let databaseUrl: string;
  let crawler: CrawlerProcess | undefined;

  before(() => ensureBuilt());
  beforeEach(async () => {
    ts = await tempStore('tf-backup-', { file: 'live.db' });
    ({ dir, url: databaseUrl, store } = ts);
    fake = await startFakePlatform();
    crawler = undefined;
  });
  afterEach(async () => {
    await crawler?.kill('SIGKILL');
    await fake.close();
    await ts.cleanup();
  });

  it('copies the store consistently while a crawler is writing batches into it, and the copy passes an integrity check', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'backupduringcrawl', count: 100, seed: 77, captionsMix: { manual: 1 } }));
    fake.scenario.slow(20); // batches keep arriving while the backup runs
    crawler = startCrawlerProcess(dir, { DATABASE_URL: databaseUrl, PLATFORM_BASE_URL: fake.url });
    await store.registerChannel({ channelId: ch.channelId, wanted: 100 }, new Date());
    const storedCount = async (): Promise<number> => (await store.getVideos(ch.videos.map((v) => v.videoId))).length;
    await waitFor('a first batch stored', async () => ((await storedCount()) > 0 ? true : undefined), 60_000);

    const target = path.join(dir, 'copy.db');
    const run = await backup(dir, databaseUrl, target);
    const afterBackup = await storedCount();
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/copied \d+ pages .* to .*copy\.db/);
    expect(run.stdout).to.include('integrity check: ok');
    expect(afterBackup, 'the crawl was still going on').to.be.lessThan(100);

    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).to.equal('ok');
      const videos = (copy.prepare('SELECT count(*) AS n FROM videos').get() as { n: number }).n;
      expect(videos, 'the copy holds the batches stored before it').to.be.greaterThan(0);
      expect(videos).to.be.at.most(afterBackup);
      expect(run.stdout).to.include(`videos ${videos}`);
      const channel = copy.prepare('SELECT channel_id FROM channels').all() as Array<{ channel_id: string }>;
      expect(channel.map((c) => c.channel_id)).to.include(ch.channelId);
    } finally {
      copy.close();
    }
  });

  it('refuses to overwrite an existing file and leaves it as it was', async () => {
    const target = path.join(dir, 'exists.db');
    writeFileSync(target, 'precious');
    const run = await backup(dir, databaseUrl, target);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/already exists/);
    expect(readFileSync(target, 'utf8')).to.equal('precious');
  });

  it('answers a usage line without a file, and points a MongoDB deployment at its own tools', async () => {
    const none = await backup(dir, databaseUrl);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.match(/usage: npm run backup -- <new-file\.db>/);
    const mongo = await backup(dir, 'mongodb://127.0.0.1:1/tf', path.join(dir, 'x.db'));
    expect(mongo.code).to.equal(2);
    expect(mongo.stderr).to.match(/mongodump/);
    expect(existsSync(path.join(dir, 'x.db'))).to.equal(false);
  });
});
