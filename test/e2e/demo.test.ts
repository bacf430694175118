// `npm run demo` as a newcomer runs it (its script as its own process, the compiled API and crawler,
// the fake platform on loopback): the feed URLs stay the last thing on screen (the processes' lines,
// the start-up configuration among them, go to the log file), and the feeds show what the README
// promises: chapters, Shorts and a live stream only with include=, a Turkish channel, lang=tr
// translated. Ctrl-C stops it with exit code 0.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { demoChannels, demoFeeds } from '../support/demo-channels';
import { ensureBuilt, ROOT } from '../support/processes';
import { waitFor } from '../support/poll';

const KEY = 'dev-local-key-change-me';

interface Entry { id: string; content: string }

function entries(atom: string): Entry[] {
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' }).parse(atom) as { feed: { entry?: { id: string; content: { '#text': string } }[] } };
  return (doc.feed.entry ?? []).map((e) => ({ id: String(e.id), content: e.content['#text'] }));
}

describe('npm run demo', function () {
  this.timeout(180_000);
  let dir: string;
  let demo: ChildProcess | undefined;

  before(() => ensureBuilt());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tf-demo-'));
  });
  afterEach(async () => {
    if (demo && demo.exitCode === null && demo.signalCode === null) {
      const gone = new Promise((r) => demo!.once('exit', r));
      demo.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints its feed URLs last and serves chapters, Shorts and live with include=, a Turkish channel and lang=tr', async () => {
    // As `npm run demo` starts it: one node process with tsx's loader, so SIGINT reaches the demo's
    // own handler (tsx's CLI runs a second process and, when that one does not acknowledge a
    // relayed signal within 30 ms, kills it and exits 130).
    demo = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/demo.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATABASE_URL: `sqlite:${path.join(dir, 'demo.db')}`, LOG_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    demo.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    demo.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exited = new Promise<number | null>((r) => demo!.once('exit', r));
    await waitFor('the URLs', () => (out.includes('Ctrl-C stops.') ? true : undefined), 60_000);
    // PORT=0: the system picked the API's port; the printed URLs name it.
    const port = Number(/http:\/\/localhost:(\d+)\/\?/.exec(out)?.[1]);
    expect(port, out).to.be.greaterThan(0);

    const shown = demoChannels();
    const feeds = demoFeeds(`http://localhost:${port}`, KEY, shown.map((s) => s.channel));
    for (const f of feeds) expect(out, f.label).to.contain(f.url);
    const [demoChannel, turkish] = shown.map((s) => s.channel);
    const feed = async (query: string): Promise<Entry[] | undefined> => {
      const res = await fetch(`http://localhost:${port}/?${query}&api_key=${KEY}`);
      return res.status === 200 ? entries(await res.text()) : undefined;
    };

    const live = demoChannel!.videos.find((v) => v.live === 'stream')!;
    const shorts = new Set(demoChannel!.videos.filter((v) => v.short).map((v) => v.videoId));
    const plain = await waitFor('the demo feed with chapters', async () => {
      const got = await feed('channel=@demo&max_items=100');
      return got && got.length >= 10 && got.some((e) => e.content.includes('<h3>')) ? got : undefined;
    }, 120_000);
    expect(plain.map((e) => e.id), 'no Short and no live stream without include=').not.to.include.members([live.videoId]);
    expect(plain.filter((e) => shorts.has(e.id))).to.deep.equal([]);
    const all = await waitFor('Shorts and the live stream with include=', async () => {
      const got = await feed('channel=@demo&include=shorts,live&max_items=100');
      return got?.some((e) => e.id === live.videoId) && got.some((e) => shorts.has(e.id)) ? got : undefined;
    }, 120_000);
    expect(all.length).to.be.greaterThan(plain.length);

    const translated = await waitFor('lang=tr', async () => {
      const got = await feed('channel=@demo&lang=tr');
      return got?.some((e) => e.content.includes('machine-translated')) ? got : undefined;
    }, 120_000);
    expect(translated.find((e) => e.content.includes('machine-translated'))!.content).to.contain('Turkish (tr)').and.contain('[tr] ');

    const tr = await waitFor('the Turkish channel', () => feed('channel=@turkce'), 120_000);
    expect(tr.map((e) => e.id).sort()).to.deep.equal(turkish!.videos.map((v) => v.videoId).sort());
    for (const e of tr) expect(e.content).to.contain('Transcript: Turkish (tr), manual captions').and.match(/[İıŞşĞğçöü]/);

    // Still nothing after the URLs: the processes' lines are in the log file, the configuration first.
    expect(out.trimEnd().endsWith('Ctrl-C stops.'), out).to.equal(true);
    expect(out).not.to.contain('"level"');
    expect(err, 'nothing on stderr').to.equal('');
    const log = readFileSync(path.join(dir, 'demo.log'), 'utf8');
    expect(log).to.contain('"msg":"api starting with this configuration"').and.contain('"msg":"crawler starting with this configuration"');

    demo.kill('SIGINT');
    expect(await exited).to.equal(0);
  });
});
