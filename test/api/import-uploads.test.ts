// POST /subscriptions as people send a file, over real HTTP: a multipart form from a real `curl -F`
// (the first file part is the file), the hint a `curl -d @file` body gets (curl strips its line
// breaks), every channel URL form copied from an address bar inside an import (while GET /'s
// channel_url keeps the spec's forms), and a file read as it arrives: refused at its 5,001st entry,
// its first DOCTYPE or its 2 MB while the rest of it has not even been sent, titles cut to length,
// and a large file read in slices with the event loop given back between them.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImportFeed, MAX_IMPORT_CHANNELS, SLICE_CHARS } from '../../api/subscriptions/import-file';
import { MAX_TITLE_LENGTH } from '../../api/subscriptions/parsed-import';
import { checkSync } from 'recheck';
import { PLATFORM_PAGE } from '../../api/subscriptions/channel-refs';
import { ATTRIBUTE, BAD_AMPERSAND, DECLARATION, END_TAG } from '../../api/subscriptions/formats/xml-tokens';
import { KEY, startApi, type TestApi } from './support';

const run = promisify(execFile);
const FIXTURES = path.resolve(__dirname, '../fixtures/subscriptions');
const TAKEOUT_IDS = ['UCBa659QWEk1AI4Tg--mrJ2A', 'UCsXVk37bltHxD1rDPwtNM8Q', 'UC6nSFpj9HTCZ5t-N3Rm3-HA', 'UCHnyfMqiRRG1u-2MsSQLbXA', 'UCYO_jab_esuFRV4b17AJtAw'];
const ID = 'UCBa659QWEk1AI4Tg--mrJ2A';
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
const idOf = (i: number): string => `UC${String(i).padStart(22, '0')}`;
// recheck's defaults stop on the clock (10 s for the whole check, 1 s per fuzzing attack, 250 ms per
// incubation, 100 ms per seeding run) and answer `unknown` when a loaded machine runs out of it. With the
// clocks off only its step limits (characters the VM reads) and its fixed PRNG seed decide, so the verdict
// is the same on any machine at any load.
const MACHINE_SPEED_FREE = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null } as const;

interface Answer {
  status: number;
  body: { error?: string; message?: string; imported?: number; format?: string; channels?: { channel_id?: string; handle?: string; title: string | null }[]; rejected?: unknown[] };
}

/** Posts with the real curl binary; answers the status and the JSON body. */
async function curl(api: TestApi, args: string[]): Promise<Answer> {
  const { stdout } = await run('curl', ['-sS', '--noproxy', '*', '-H', `X-API-Key: ${KEY}`, '-w', '\n%{http_code}', ...args, `${api.base}/subscriptions`]);
  const nl = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(nl + 1)), body: JSON.parse(stdout.slice(0, nl)) as Answer['body'] };
}

/**
 * Sends `first` as the start of a chunked upload and waits for the answer without sending the rest:
 * an answer that comes proves the service stopped reading there. The upload is then cut.
 */
