// A bad setting stops each process at start with one clear line naming what is wrong, exit code 78
// (START_REFUSED_EXIT_CODE: PM2 does not restart it), and nothing half-started (no listening
// socket, no crawl).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { START_REFUSED_EXIT_CODE } from '../../shared/bootstrap';
import { ensureBuilt, startEntry } from '../support/processes';

describe('start-up errors', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'tf-startup-'));
    writeFileSync(path.join(dir, 'good.yaml'), 'security:\n  api_keys:\n    k-123456:\n      name: local\n      rate_limit: 10\n      enabled: true\n');
    writeFileSync(path.join(dir, 'broken.yaml'), 'security:\n  api_keys:\n    k-123456:\n      name: "my laptop"\n      rate_limit: -5\n      enabled: true\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const base = () => ({
    DATABASE_URL: `sqlite:${path.join(dir, 'x.db')}`,
    SECURITY_CONFIG: path.join(dir, 'good.yaml'),
    PLATFORM_BASE_URL: 'http://127.0.0.1:9',
    PORT: '0',
  });

  const cases: { entry: 'api' | 'crawler'; env: Record<string, string>; line: RegExp }[] = [
    { entry: 'api', env: { PORT: 'eighty' }, line: /PORT: must be a whole number/ },
    { entry: 'crawler', env: { DATABASE_URL: 'redis://localhost:6379' }, line: /DATABASE_URL: must be sqlite:<path>, mongodb/ },
    { entry: 'api', env: { DATABASE_URL: 'postgres://localhost/feeds' }, line: /DATABASE_URL: must be sqlite:<path>, mongodb/ },
    { entry: 'api', env: { SECURITY_CONFIG: '__broken__' }, line: /SECURITY_CONFIG.*my laptop.*rate_limit/ },
    { entry: 'crawler', env: { CRAWL_PROFILE: 'reckless' }, line: /CRAWL_PROFILE: must be one of fast, gentle/ },
  ];

  for (const c of cases) {
    it(`${c.entry} stops on ${JSON.stringify(c.env)} with one line`, async () => {
      const env = { ...base(), ...c.env };
      if (env.SECURITY_CONFIG === '__broken__') env.SECURITY_CONFIG = path.join(dir, 'broken.yaml');
      const p = startEntry(c.entry, env, dir);
      const exit = await p.exited;
      const err = p.stderr.join('').trim();
      expect(exit.code, err).to.equal(START_REFUSED_EXIT_CODE);
      expect(err.split('\n'), err).to.have.length(1);
      expect(err).to.match(c.line);
      expect(err).not.to.contain('k-123456');
      expect(err).not.to.match(/\n\s+at /);
    });
  }
});
