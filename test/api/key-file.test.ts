import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { ConfigError } from '../../shared/config/settings';
import { KeyRing, readKeyFile } from '../../api/key-ring';
import { matchKey } from '../../api/http/keyed';
import { parseSecurityConfig, rateLimitId, sha256, SecurityConfigError, type ApiKey } from '../../shared/config/security';
import { createLogger, silentLogger } from '../../shared/logger';

const opts = { defaultRateLimit: 60 };

function yamlOf(keys: Record<string, string>): string {
  return `security:\n  api_keys:\n${Object.entries(keys)
    .map(([k, body]) => `    ${k}:\n${body.split('\n').map((l) => `      ${l}`).join('\n')}\n`)
    .join('')}`;
}

function parseError(text: string): string {
  try {
    parseSecurityConfig(text, opts);
  } catch (err) {
    expect(err).to.be.instanceOf(SecurityConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be rejected');
}

/** Resolves with the next event of `name`, so tests wait for the reload instead of sleeping. */
function next(ring: KeyRing, name: 'reload' | 'reload-failed'): Promise<unknown> {
  return new Promise((resolve) => ring.once(name, resolve));
}

describe('API key file (config/security.yaml)', () => {
  describe('parsing', () => {
    it('reads the spec structure into keys holding digests, not keys', () => {
      const keys = parseSecurityConfig(yamlOf({ 'alpha-key-123456': 'name: Alpha\nrate_limit: 5\nenabled: true', 'beta-key-1234567': 'name: Beta\nrate_limit: 7\nenabled: false' }), opts);
      expect(keys.map((k) => [k.name, k.rateLimit, k.enabled])).to.deep.equal([['Alpha', 5, true], ['Beta', 7, false]]);
      expect(keys[0]!.digest.equals(sha256('alpha-key-123456'))).to.equal(true);
      expect(keys[0]!.id).to.equal(rateLimitId('alpha-key-123456'));
      expect(JSON.stringify(keys)).not.to.contain('alpha-key-123456');
    });

    it('gives a record without rate_limit the configured default', () => {
      const [key] = parseSecurityConfig(yamlOf({ 'alpha-key-123456': 'name: Alpha\nenabled: true' }), { defaultRateLimit: 17 });
      expect(key!.rateLimit).to.equal(17);
    });

    it('accepts the shipped config/security.yaml', () => {
      const keys = parseSecurityConfig(readFileSync(path.resolve(__dirname, '../../config/security.yaml'), 'utf8'), opts);
      expect(keys).to.have.length.greaterThan(0);
      expect(keys.every((k) => k.enabled && k.rateLimit > 0)).to.equal(true);
    });

    it('accepts an empty key map (every key switched off)', () => {
      expect(parseSecurityConfig('security:\n  api_keys:\n', opts)).to.deep.equal([]);
    });

    it('uses a rate-limit id that differs from the lookup digest and between keys', () => {
      expect(rateLimitId('a-key-12345678')).not.to.equal(sha256('a-key-12345678').toString('hex').slice(0, 32));
      expect(rateLimitId('a-key-12345678')).not.to.equal(rateLimitId('b-key-12345678'));
    });

    const rejected: { why: string; text: string; says: RegExp }[] = [
      { why: 'rate_limit 0', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: 0\nenabled: true' }), says: /key "My Laptop": rate_limit must be a positive whole number/ },
      { why: 'negative rate_limit', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: -5\nenabled: true' }), says: /key "My Laptop": rate_limit/ },
      { why: 'fractional rate_limit', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: 1.5\nenabled: true' }), says: /rate_limit must be a positive whole number/ },
      { why: 'rate_limit as text', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: "60"\nenabled: true' }), says: /rate_limit must be a positive whole number/ },
      { why: 'enabled as text', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: 6\nenabled: "yes"' }), says: /key "My Laptop": enabled must be true or false/ },
      { why: 'enabled missing', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: 6' }), says: /^key "My Laptop": enabled is missing \(every key needs name and enabled: true or false; rate_limit and role may be left out\)$/ },
      { why: 'name missing', text: yamlOf({ 'first-key-0001': 'name: One\nenabled: true', 'secret-key-0001': 'rate_limit: 6\nenabled: true' }), says: /^key #2: name is missing \(every key needs name and enabled/ },
      { why: 'name empty', text: yamlOf({ 'secret-key-0001': 'name: " "\nenabled: true' }), says: /^key #1: name must be a non-empty string$/ },
      { why: 'name a number', text: yamlOf({ 'secret-key-0001': 'name: 12\nenabled: true' }), says: /key #1: name must be a non-empty string/ },
      { why: 'unknown field (typo)', text: yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limt: 6\nenabled: true' }), says: /key "My Laptop": unknown field \(did you mean "rate_limit"\?\)/ },
      { why: 'record not a map', text: 'security:\n  api_keys:\n    secret-key-0001: true\n', says: /key #1: must be a map/ },
      { why: 'short key', text: yamlOf({ 'secret1': 'name: Short\nenabled: true' }), says: /key "Short": the key must be 8 to 256 printable ASCII/ },
      { why: 'key with a space', text: yamlOf({ '"secret key 0001"': 'name: Spacey\nenabled: true' }), says: /key "Spacey": the key must be/ },
      { why: 'missing security', text: 'api_keys: {}\n', says: /top level: unknown field/ },
      { why: 'keys not a map', text: 'security:\n  api_keys:\n    - secret-key-0001\n', says: /"security.api_keys" must be a map/ },
      { why: 'key straight under security', text: 'security:\n  secret-key-0001:\n    name: x\n', says: /"security": unknown field; allowed: api_keys/ },
      { why: 'not YAML', text: 'security:\n  api_keys:\n    secret-key-0001: {name: "x", enabled: true\n', says: /not valid YAML: .* at line \d+, column \d+/ },
      { why: 'duplicate key', text: 'security:\n  api_keys:\n    secret-key-0001: {name: a, enabled: true}\n    secret-key-0001: {name: b, enabled: true}\n', says: /not valid YAML: duplicated mapping key/ },
      { why: 'empty document', text: '', says: /must be a map with a "security" section/ },
    ];
    for (const c of rejected) {
      it(`rejects ${c.why} with a message naming the record, never the key`, () => {
        const message = parseError(c.text);
        expect(message).to.match(c.says);
        expect(message).not.to.contain('secret-key-0001');
        expect(message).not.to.contain('secret1');
        expect(message).not.to.contain('secret key');
      });
    }
  });

  describe('key material never reaches a message (#11 item 6)', () => {
    const leaky: { why: string; text: string; secret: string }[] = [
      { why: 'an unquoted key starting with *', text: 'security:\n  api_keys:\n    *secretalias-0001:\n      name: Star\n      enabled: true\n', secret: 'secretalias' },
      { why: 'an unquoted key starting with !', text: 'security:\n  api_keys:\n    !secret-tag-0001:\n      name: Bang\n      enabled: true\n', secret: 'secret-tag' },
      { why: 'an unknown tag on a value', text: 'security:\n  api_keys:\n    plain-key-0001: !secret-val-0001 {name: x}\n', secret: 'secret-val' },
    ];
    for (const c of leaky) {
      it(`reports ${c.why} by line and column only`, () => {
        const message = parseError(c.text);
        expect(message).to.match(/^not valid YAML: syntax error at line \d+, column \d+$/);
        expect(message).not.to.contain(c.secret);
      });
    }

    const changed: { why: string; key: string; says: RegExp }[] = [
      { why: 'a hex number', key: '0x00000000deadbeef', says: /key "Hex" \(line 3\): the key is read as a number, not as text; put it in quotes/ },
      { why: 'a 20-digit number', key: '12345678901234567890', says: /key "Hex" \(line 3\): the key is read as a number/ },
      { why: 'a float', key: '1234567.5e3', says: /key "Hex" \(line 3\): the key is read as a number/ },
    ];
    for (const c of changed) {
      it(`refuses a key the YAML reads as ${c.why}, naming its label, not the key or what it became`, () => {
        const message = parseError(yamlOf({ [c.key]: 'name: Hex\nenabled: true' }));
        expect(message).to.match(c.says);
        expect(message).not.to.contain(c.key);
        expect(message).not.to.contain('3735928559');
      });
    }

    it('names a refused key by position when it has no usable name', () => {
      expect(parseError(yamlOf({ 'good-key-00001': 'name: Good\nenabled: true', '0x1234567890abcdef': 'enabled: true' }))).to.match(/^key #2 \(line 6\): the key is read as a number/);
    });

    it('accepts the same keys quoted, exactly as written', () => {
      const keys = parseSecurityConfig(yamlOf({ '"0x00000000deadbeef"': 'name: Hex\nenabled: true', "'12345678901234567890'": 'name: Long\nenabled: true' }), opts);
      expect(keys.map((k) => k.name)).to.deep.equal(['Hex', 'Long']);
      expect(keys[0]!.digest.equals(sha256('0x00000000deadbeef'))).to.equal(true);
      expect(keys[1]!.digest.equals(sha256('12345678901234567890'))).to.equal(true);
    });
  });

  describe('loading at start-up', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'tf-security-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('turns a broken file into one ConfigError line naming SECURITY_CONFIG and the key label', () => {
      const file = path.join(dir, 'security.yaml');
      writeFileSync(file, yamlOf({ 'secret-key-0001': 'name: My Laptop\nrate_limit: -5\nenabled: true' }));
      for (const load of [() => KeyRing.open(file, { ...opts, logger: silentLogger() })]) {
        expect(load).to.throw(ConfigError, /^SECURITY_CONFIG .*security\.yaml: key "My Laptop": rate_limit/);
        try {
          load();
        } catch (err) {
          expect((err as Error).message).not.to.contain('\n');
          expect((err as Error).message).not.to.contain('secret-key-0001');
        }
      }
    });

    it('refuses a file over the size cap at start, naming the cap, and reads one under it', () => {
      const file = path.join(dir, 'security.yaml');
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One\nenabled: true' }) + `# ${'x'.repeat(2000)}\n`);
      expect(() => KeyRing.open(file, { ...opts, logger: silentLogger(), maxBytes: 1000 })).to.throw(ConfigError, /SECURITY_CONFIG .*: file is \d+ bytes, more than the 1000 bytes/);
      expect(readKeyFile(file, 4000)).to.contain('first-key-0001');
      expect(() => readKeyFile(file, 1000)).to.throw(SecurityConfigError, /more than the 1000 bytes/);
    });

    it('loads tens of thousands of keys, and finding one reads the index, not every key', () => {
      const file = path.join(dir, 'security.yaml');
      const lines = ['security:', '  api_keys:'];
      for (let i = 0; i < 20_000; i++) lines.push(`    k${String(i).padStart(10, '0')}: {name: n${i}, enabled: true}`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const ring = KeyRing.open(file, { ...opts, logger: silentLogger() });
      try {
        expect(ring.keys).to.have.length(20_000);
        expect(matchKey('k0000019999', ring.keys)?.name).to.equal('n19999');
        // After the index is built, a lookup touches no element of the key list.
        let reads = 0;
        const counted = new Proxy(ring.keys as ApiKey[], { get: (t, p, r) => (typeof p === 'string' && /^\d+$/.test(p) && reads++, Reflect.get(t, p, r)) });
        matchKey('k0000000000', counted);
        reads = 0;
        expect(matchKey('k0000000007', counted)?.name).to.equal('n7');
        expect(matchKey('k0000000007x', counted)).to.equal(null);
        expect(reads).to.equal(0);
      } finally {
        ring.close();
      }
    });

    it('names a missing file', () => {
      expect(() => KeyRing.open(path.join(dir, 'nope.yaml'), { ...opts, logger: silentLogger() })).to.throw(ConfigError, /SECURITY_CONFIG .*nope\.yaml: file does not exist/);
    });
  });

  describe('live reload', () => {
    let dir: string;
    let file: string;
    let ring: KeyRing;
    let logs: string[];

    const names = (keys: readonly ApiKey[]) => keys.map((k) => `${k.name}:${k.enabled}`);

    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'tf-keyring-'));
      file = path.join(dir, 'security.yaml');
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One\nrate_limit: 5\nenabled: true' }));
      logs = [];
      const stream = new Writable({ write: (chunk: Buffer, _enc, cb) => (logs.push(chunk.toString()), cb()) });
      // Fast polling so the fallback path is exercised too; events decide when the test goes on.
      ring = KeyRing.open(file, { ...opts, logger: createLogger({ level: 'debug', format: 'json', stream }), debounceMs: 20, pollMs: 50 });
    });
    afterEach(() => {
      ring.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('applies an edit without restart', async () => {
      const reloaded = next(ring, 'reload');
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One\nrate_limit: 5\nenabled: false', 'second-key-0002': 'name: Two\nenabled: true' }));
      await reloaded;
      expect(names(ring.keys)).to.deep.equal(['One:false', 'Two:true']);
      expect(logs.join('')).to.contain('API keys reloaded');
    });

    it('follows editors that replace the file (write elsewhere, rename over it)', async () => {
      const reloaded = next(ring, 'reload');
      const tmp = path.join(dir, '.security.yaml.swp');
      writeFileSync(tmp, yamlOf({ 'third-key-0003': 'name: Three\nenabled: true' }));
      renameSync(tmp, file);
      await reloaded;
      expect(names(ring.keys)).to.deep.equal(['Three:true']);
      // And it keeps following the new file.
      const again = next(ring, 'reload');
      writeFileSync(file, yamlOf({ 'fourth-key-0004': 'name: Four\nenabled: true' }));
      await again;
      expect(names(ring.keys)).to.deep.equal(['Four:true']);
    });

    it('keeps the last good keys and logs an ERROR (api.auth) on a broken edit, never the key', async () => {
      const failed = next(ring, 'reload-failed');
      writeFileSync(file, yamlOf({ 'secret-key-0009': 'name: Broken One\nrate_limit: zero\nenabled: true' }));
      await failed;
      expect(names(ring.keys)).to.deep.equal(['One:true']);
      const errorLine = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === 'ERROR');
      expect(errorLine).to.include({ category: 'api.auth' });
      expect(String(errorLine!.msg)).to.match(/key "Broken One": rate_limit/);
      expect(logs.join('')).not.to.contain('secret-key-0009');
      expect(logs.join('')).not.to.contain('first-key-0001');

      // A later good edit is picked up again.
      const reloaded = next(ring, 'reload');
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One again\nenabled: true' }));
      await reloaded;
      expect(names(ring.keys)).to.deep.equal(['One again:true']);
    });

    it('logs a reload ERROR for an unquoted * key by line and column, never the key', async () => {
      const failed = next(ring, 'reload-failed');
      writeFileSync(file, 'security:\n  api_keys:\n    *secretalias-0001:\n      name: Star\n      enabled: true\n');
      await failed;
      expect(names(ring.keys)).to.deep.equal(['One:true']);
      const errorLine = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === 'ERROR');
      expect(String(errorLine!.msg)).to.match(/not valid YAML: syntax error at line 3/);
      expect(logs.join('')).not.to.contain('secretalias');
    });

    it('keeps the keys when the file grows past the cap', async () => {
      const failed = next(ring, 'reload-failed');
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One\nenabled: true' }) + `# ${'x'.repeat(1024 * 1024)}\n`);
      expect(((await failed) as Error).message).to.match(/more than the 1048576 bytes/);
      expect(names(ring.keys)).to.deep.equal(['One:true']);
    });

    it('keeps the keys when the file disappears, and takes it back when it returns', async () => {
      const failed = next(ring, 'reload-failed');
      rmSync(file);
      expect(((await failed) as Error).message).to.match(/does not exist/);
      expect(names(ring.keys)).to.deep.equal(['One:true']);
      const reloaded = next(ring, 'reload');
      writeFileSync(file, yamlOf({ 'fifth-key-0005': 'name: Five\nenabled: true' }));
      await reloaded;
      expect(names(ring.keys)).to.deep.equal(['Five:true']);
    });

    it('reload() reports whether anything changed', () => {
      expect(ring.reload()).to.equal(false);
      writeFileSync(file, yamlOf({ 'first-key-0001': 'name: One\nrate_limit: 6\nenabled: true' }));
      expect(ring.reload()).to.equal(true);
      expect(ring.keys[0]!.rateLimit).to.equal(6);
    });
  });
});
