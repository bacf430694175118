// A file the process may not read or look at is named as a permission problem, never taken for
// "unchanged": the API key file and the SQLite database file, met by a real process running as an
// unprivileged user (the suite itself often runs as root, for whom permissions stop nothing).

import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/** Runs `code` (CommonJS, requiring the repository's TypeScript through tsx) as user 65534; its stdout. */
function asNobody(code: string): string {
  const r = spawnSync('setpriv', [...NOBODY, process.execPath, '--import', 'tsx', '-e', code], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json') },
  });
  if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}

function canDropPrivileges(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root: cannot start a process as another user';
  try {
    execFileSync('setpriv', [...NOBODY, process.execPath, '-e', '0'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'setpriv cannot start a process as user 65534 here';
  }
}

describe('file permissions are named (real process as an unprivileged user)', function () {
  this.timeout(30_000);
  let dir: string;

  before(function () {
    const why = canDropPrivileges();
    if (why !== null) {
      console.log(`      skipped: ${why}`);
      this.skip();
    }
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-perm-'));
    chmodSync(dir, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an API key file the process may not read is refused as "permission denied", not as missing', () => {
    const file = path.join(dir, 'security.yaml');
    writeFileSync(file, 'api_keys:\n  - key: perm-test-key-0001\n    name: x\n');
    chmodSync(file, 0o600);
    const out = asNobody(`
      const { readKeyFile } = require('./api/key-ring.ts');
      try { readKeyFile(${JSON.stringify(file)}); console.log('read'); } catch (err) { console.log(err.message); }
    `);
    expect(out).to.match(/^cannot be read \(permission denied \(EACCES\): the user 65534 this process runs as may not read it\)$/);
  });

  it('a database file that cannot be looked at is a permission problem, not "unchanged"', () => {
    const hidden = path.join(dir, 'hidden');
    mkdirSync(hidden);
    const file = path.join(hidden, 'x.db');
    writeFileSync(file, 'a');
    const { dev, ino } = statSync(file);
    chmodSync(hidden, 0o700);
    const out = asNobody(`
      const { fileChange } = require('./shared/store/sqlite/file-watch.ts');
      const { fileErrorText } = require('./shared/error-text.ts');
      try { console.log(String(fileChange(${JSON.stringify(file)}, { dev: ${dev}, ino: ${ino} }))); } catch (err) { console.log(fileErrorText(err, 'look at the database file')); }
    `);
    expect(out).to.equal('permission denied (EACCES): the user 65534 this process runs as may not look at the database file');
  });
});
