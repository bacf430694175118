// The sample key file a newcomer starts from (issue 26 item 2): it carries a reader key and a
// commented admin key with every field, the README shows the same file, and a key missing a
// required field is named by its label and the field, at start-up and on reload, by a real API
// process (never by the key).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseSecurityConfig } from '../../shared/config/security';
import { startApiProcess } from '../support/api-process';
import { ROOT, startEntry } from '../support/processes';
import { tempStore } from '../support/temp-store';
import { waitFor } from '../support/poll';

const SAMPLE = readFileSync(path.join(ROOT, 'config/security.yaml'), 'utf8');
const opts = { defaultRateLimit: 60 };
/** The commented admin example with its "# " taken off, as the file's comment tells the operator. */
const uncommented = SAMPLE.replace(/^ {4}# {1,3}(?=[a-z]|replace)/gm, (m) => m.replace('# ', ''));
const SECRET = 'sample-test-secret-0001';

describe('the sample key file (config/security.yaml)', function () {
  this.timeout(60_000);

  it('holds a reader key with every field, and a commented admin key that is valid once uncommented', () => {
    const keys = parseSecurityConfig(SAMPLE, opts);
    expect(keys.map((k) => [k.name, k.role, k.enabled, k.rateLimit])).to.deep.equal([['local development', 'reader', true, 60]]);
    const block = SAMPLE.slice(SAMPLE.indexOf('    dev-local-key-change-me:'), SAMPLE.indexOf('    # An admin key'));
    for (const field of ['name', 'rate_limit', 'enabled', 'role']) expect(block, field).to.match(new RegExp(`^ {6}${field}: `, 'm'));

    const withAdmin = parseSecurityConfig(uncommented, opts);
    expect(withAdmin.map((k) => [k.name, k.role, k.enabled, k.rateLimit])).to.deep.equal([['local development', 'reader', true, 60], ['operator', 'admin', true, 60]]);
  });

  it('is the sample the docs show, word for word, and they say which fields are required; the README links it', () => {
    const samples = ['README.md', 'docs/operations.md'].flatMap((doc) => {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      return [...text.matchAll(/([^\n]*)\n\n```yaml\n([\s\S]*?)```/g)].filter((m) => m[2]!.includes('api_keys:')).map((m) => ({ doc, intro: m[1]!, yaml: m[2]! }));
    });
    expect(samples.map((s) => s.doc)).to.include('docs/operations.md');
    // The README keeps the newcomer's pointer: the sample's reader key, and the link to the page that shows the file.
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).to.contain('`config/security.yaml`').and.to.contain('`dev-local-key-change-me`').and.to.contain('](docs/operations.md#api-keys)');
    for (const s of samples) {
      expect(s.yaml, s.doc).to.equal(SAMPLE.slice(SAMPLE.indexOf('security:\n')));
      expect(s.intro, s.doc).to.contain('`name` and `enabled` are required');
    }
  });

  it('a key missing `enabled` stops the API at start-up with one line naming its label and the field', async () => {
    const ts = await tempStore('tf-sample-keys-', { file: 'feeds.db' });
    try {
      const file = path.join(ts.dir, 'security.yaml');
      // The README's admin key as a newcomer once copied it: without `enabled`.
      writeFileSync(file, `security:\n  api_keys:\n    ${SECRET}:\n      name: operator\n      rate_limit: 60\n      role: admin\n`);
      writeFileSync(path.join(ts.dir, 'settings.yaml'), '');
      const proc = startEntry('api', { CONFIG_FILE: path.join(ts.dir, 'settings.yaml'), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: ts.url, SECURITY_CONFIG: file, PLATFORM_BASE_URL: 'http://127.0.0.1:9' }, ts.dir);
      const { code } = await proc.exited;
      expect(code).to.not.equal(0);
      const stderr = proc.stderr.join('');
      expect(stderr).to.contain('key "operator": enabled is missing (every key needs name and enabled');
      expect(stderr + JSON.stringify(proc.logs)).not.to.contain(SECRET);
    } finally {
      await ts.cleanup();
    }
  });

  it('a reload that misses `name` or `enabled` logs an ERROR naming the label (or position) and the field', async () => {
    const api = await startApiProcess({ keys: { 'good-key-for-reload-01': { name: 'good', rate_limit: 60 } } });
    try {
      const file = path.join(api.dir, 'security.yaml');
      const rejected = (n: number) => waitFor(`reload ERROR #${n}`, () => {
        const lines = api.proc.logs.filter((l) => l.level === 'ERROR' && l.category === 'api.auth');
        return lines.length >= n ? String(lines[n - 1]!.msg) : undefined;
      });
      writeFileSync(file, `security:\n  api_keys:\n    ${SECRET}:\n      name: operator\n      role: admin\n`);
      expect(await rejected(1)).to.equal('API key file rejected, keeping the previous keys: key "operator": enabled is missing (every key needs name and enabled: true or false; rate_limit and role may be left out)');
      writeFileSync(file, `security:\n  api_keys:\n    ${SECRET}:\n      enabled: true\n`);
      expect(await rejected(2)).to.equal('API key file rejected, keeping the previous keys: key #1: name is missing (every key needs name and enabled: true or false; rate_limit and role may be left out)');
      // The previous keys stay in force.
      expect((await fetch(`${api.base}/info`, { headers: { 'X-API-Key': 'good-key-for-reload-01' } })).status).to.equal(200);
      expect(JSON.stringify(api.proc.logs) + api.proc.stderr.join('')).not.to.contain(SECRET);
    } finally {
      await api.stop();
    }
  });
});