function answerBeforeTheRest(api: TestApi, first: Buffer | string, contentType = 'text/plain'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${api.base}/subscriptions`);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'X-API-Key': KEY, 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Answer['body'] });
      });
    });
    req.on('error', reject);
    req.write(first);
    // Never ended: the rest of the "file" is never sent.
  });
}

describe('subscription uploads as people send them', function () {
  let api: TestApi;
  let dir: string;
  beforeEach(async function () {
    api = await startApi();
    dir = mkdtempSync(path.join(tmpdir(), 'tf-uploads-'));
  });
  afterEach(async function () {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const followed = async (): Promise<string[]> => (await api.store.listSubscriptions(keyIdOf(KEY))).map((s) => s.channelId ?? `@${s.handle}`);
  const file = (name: string, content: string | Buffer): string => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  describe('multipart/form-data (curl -F)', function () {
    it('curl -F file=@subscriptions.csv imports the file part, not the boundary lines', async function () {
      const a = await curl(api, ['-F', `file=@${path.join(FIXTURES, 'takeout-subscriptions.csv')}`]);
      expect(a.status, JSON.stringify(a.body)).to.equal(200);
      expect(a.body).to.deep.include({ imported: 5, format: 'takeout_csv', rejected: [] });
      expect(await followed()).to.have.members(TAKEOUT_IDS);
    });

    it('takes the first file part whatever comes around it (a field before, a second file after)', async function () {
      const second = file('other.txt', 'UCzzzzzzzzzzzzzzzzzzzzzz\n');
      const a = await curl(api, ['-F', 'note=my list', '-F', `list=@${path.join(FIXTURES, 'channels.txt')};type=text/plain`, '-F', `more=@${second}`]);
      expect(a.status, JSON.stringify(a.body)).to.equal(200);
      expect(a.body.format).to.equal('text');
      expect(await followed()).to.not.include('UCzzzzzzzzzzzzzzzzzzzzzz');
      expect(await followed()).to.include('@veritasium');
    });

    it('an OPML and a JSON export through -F are told from their content as a body would be', async function () {
      for (const [name, format] of [['reader-export.opml', 'opml'], ['newpipe-subscriptions.json', 'newpipe_json']] as const) {
        const a = await curl(api, ['-F', `file=@${path.join(FIXTURES, name)}`]);
        expect(a.status, name).to.equal(200);
        expect(a.body.format).to.equal(format);
      }
    });

    it('a form without a file part → 400 saying to send -F file=@…, nothing stored', async function () {
      const a = await curl(api, ['-F', 'file=UCBa659QWEk1AI4Tg--mrJ2A']);
      expect(a.status).to.equal(400);
      expect(a.body.error).to.equal('Formda dosya yok');
      expect(a.body.message).to.contain('-F file=@');
      expect(await followed()).to.deep.equal([]);
    });

    it('the file part obeys the same limits: more than 5,000 entries → 413, over 2 MB → 413', async function () {
      const many = file('many.txt', Array.from({ length: MAX_IMPORT_CHANNELS + 1 }, (_, i) => idOf(i)).join('\n'));
      const a = await curl(api, ['-F', `file=@${many}`]);
      expect([a.status, a.body.error]).to.deep.equal([413, 'Çok fazla kanal']);
      const big = file('big.txt', `# ${'x'.repeat(2 * 1024 * 1024)}\n${ID}\n`);
      const b = await curl(api, ['-F', `file=@${big}`]);
      expect([b.status, b.body.error]).to.deep.equal([413, 'İstek gövdesi çok büyük']);
      expect(await followed()).to.deep.equal([]);
    });

    it('a broken form (no boundary) → 400, not a 5xx', async function () {
      const res = await api.get('/subscriptions', { method: 'POST', body: 'x', headers: { 'Content-Type': 'multipart/form-data' } });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: string }).error).to.equal('Geçersiz multipart gövde');
    });
  });

  describe('curl -d @file (line breaks stripped)', function () {
    it('a Takeout CSV sent with -d → 400 naming --data-binary, nothing stored', async function () {
      const a = await curl(api, ['-d', `@${path.join(FIXTURES, 'takeout-subscriptions.csv')}`]);
      expect(a.status).to.equal(400);
      expect(a.body.error).to.equal('Dosyanın satır sonları silinmiş');
      expect(a.body.message).to.contain('--data-binary');
      expect(await followed()).to.deep.equal([]);
    });

    it('a text list sent with -d → the same hint', async function () {
      const list = file('list.txt', `${TAKEOUT_IDS[0]}\n${TAKEOUT_IDS[1]}\n@veritasium\n`);
      const a = await curl(api, ['-d', `@${list}`]);
      expect([a.status, a.body.error]).to.deep.equal([400, 'Dosyanın satır sonları silinmiş']);
    });

    it('one channel sent with -d still imports, and the same file with --data-binary imports whole', async function () {
      const one = await curl(api, ['-d', ID]);
      expect(one.status).to.equal(200);
      expect(one.body.imported).to.equal(1);
      const whole = await curl(api, ['--data-binary', `@${path.join(FIXTURES, 'takeout-subscriptions.csv')}`]);
      expect(whole.status).to.equal(200);
      expect(whole.body.imported).to.equal(4);
    });
  });

  describe('channel URLs as people copy them, inside imports', function () {
    const forms: [string, string][] = [
      ['https://www.youtube.com/@somename/videos', '@somename'],
      ['https://www.youtube.com/@somename/featured', '@somename'],
      ['https://www.youtube.com/@somename/shorts?view=0', '@somename'],
      ['https://www.youtube.com/@somename/', '@somename'],
      [`https://www.youtube.com/channel/${ID}/videos`, ID],
      [`https://www.youtube.com/channel/${ID}/featured`, ID],
      ['https://www.youtube.com/c/SomeCustomName', '@somecustomname'],
      ['https://www.youtube.com/c/SomeCustomName/videos', '@somecustomname'],
      ['https://www.youtube.com/user/OldUserName', '@oldusername'],
      ['https://www.youtube.com/user/OldUserName/featured', '@oldusername'],
      [`http://www.youtube.com/channel/${ID}`, ID],
      ['http://youtube.com/@somename', '@somename'],
      ['https://m.youtube.com/@somename', '@somename'],
      [`https://m.youtube.com/channel/${ID}/videos`, ID],
      ['youtube.com/@somename/videos', '@somename'],
      ['www.youtube.com/c/SomeCustomName', '@somecustomname'],
      ['HTTPS://WWW.YOUTUBE.COM/@somename/VIDEOS', '@somename'],
    ];
    for (const [url, ref] of forms) {
      it(`${url} → ${ref}`, async function () {
        const a = await curl(api, ['--data-binary', `${url}\n`]);
        expect(a.status, JSON.stringify(a.body)).to.equal(200);
        expect(a.body.rejected).to.deep.equal([]);
        expect(await followed()).to.deep.equal([ref]);
      });
    }

    it('still refused: another host, an id in the wrong case, an unknown tab, a second path segment', async function () {
      const refused = [
        'https://www.example.com/@somename',
        `https://www.youtube.com/channel/${ID.toLowerCase()}`,
        'https://www.youtube.com/@somename/notatab',
        'https://www.youtube.com/@somename/videos/more',
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      ];
      const a = await curl(api, ['--data-binary', refused.join('\n')]);
      expect(a.status).to.equal(200);
      expect(a.body.rejected).to.have.length(refused.length);
      expect(await followed()).to.deep.equal([]);
    });

    it('GET /?channel_url= keeps the spec\'s forms only', async function () {
      for (const u of ['https://www.youtube.com/@somename/videos', 'https://m.youtube.com/@somename', 'http://www.youtube.com/@somename', 'https://www.youtube.com/c/somename']) {
        const res = await api.get(`/?channel_url=${encodeURIComponent(u)}`);
        await res.arrayBuffer();
        expect(res.status, u).to.equal(400);
      }
    });
  });

  describe('read as it arrives', function () {
    it('a text file is refused at its 5,001st entry while the rest has not been sent', async function () {
      const lines = Array.from({ length: MAX_IMPORT_CHANNELS + 1 }, (_, i) => `handle${i}`).join('\n');
      const a = await answerBeforeTheRest(api, `${lines}\n`);
      expect([a.status, a.body.error]).to.deep.equal([413, 'Çok fazla kanal']);
      expect(await followed()).to.deep.equal([]);
    });

    it('an OPML is refused at its 5,001st feed while the rest has not been sent', async function () {
      const outlines = Array.from({ length: MAX_IMPORT_CHANNELS + 1 }, (_, i) => `<outline text="c${i}" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${idOf(i)}"/>`);
      const a = await answerBeforeTheRest(api, `<?xml version="1.0"?>\n<opml version="2.0"><head/><body>\n${outlines.join('\n')}\n`);
      expect([a.status, a.body.error]).to.deep.equal([413, 'Çok fazla kanal']);
    });

    it('a DOCTYPE is refused at once, whatever follows', async function () {
      const a = await answerBeforeTheRest(api, '<?xml version="1.0"?>\n<!DOCTYPE opml [\n');
      expect([a.status, a.body.error]).to.deep.equal([400, 'XML bildirimlerine izin verilmez']);
    });

    it('a CSV with another header is refused at its first line', async function () {
      const a = await answerBeforeTheRest(api, 'Name,Url\r\n');
      expect([a.status, a.body.error]).to.deep.equal([400, 'Geçersiz CSV dosyası']);
    });

    it('a chunked body past 2 MB is refused at the limit, not at its end', async function () {
      const a = await answerBeforeTheRest(api, `# ${'x'.repeat(2 * 1024 * 1024 + 10)}`);
      expect([a.status, a.body.error]).to.deep.equal([413, 'İstek gövdesi çok büyük']);
    });

    it('OPML cut anywhere reads the same: entities, comments, CDATA and attributes across pieces', async function () {
      const opml = readFileSync(path.join(FIXTURES, 'reader-export.opml'));
      const whole = (await curl(api, ['--data-binary', `@${path.join(FIXTURES, 'reader-export.opml')}`])).body;
      await api.store.unfollow(keyIdOf(KEY), TAKEOUT_IDS[3]!, api.now);
      // curl --limit-rate sends it in small pieces; the answer must not change.
      const slow = await curl(api, ['--limit-rate', '2k', '--data-binary', `@${file('r.opml', opml)}`]);
      expect(slow.body.channels).to.deep.equal(whole.channels);
      expect(slow.body.rejected).to.deep.equal(whole.rejected);
    });

    it('titles are cut to a bounded length', async function () {
      const long = 'T'.repeat(2 * 1024 * 1024 - 1000);
      const csv = `Channel Id,Channel Url,Channel Title\n${ID},https://www.youtube.com/channel/${ID},${long}\n`;
      const a = await curl(api, ['--data-binary', `@${file('long.csv', csv)}`]);
      expect(a.status).to.equal(200);
      expect(a.body.channels?.[0]?.title).to.have.length(MAX_TITLE_LENGTH);
      const [sub] = await api.store.listSubscriptions(keyIdOf(KEY));
      expect(sub?.title).to.have.length(MAX_TITLE_LENGTH);
    });

    it('a 2 MB file given at once is read in slices, the event loop given back between them', async function () {
      const pad = 'p'.repeat(300);
      const outlines = Array.from({ length: MAX_IMPORT_CHANNELS }, (_, i) => `<outline text="${pad}" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${idOf(i)}"/>`);
      const body = Buffer.from(`<?xml version="1.0"?>\n<opml version="2.0"><body>\n${outlines.join('\n')}\n</body></opml>`);
      const feed = new ImportFeed();
      let turns = 0;
      let reading = true;
      const turn = (): void => {
        if (!reading) return;
        turns += 1;
        setImmediate(turn);
      };
      setImmediate(turn);
      await feed.push(body);
      const parsed = await feed.end();
      reading = false;
      expect(parsed.entries).to.have.length(MAX_IMPORT_CHANNELS);
      // Other work (a /health answer, another request) ran between every two slices.
      expect(turns).to.be.at.least(Math.floor(body.length / SLICE_CHARS) - 1);
    });
  });

  it('the patterns run over uploaded text are linear (ReDoS checker)', function () {
    // PLATFORM_PAGE's {1,30} repeats send it to the fuzzing checker (about 3 s idle, 35 s beside four
    // busy loops on two cores): generous for the verdict, not a bound on it.
    this.timeout(300_000);
    for (const [name, p] of Object.entries({ PLATFORM_PAGE, ATTRIBUTE, BAD_AMPERSAND, DECLARATION, END_TAG })) {
      expect(checkSync(p.source, p.flags, MACHINE_SPEED_FREE).status, name).to.equal('safe');
    }
  });
});
