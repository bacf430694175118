// Logs for a person (issue 26 item 5): `npm start` on a terminal printed raw JSON lines, the first
// several KB long. On a pseudo-terminal (`script -qc`, as a person's shell gives it) without
// LOG_FORMAT it now prints the readable form `npm run logs:text` gives, the configuration as a short
// `NAME = value` block with secrets masked; piped, it prints the JSON lines, and PM2's log files
// keep JSON either way. No line is without a category (the crawler's lease owner line had none).

import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { jsonLines, pm2Home, type Pm2Home } from '../support/pm2';
import { waitFor } from '../support/poll';
import { REFUSED_PORT, ROOT, ensureBuilt, startEntry } from '../support/processes';
import { tempStore } from '../support/temp-store';

const START = path.join(ROOT, 'dist/shared/cli/start.js');
const PROXY_PASSWORD = 'proxy-secret-pw-26';
/** ANSI colours off, and the terminal's CR LF as LF. */
// eslint-disable-next-line no-control-regex -- the escape character is what starts a colour
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n');

interface Running {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

describe('npm start on a terminal and through a pipe', function () {
  this.timeout(120_000);
  let home: Pm2Home;
  before(() => ensureBuilt());
  beforeEach(() => {
    home = pm2Home({ PORT: '0', PLATFORM_BASE_URL: `http://127.0.0.1:${REFUSED_PORT}`, PLATFORM_PROXY_URLS: `http://user:${PROXY_PASSWORD}@127.0.0.1:${REFUSED_PORT}` });
  });
  afterEach(() => home.kill());

  it('on a pseudo-terminal: the readable form, the configuration as a short block, secrets masked; the log files stay JSON', async () => {
    const tty = run('script', ['-qc', `${JSON.stringify(process.execPath)} ${JSON.stringify(START)}`, '/dev/null'], home.env);
    try {
      await waitFor('both processes started and the API listening', () => {
        const text = plain(tty.out());
        return text.includes('] INFO: api [api] API listening on') && text.includes('] INFO: crawler [crawler.scheduler] crawler started') ? true : undefined;
      }, 90_000, 100);
    } finally {
      // Ctrl-C on the terminal: both processes stop, and so does npm start.
      tty.child.stdin!.write('\x03');
    }
    expect(await tty.exited).to.equal(0);
    const text = plain(tty.out());
    const lines = text.split('\n');

    for (const app of ['api', 'crawler']) {
      const at = lines.findIndex((l) => new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: ${app} \\[${app}\\] ${app} starting with this configuration$`).test(l));
      expect(at, `${app}'s configuration line`).to.be.above(-1);
      const block: string[] = [];
      for (let i = at + 1; lines[i]?.startsWith('    '); i++) block.push(lines[i]!);
      expect(block.slice(0, 5), app).to.deep.equal(['    PORT = 0', '    HOST = 127.0.0.1', `    DATABASE_URL = ${home.env.DATABASE_URL}`, '    SECURITY_CONFIG = config/security.yaml', `    PLATFORM_BASE_URL = http://127.0.0.1:${REFUSED_PORT}`]);
      expect(block, app).to.include(`    PLATFORM_PROXY_URLS = http://***@127.0.0.1:${REFUSED_PORT}/***`);
      expect(block.at(-1), app).to.match(/^ {4}\(\d+ more settings at their defaults; LOG_FORMAT=json prints them all\)$/);
      expect(block.length, `${app}: a short block`).to.be.below(20);
      expect(block.every((l) => / = |^ {4}\(/.test(l))).to.equal(true);
    }
    expect(text).not.to.contain(PROXY_PASSWORD);
    expect(lines.filter((l) => l.startsWith('{')), 'JSON lines on the terminal').to.deep.equal([]);
    expect(lines.filter((l) => /^\[[^\]]+\] [A-Z]+: \S+ \[\] /.test(l)), 'lines without a category').to.deep.equal([]);

    // The log files keep JSON, every line with a category; each line there reads on the terminal
    // exactly as `npm run logs:text` shows it.
    const file = home.log('api.out.log');
    const json = jsonLines(file);
    expect(json.filter((l) => 'raw' in l), 'api.out.log holds JSON lines only').to.deep.equal([]);
    expect(json.filter((l) => typeof l.category !== 'string' || l.category === '')).to.deep.equal([]);
    const listening = file.split('\n').find((l) => l.includes('"msg":"API listening on'))!;
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['logs:text']).to.equal('node dist/shared/cli/log-text.js');
    const asText = execFileSync(process.execPath, [path.join(ROOT, 'dist/shared/cli/log-text.js')], { cwd: ROOT, input: `${listening}\n`, encoding: 'utf8' });
    expect(asText).to.match(/^\[[\d: .-]+\] INFO: api \[api\] API listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).to.contain(asText);
  });

  it('through a pipe: the JSON lines as the processes wrote them', async () => {
    const piped = run(process.execPath, [START], home.env);
    try {
      await waitFor('the API listening', () => (piped.out().includes('"msg":"API listening on') ? true : undefined), 90_000, 100);
    } finally {
      piped.child.kill('SIGINT');
    }
    expect(await piped.exited).to.equal(0);
    const appLines = piped.out().split('\n').filter((l) => l.includes('"process":"api"') || l.includes('"process":"crawler"'));
    expect(appLines.length).to.be.above(3);
    for (const l of appLines) expect(() => JSON.parse(l), l).not.to.throw();
    expect(piped.out()).not.to.contain(PROXY_PASSWORD);
  });
});

describe('every log line has a category', function () {
  this.timeout(60_000);

  it('the crawler started by hand: its lease owner line is under `crawler`, and no line lacks a category', async () => {
    ensureBuilt();
    const ts = await tempStore('tf-categories-', { file: 'feeds.db' });
    const crawler = startEntry('crawler', { DATABASE_URL: ts.url, PLATFORM_BASE_URL: `http://127.0.0.1:${REFUSED_PORT}`, BROWSER_EXECUTABLE_PATH: 'off', CRAWL_POLL_SECONDS: '1' }, ts.dir);
    try {
      await waitFor('crawler started', () => (crawler.logs.some((l) => l.msg === 'crawler started') ? true : undefined), 45_000);
      const owner = crawler.logs.find((l) => String(l.msg).startsWith('this crawler\'s lease owner name holds its pid'));
      expect(owner?.category).to.equal('crawler');
      expect(crawler.logs.filter((l) => typeof l.category !== 'string' || l.category === '')).to.deep.equal([]);
    } finally {
      await crawler.stop('SIGKILL');
      await ts.cleanup();
    }
  });
});
