import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, describeConfig, loadConfig, maskSecret } from '../../shared/config/load';
import { RETIRED_SETTINGS, SETTINGS } from '../../shared/config/settings';

describe('configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (env: Record<string, string> = {}) => loadConfig(env, dir);

  it('has the documented defaults', () => {
    const c = load();
    expect(c.port).to.equal(5000);
    expect(c.host).to.equal('0.0.0.0');
    expect(c.databaseUrl).to.equal('sqlite:data/transcript-feed.db');
    expect(c.securityConfig).to.equal('config/security.yaml');
    expect(c.platformBaseUrl).to.equal('https://www.youtube.com');
    expect(c.challengeProxyUrl).to.equal(null);
    expect(c.crawlProfile).to.equal('gentle');
    expect(c.crawlPollSeconds).to.equal(5);
    expect(c.crawlListingInterval).to.deep.equal({ minMs: 1_800_000, maxMs: 86_400_000 });
    expect(c.retiredSet).to.deep.equal([]);
    expect(c.transcriptLanguages).to.deep.equal(['en']);
    expect(c.browserExecutablePath).to.equal(null);
    expect(c.logLevel).to.equal('info');
    expect(c.defaultRateLimit).to.equal(60);
  });

  it('resolves the spec\'s two batch configurations', () => {
    const gentle = load().crawl;
    expect(gentle).to.deep.include({ name: 'gentle', batchSize: 5 });
    expect(gentle.batchWaitMs).to.deep.equal([60000, 90000]);
    expect(gentle.requestWaitMs).to.deep.equal([10000, 20000]);
    expect(gentle.blockedWaitMs).to.deep.equal([30000, 60000]);
    const fast = load({ CRAWL_PROFILE: 'fast' }).crawl;
    expect(fast).to.deep.include({ name: 'fast', batchSize: 20 });
    expect(fast.batchWaitMs).to.deep.equal([2000, 2000]);
    expect(fast.requestWaitMs).to.deep.equal([0, 0]);
  });

  it('overrides single profile values', () => {
    const c = load({ CRAWL_PROFILE: 'fast', CRAWL_BATCH_SIZE: '7', CRAWL_BATCH_WAIT: '0', CRAWL_BLOCKED_WAIT: '0.05-0.1' });
    expect(c.crawl.batchSize).to.equal(7);
    expect(c.crawl.batchWaitMs).to.deep.equal([0, 0]);
    expect(c.crawl.blockedWaitMs).to.deep.equal([50, 100]);
    expect(c.crawl.requestWaitMs).to.deep.equal([0, 0]);
  });

  it('reads config/settings.yaml, and the environment wins over it', () => {
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(path.join(dir, 'config/settings.yaml'), 'PORT: 6000\nCRAWL_PROFILE: fast\nTRANSCRIPT_LANGUAGES: de,en\n');
    const c = load({ PORT: '7000' });
    expect(c.port).to.equal(7000);
    expect(c.crawlProfile).to.equal('fast');
    expect(c.transcriptLanguages).to.deep.equal(['de', 'en']);
    expect(c.settingsFile).to.equal(path.join(dir, 'config/settings.yaml'));
  });

  it('is frozen', () => {
    const c = load();
    expect(Object.isFrozen(c)).to.equal(true);
    expect(Object.isFrozen(c.crawl)).to.equal(true);
    expect(() => {
      (c as { port: number }).port = 1;
    }).to.throw(TypeError);
  });

  const bad: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT: must be a whole number/],
    [{ PORT: '70000' }, /^PORT: must be between 0 and 65535/],
    [{ DATABASE_URL: 'postgres://x/y' }, /^DATABASE_URL: must be sqlite:<path>, mongodb/],
    [{ CRAWL_PROFILE: 'turbo' }, /^CRAWL_PROFILE: must be one of fast, gentle/],
    [{ CRAWL_BATCH_WAIT: '90-60' }, /^CRAWL_BATCH_WAIT: range/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL: must be one of/],
    [{ PLATFORM_BASE_URL: 'ftp://x' }, /^PLATFORM_BASE_URL: must use http: or https:/],
    [{ CRAWL_LISTING_INTERVAL: '0-60' }, /^CRAWL_LISTING_INTERVAL: the shortest interval must be at least 1 second/],
    [{ CRAWL_LISTING_INTERVAL: 'hourly' }, /^CRAWL_LISTING_INTERVAL: must be seconds/],
    [{ TRANSCRIPT_LANGUAGES: ' , ' }, /^TRANSCRIPT_LANGUAGES: must be a comma-separated list/],
    // The feed's `lang` rule (shared/transcript/languages.ts): at most two subtags after the language.
    [{ TRANSCRIPT_LANGUAGES: 'en,en-US-x-foo' }, /^TRANSCRIPT_LANGUAGES: must be a comma-separated list/],
  ];
  for (const [env, message] of bad) {
    it(`rejects ${JSON.stringify(env)} with one line naming the variable`, () => {
      let err: unknown;
      try {
        load(env);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as Error).message).to.match(message);
      expect((err as Error).message).not.to.contain('\n');
    });
  }

  const problemsOf = (work: () => unknown): readonly string[] => {
    try {
      work();
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    return expect.fail('expected a ConfigError');
  };

  it('reports every bad variable at once, one line each, from the environment and the file', () => {
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(path.join(dir, 'config/settings.yaml'), 'CRAWL_PROFILE: turbo\nPROT: 6000\nCONFIG_FILE: other.yaml\n');
    const problems = problemsOf(() => load({ PORT: 'eighty', LOG_LEVEL: 'loud', CRAWL_BATCH_WAIT: '90-60' }));
    expect(problems).to.have.length(6);
    expect(problems.join('\n')).to.match(/^PORT: must be a whole number/m);
    expect(problems.join('\n')).to.match(/^LOG_LEVEL: must be one of/m);
    expect(problems.join('\n')).to.match(/^CRAWL_BATCH_WAIT: range/m);
    expect(problems.join('\n')).to.match(/^CRAWL_PROFILE: must be one of fast, gentle/m);
    expect(problems.join('\n')).to.match(/unknown setting "PROT"/);
    expect(problems.join('\n')).to.match(/CONFIG_FILE can only be set in the environment/);
    problems.forEach((p) => expect(p).not.to.contain('\n'));
  });

  it('declares CONFIG_FILE in the settings table: a named file must exist, the default may be missing', () => {
    expect(SETTINGS.configFile).to.deep.include({ name: 'CONFIG_FILE', default: 'config/settings.yaml', envOnly: true });
    expect(load().settingsFile).to.equal(null);
    expect(load().configFile).to.equal('config/settings.yaml');
    writeFileSync(path.join(dir, 'mine.yaml'), 'PORT: 6001\n');
    const c = load({ CONFIG_FILE: 'mine.yaml' });
    expect(c).to.deep.include({ port: 6001, configFile: 'mine.yaml', settingsFile: path.join(dir, 'mine.yaml') });
    expect(problemsOf(() => load({ CONFIG_FILE: 'missing.yaml', PORT: 'x' }))).to.deep.equal([
      'CONFIG_FILE: file missing.yaml does not exist',
      'PORT: must be a whole number, got "x"',
    ]);
  });

  it('masks credentials in every URL setting of the start-up line, lists included', () => {
    const c = load({
      PLATFORM_BASE_URL: 'https://baseuser:basepass@platform.example:8443/root?token=basetoken',
      CHALLENGE_PROXY_URL: 'http://solver:solverpass@solver.example:8191/v1',
      PLATFORM_PROXY_URLS: 'http://p1user:p1pass@proxy1.example:3128, https://p2user:p2pass@proxy2.example:443',
    });
    const shown = describeConfig(c);
    const text = JSON.stringify(shown);
    for (const secret of ['baseuser', 'basepass', 'basetoken', 'solver:', 'solverpass', 'p1user', 'p1pass', 'p2user', 'p2pass']) expect(text).not.to.contain(secret);
    expect(shown.PLATFORM_BASE_URL).to.equal('https://***@platform.example:8443/root?***');
    expect(shown.CHALLENGE_PROXY_URL).to.equal('http://***@solver.example:8191/v1');
    expect(shown.PLATFORM_PROXY_URLS).to.deep.equal(['http://***@proxy1.example:3128/***', 'https://***@proxy2.example:443/***']);
    // A URL without credentials is shown as it is.
    expect(describeConfig(load()).PLATFORM_BASE_URL).to.equal('https://www.youtube.com');
  });

  it('rejects unknown keys in the settings file', () => {
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(path.join(dir, 'config/settings.yaml'), 'PROT: 6000\n');
    expect(() => load()).to.throw(ConfigError, /unknown setting "PROT"/);
  });

  it('accepts a retired setting (file or environment), ignores its value and names it for the start-up warning', () => {
    mkdirSync(path.join(dir, 'config'));
    writeFileSync(path.join(dir, 'config/settings.yaml'), 'CRAWL_REFRESH_CRON: "*/30 * * * *"\n');
    expect(load().retiredSet).to.deep.equal(['CRAWL_REFRESH_CRON']);
    rmSync(path.join(dir, 'config/settings.yaml'));
    expect(load({ CRAWL_REFRESH_CRON: 'anything' }).retiredSet).to.deep.equal(['CRAWL_REFRESH_CRON']);
    expect(RETIRED_SETTINGS.CRAWL_REFRESH_CRON).to.contain('CRAWL_LISTING_INTERVAL');
  });

  it('config/settings.example.yaml lists every setting with its default', () => {
    const example = readFileSync(path.join(__dirname, '../../config/settings.example.yaml'), 'utf8');
    mkdirSync(path.join(dir, 'config'));
    // Uncommented, the example must load (no unknown key) and give exactly the defaults.
    writeFileSync(path.join(dir, 'config/settings.yaml'), example.replace(/^# ([A-Z_]+:)/gm, '$1'));
    const fromExample = load();
    for (const s of Object.values(SETTINGS)) {
      // An environment-only setting is documented without the "# " that would make it a file key.
      expect(example, s.name).to.match(new RegExp(s.envOnly ? `^#   ${s.name}: ${s.default}$` : `^# ${s.name}: `, 'm'));
    }
    const defaults = loadConfig({}, mkdtempSync(path.join(tmpdir(), 'tf-config-')));
    expect({ ...fromExample, settingsFile: null, rootDir: '' }).to.deep.equal({ ...defaults, settingsFile: null, rootDir: '' });
  });

  it('masks secrets in the effective configuration', () => {
    const c = load({ DATABASE_URL: 'mongodb://admin:hunter2@db.example:27017/feeds?authSource=admin' });
    const shown = JSON.stringify(describeConfig(c));
    expect(shown).not.to.contain('hunter2');
    expect(shown).not.to.contain('admin:');
    expect(shown).to.contain('mongodb://***@db.example:27017/***');
    expect(maskSecret('sqlite:data/x.db')).to.equal('sqlite:data/x.db');
  });

  it('masks the whole password when it holds an @ of its own (secret and URL settings alike)', () => {
    const c = load({
      DATABASE_URL: 'mongodb://user:p@ss@db.example/feeds',
      PLATFORM_PROXY_URLS: 'http://u:se@cret@proxy.example:8080,https://v:an@other@proxy2.example:8443',
      CHALLENGE_PROXY_URL: 'http://f:so@lver@fs.example:8191/v1',
    });
    const shown = JSON.stringify(describeConfig(c));
    for (const leak of ['ss@', 'cret', 'other', 'lver', 'user:', 'u:se', 'v:an', 'f:so']) expect(shown).not.to.contain(leak);
    expect(shown).to.contain('mongodb://***@db.example/***');
    expect(shown).to.contain('http://***@proxy.example:8080/***');
    expect(shown).to.contain('https://***@proxy2.example:8443/***');
    expect(shown).to.contain('http://***@fs.example:8191/v1');
  });

  it('reads every secret setting from NAME_FILE instead (one trailing newline dropped), and refuses both or an unreadable file', () => {
    const secrets = Object.values(SETTINGS).filter((s) => s.secret);
    expect(secrets.map((s) => s.name)).to.include.members(['DATABASE_URL', 'PLATFORM_PROXY_URLS']);
    writeFileSync(path.join(dir, 'db-url'), 'mongodb://u:hunter2@db.example:27017/feeds\n');
    writeFileSync(path.join(dir, 'proxies'), 'http://p:w@proxy.example:8080');
    const c = load({ DATABASE_URL_FILE: 'db-url', PLATFORM_PROXY_URLS_FILE: path.join(dir, 'proxies') });
    expect(c.databaseUrl).to.equal('mongodb://u:hunter2@db.example:27017/feeds');
    expect(c.platformProxyUrls).to.deep.equal(['http://p:w@proxy.example:8080']);
    expect(JSON.stringify(describeConfig(c))).not.to.contain('hunter2');
    const problems = (env: Record<string, string>): readonly string[] => {
      try {
        load(env);
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ DATABASE_URL: 'sqlite:x.db', DATABASE_URL_FILE: 'db-url' })).to.deep.equal(['DATABASE_URL_FILE: DATABASE_URL is set too; set one of them']);
    expect(problems({ DATABASE_URL_FILE: 'missing' })).to.deep.equal(['DATABASE_URL_FILE: cannot read missing (ENOENT)']);
    // Not a secret, so no _FILE form: the variable is simply unknown to the loader.
    expect(load({ PORT_FILE: 'db-url' }).port).to.equal(5000);
  });
});
