// Issue 27's held list, kept: `npm run store:copy` refuses every copy of a store onto itself, however
// the two ends are spelled: the same URL, relative and absolute paths, `./` and `..`, `sqlite:///`,
// a symbolic link to the file or to its folder, a hard link; on MongoDB the same URI and the same
// database with other connection options. The compiled command runs as its own process; each
// refusal is exit status 2 with a line saying why, and the store is exactly as it was (its feeds and
// state read back through the store), with no checkpoint left behind.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { ensureBuilt, ROOT, spawnLogged } from '../support/processes';
import { feedsOf, fillStore, stateOf } from './copy-support';

const CLI = path.join(ROOT, 'dist/shared/cli/store-copy.js');

async function opened<T>(url: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(url, { logger: silentLogger() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** What a reader and the crawler see of the store: every channel's feed, and the state beside it. */
async function snapshot(url: string, channelIds: readonly string[]): Promise<unknown> {
  return opened(url, async (store) => ({ feeds: [...(await feedsOf(store, channelIds)).entries()], state: await stateOf(store, channelIds) }));
}

describe('store:copy refuses every self-copy (issue 27, held)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-self-copy-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the command in `cwd`; answers its exit status and everything it wrote. */
  async function copy(cwd: string, from: string, to: string): Promise<{ code: number | null; text: string }> {
    const run = spawnLogged([CLI, '--from', from, '--to', to], {}, cwd);
    const { code } = await run.exited;
    return { code, text: run.logs.map((l) => String(l.raw ?? JSON.stringify(l))).join('\n') + run.stderr.join('') };
  }

  const checkpoints = (cwd: string): string[] => (fs.existsSync(path.join(cwd, 'data')) ? fs.readdirSync(path.join(cwd, 'data')).filter((f) => f.startsWith('store-copy-')) : []);

  it('SQLite: the same file by eight spellings, links included: exit 2, the store unchanged, no checkpoint', async () => {
    const cwd = path.join(dir, 'sqlite');
    fs.mkdirSync(path.join(cwd, 'sub'), { recursive: true });
    const file = path.join(cwd, 'store.db');
    const channelIds = await opened(`sqlite:${file}`, async (store) => (await fillStore(store, 3, 6)).channelIds);
    fs.symlinkSync(file, path.join(cwd, 'link.db'));
    fs.symlinkSync(cwd, path.join(dir, 'folder-link'));
    // Closed, the store's WAL is folded into the file, so the hard link names the whole store too.
    fs.linkSync(file, path.join(cwd, 'hard.db'));
    const before = await snapshot(`sqlite:${file}`, channelIds);

    const pairs: [string, string][] = [
      ['sqlite:store.db', 'sqlite:store.db'],
      ['sqlite:store.db', 'sqlite:./store.db'],
      ['sqlite:store.db', `sqlite:${file}`],
      [`sqlite:${file}`, `sqlite://${file}`],
      ['sqlite:store.db', 'sqlite:sub/../store.db'],
      ['sqlite:link.db', 'sqlite:store.db'],
      ['sqlite:store.db', `sqlite:${path.join(dir, 'folder-link', 'store.db')}`],
      ['sqlite:hard.db', 'sqlite:store.db'],
    ];
    for (const [from, to] of pairs) {
      const { code, text } = await copy(cwd, from, to);
      expect(code, `${from} → ${to}: ${text}`).to.equal(2);
      expect(text, `${from} → ${to}`).to.match(/name the same store|already holds \d+ \w+ rows/);
      expect(checkpoints(cwd), `${from} → ${to}: a checkpoint left`).to.deep.equal([]);
    }
    expect(await snapshot(`sqlite:${file}`, channelIds), 'the store as it was').to.deep.equal(before);
  });

  it('MongoDB: the same database by the same URI and with other connection options: exit 2, the store unchanged', async () => {
    const cwd = path.join(dir, 'mongo');
    fs.mkdirSync(cwd, { recursive: true });
    const mongo = await mongoTestDatabase();
    try {
      const channelIds = await opened(mongo.url, async (store) => (await fillStore(store, 2, 4)).channelIds);
      const before = await snapshot(mongo.url, channelIds);
      const withOption = (url: string, option: string): string => `${url}${url.includes('?') ? '&' : '?'}${option}`;
      const pairs: [string, string][] = [
        [mongo.url, mongo.url],
        [mongo.url, withOption(mongo.url, 'appName=other')],
        [withOption(mongo.url, 'serverSelectionTimeoutMS=4000'), withOption(mongo.url, 'connectTimeoutMS=4000')],
      ];
      for (const [from, to] of pairs) {
        const { code, text } = await copy(cwd, from, to);
        expect(code, `${from} → ${to}: ${text}`).to.equal(2);
        expect(text).to.match(/name the same store|already holds \d+ \w+ rows/);
        expect(checkpoints(cwd)).to.deep.equal([]);
      }
      expect(await snapshot(mongo.url, channelIds), 'the store as it was').to.deep.equal(before);
    } finally {
      await mongo.drop();
    }
  });
});
