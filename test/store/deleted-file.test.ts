// The SQLite file deleted under running processes: without a check, the API and the
// crawler go on writing to the nameless old file while anything started later uses a new one, and
// the two diverge. Both compiled processes now notice, log one ERROR line and exit with
// LOST_DATABASE_EXIT_CODE, so PM2 restarts them on one file.

import { existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { LOST_DATABASE_EXIT_CODE } from '../../shared/bootstrap';
import { fileChange } from '../../shared/store/sqlite/file-watch';
import { ensureBuilt, listeningPort, startEntry, type Started } from '../support/processes';
import { waitFor } from '../support/poll';

const KEY = 'deleted-file-key-0001';

describe('database file deleted under running processes', function () {
  this.timeout(90_000);
  let dir: string;
  let procs: Started[] = [];

  before(() => ensureBuilt());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-deleted-'));
    writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: ops\n      rate_limit: 1000\n      enabled: true\n`);
    writeFileSync(path.join(dir, 'settings.yaml'), '');
    procs = [];
  });
  afterEach(async () => {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
  });

  it('API and crawler each log an ERROR and exit non-zero; restarted, they share the new file', async () => {
    const db = path.join(dir, 'feeds.db');
    let port = 0;
    const env = {
      CONFIG_FILE: path.join(dir, 'settings.yaml'), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${db}`,
      SECURITY_CONFIG: path.join(dir, 'security.yaml'), PLATFORM_BASE_URL: 'http://127.0.0.1:9', BROWSER_EXECUTABLE_PATH: 'off',
      NODE_APP_INSTANCE: '0',
    };
    const startBoth = async (): Promise<[Started, Started]> => {
      const api = startEntry('api', env, dir);
      const crawler = startEntry('crawler', env, dir);
      procs.push(api, crawler);
      port = await listeningPort(api);
      await waitFor('the crawler up', () => (crawler.logs.some((l) => l.msg === 'crawler started') ? true : undefined));
      return [api, crawler];
    };
    const keyed = () => fetch(`http://127.0.0.1:${port}/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw`, { headers: { 'X-API-Key': KEY } });

    const [api, crawler] = await startBoth();
    expect((await keyed()).status).to.equal(404);

    // What an operator's `rm data/feeds.db*` does.
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    const [apiExit, crawlerExit] = await Promise.all([api.exited, crawler.exited]);
    for (const [p, exit] of [[api, apiExit], [crawler, crawlerExit]] as const) {
      expect(exit, p.stderr.join('')).to.deep.equal({ code: LOST_DATABASE_EXIT_CODE, signal: null });
      const errors = p.logs.filter((l) => l.level === 'ERROR');
      expect(errors, JSON.stringify(p.logs.slice(-3))).to.have.length(1);
      expect(errors[0]).to.deep.include({ category: 'store', reason: 'deleted' });
      expect(String(errors[0]!.msg)).to.match(/database file was deleted/);
      expect(p.stderr.join(''), 'no crash, no stack').not.to.match(/\n\s+at /);
    }

    // As PM2 would: both start again, on one new file, and the API counts into it.
    await startBoth();
    expect(existsSync(db)).to.equal(true);
    const res = await keyed();
    expect(res.status).to.equal(404);
    expect(res.headers.get('x-ratelimit-remaining'), 'a fresh count in the new file').to.equal('999');
  });

  it('tells a deleted file from a replaced one, and an unchanged one from both', () => {
    const file = path.join(dir, 'x.db');
    writeFileSync(file, 'a');
    const opened = statSync(file);
    expect(fileChange(file, opened)).to.equal(null);
    writeFileSync(path.join(dir, 'restored.db'), 'b');
    renameSync(path.join(dir, 'restored.db'), file);
    expect(fileChange(file, opened)).to.equal('replaced by another file');
    rmSync(file);
    expect(fileChange(file, opened)).to.equal('deleted');
  });
});
