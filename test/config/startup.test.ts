// Start-up with several bad settings, through the compiled entry points as PM2 starts them: each
// process names every problem at once, one line each, exits 78 (no PM2 restart), and starts nothing
// (no store file).

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { START_REFUSED_EXIT_CODE } from '../../shared/bootstrap';
import { ensureBuilt, startEntry } from '../support/processes';

describe('start-up with several bad settings', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-startup-all-'));
    writeFileSync(path.join(dir, 'settings.yaml'), 'CRAWL_POLL_SECONDS: often\nPROT: 6000\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const entry of ['api', 'crawler'] as const) {
    it(`${entry}: every problem on its own line, exit 78, nothing started`, async () => {
      const db = path.join(dir, 'feeds.db');
      const p = startEntry(entry, {
        CONFIG_FILE: path.join(dir, 'settings.yaml'),
        DATABASE_URL: `sqlite:${db}`,
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        PLATFORM_BASE_URL: 'ftp://user:hunter2@example.com',
      }, dir);
      const exit = await p.exited;
      const lines = p.stderr.join('').trim().split('\n');
      expect(exit.code, lines.join('\n')).to.equal(START_REFUSED_EXIT_CODE);
      expect(lines, lines.join('\n')).to.have.length(5);
      const expected = [/PORT: must be a whole number/, /PLATFORM_BASE_URL: must use http: or https:/, /CRAWL_POLL_SECONDS: must be a whole number/, /LOG_LEVEL: must be one of/, /unknown setting "PROT"/];
      for (const re of expected) expect(lines.filter((l) => re.test(l)), String(re)).to.have.length(1);
      lines.forEach((l) => expect(l).to.match(new RegExp(`^transcript-feed ${entry}: `)));
      expect(lines.join('\n')).not.to.contain('hunter2');
      expect(lines.join('\n')).not.to.match(/\n\s+at /);
      expect(p.logs, 'no log line: the logger was never started').to.deep.equal([]);
      expect(existsSync(db), 'the store was never opened').to.equal(false);
    });
  }
});
