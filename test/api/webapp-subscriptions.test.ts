// The web app's subscriptions page (issue 29, item 6) against the real API on port 0 and a real
// SQLite store: the apps' own export samples (the fixtures POST /subscriptions is tested with)
// uploaded through the page's multipart form, answered as a table; the same limits refused in
// words; another site's post, a post without the session's token (or with another session's, or
// with the token after the file) refused before anything is imported; the OPML download by the
// session only; the key shown only in the combined feed's URL fields; and the form in Chromium.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import type { Browser } from 'playwright';
import { sha256 } from '../../shared/config/security';
import { axeClean, CHROMIUM, launchChromium, watch } from './webapp-browser';
import { sessionOf, signIn } from './webapp-support';
import { KEY, ADMIN_KEY, startApi, T0, type TestApi } from './support';

const FIXTURES = path.resolve(__dirname, '../fixtures/subscriptions');
const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));
const TAKEOUT = 'takeout-subscriptions.csv';
const NEWPIPE = 'newpipe-subscriptions.json';

describe('web app /app/subscriptions', function () {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi();
    api.now = T0;
  });
  afterEach(async () => api.close());

  async function session(key = KEY): Promise<{ cookie: string; csrf: string }> {
    const cookie = sessionOf(await signIn(api, key));
    const html = await (await api.get('/app/subscriptions', { key: null, headers: { Cookie: cookie } })).text();
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(html)![1]! };
  }

  /** The form as a browser sends it: the token, then the file (or as `parts` says). */
  function upload(cookie: string, parts: readonly (readonly [string, string | Buffer, string?])[], headers: Record<string, string> = {}): Promise<Response> {
    const form = new FormData();
    for (const [name, value, file] of parts) {
      if (typeof value === 'string' && file === undefined) form.append(name, value);
      else form.append(name, new Blob([typeof value === 'string' ? value : new Uint8Array(value)]), file ?? 'file');
    }
    return api.get('/app/subscriptions', { key: null, method: 'POST', headers: { Cookie: cookie, Origin: api.base, ...headers }, body: form });
  }

  const rows = (html: string): string[][] =>
    [...html.matchAll(/<tr><td>(\d+)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1]!, m[3]!, m[4]!]);
  const followed = async (key = KEY): Promise<number> => (await api.store.listSubscriptions(sha256(key).toString('hex'))).length;

  it('imports a Takeout CSV, then a NewPipe JSON naming the same channels, answering each as a table of imported, already and rejected', async () => {
    const { cookie, csrf } = await session();
    const first = await upload(cookie, [['csrf', csrf], ['file', fixture(TAKEOUT), TAKEOUT]]);
    expect(first.status).to.equal(200);
    const html = await first.text();
    expect(html).to.contain('<table>').and.contain('5 imported, 0 already followed, 0 rejected.');
    expect(rows(html)).to.deep.equal([1, 2, 3, 4, 5].map((n) => [String(n + 1), 'imported', '']));
    expect(html).to.contain('Vsauce, Michael &amp; Kevin (UC6nSFpj9HTCZ5t-N3Rm3-HA)');
    expect(await followed()).to.equal(5);

    const second = await upload(cookie, [['csrf', csrf], ['file', fixture(NEWPIPE), NEWPIPE]]);
    expect(second.status).to.equal(200);
    const again = await second.text();
    expect(rows(again)).to.deep.equal([['1', 'already', ''], ['2', 'already', ''], ['3', 'already', ''], ['4', 'already', ''], ['5', 'rejected', 'a service other than YouTube']]);
    expect(await followed()).to.equal(5);

    // The JSON API gives reasons in Turkish only; the page speaks its reader's language.
    const tr = await (await upload(cookie, [['csrf', csrf], ['file', fixture(NEWPIPE), NEWPIPE]], { 'Accept-Language': 'tr' })).text();
    expect(rows(tr).at(-1)).to.deep.equal(['5', 'reddedildi', 'YouTube dışı bir servis']);
  });

  it('lists what the key follows with a Remove form each for /app/unfollow, and shows the key only in the combined feed URL fields', async () => {
    const { cookie, csrf } = await session();
    await upload(cookie, [['csrf', csrf], ['file', fixture(TAKEOUT), TAKEOUT]]);
    const html = await (await api.get('/app/subscriptions', { key: null, headers: { Cookie: cookie } })).text();
    const forms = [...html.matchAll(/<form method="post" action="\/app\/unfollow">(.*?)<\/form>/g)].map((m) => m[1]!);
    expect(forms).to.have.length(5);
    expect(forms[0]).to.match(new RegExp(`<input type="hidden" name="csrf" value="${csrf}"/><input type="hidden" name="ref" value="UC[\\w-]{22}"/><input type="hidden" name="back" value="/app/subscriptions"/><button type="submit"[^>]*>Remove</button>`));
    expect(html).to.contain('href="/app/subscriptions.opml"');

    const fields = [...html.matchAll(/<input id="feed-(Atom|RSS|JSON Feed)" type="text" readonly value="([^"]+)"[^>]*>/g)].map((m) => m[2]!.replace(/&amp;/g, '&'));
    expect(fields).to.deep.equal(['Atom', 'Rss', 'Json'].map((f) => `${api.base}/subscriptions/feed?format=${f}&api_key=${KEY}`));
    // The fields give feeds that work.
    expect((await api.get(new URL(fields[0]!).pathname + new URL(fields[0]!).search, { key: null })).status).to.equal(200);
    const rest = html.replace(/<input id="feed-[^>]*>/g, '');
    expect(rest).not.to.contain(KEY);
    expect(html.split(KEY)).to.have.length(4);
    expect(await (await api.get('/app/', { key: null, headers: { Cookie: cookie } })).text()).not.to.contain(KEY);
    expect(api.logs.join('\n')).not.to.contain(KEY);
    // The key's text is kept off the key records, so logging or serialising one never shows it.
    expect(JSON.stringify(api.ring.keys) + inspect(api.ring.keys, { depth: 5 })).not.to.contain(KEY);
  });

  it('refuses an oversize file, a binary file and a CSV that is not Takeout\'s in words, importing nothing', async () => {
    const { cookie, csrf } = await session();
    const cases: [Buffer, number, string][] = [
      [Buffer.alloc(2 * 1024 * 1024 + 10, 'a'), 413, 'The file is larger than 2 MB.'],
      [Buffer.from(`${'UCBa659QWEk1AI4Tg--mrJ2A\n'.repeat(5_001)}`), 413, 'The file names more than 5,000 channels'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), 400, 'The file is not UTF-8 text.'],
      [Buffer.from('name,url\nTom,https://example.com\n'), 400, 'The CSV file does not have the Takeout header'],
    ];
    for (const [body, status, words] of cases) {
      const res = await upload(cookie, [['csrf', csrf], ['file', body, 'export.csv']]);
      expect(res.status, words).to.equal(status);
      const html = await res.text();
      expect(html).to.contain('<p class="error" role="alert">').and.contain(words).and.contain('enctype="multipart/form-data"');
    }
    const none = await upload(cookie, [['csrf', csrf]]);
    expect(none.status).to.equal(400);
    expect(await none.text()).to.contain('Choose a file to import.');
    expect(await followed()).to.equal(0);
  });

  it('refuses 403 a form without the token, with another session\'s, with the token after the file, not multipart, or from another site, importing nothing', async () => {
    const mine = await session();
    const theirs = await session(ADMIN_KEY);
    const file = ['file', fixture(TAKEOUT), TAKEOUT] as const;
    const refused = [
      await upload(mine.cookie, [file]),
      await upload(mine.cookie, [['csrf', theirs.csrf], file]),
      await upload(mine.cookie, [file, ['csrf', mine.csrf]]),
      await upload(mine.cookie, [['csrf', mine.csrf], file], { Origin: 'https://evil.example' }),
      await api.get('/app/subscriptions', { key: null, method: 'POST', headers: { Cookie: mine.cookie, 'Content-Type': 'text/csv' }, body: new Uint8Array(fixture(TAKEOUT)) }),
      await api.get('/app/subscriptions', { key: null, method: 'POST', headers: { Cookie: mine.cookie, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `csrf=${mine.csrf}` }),
    ];
    for (const res of refused) {
      expect(res.status).to.equal(403);
      expect(await res.text()).to.contain('This form was refused');
    }
    expect(await followed()).to.equal(0);
    expect(await followed(ADMIN_KEY)).to.equal(0);
    // Without a session the file is not read, whatever the form holds.
    const anonymous = await upload('tf_session=nothing', [['csrf', mine.csrf], file]);
    expect(anonymous.status).to.equal(401);
    expect(await anonymous.text()).to.contain('API key');
  });

  it('serves the OPML download by the session only: it parses and lists the key\'s feeds', async () => {
    const { cookie, csrf } = await session();
    await upload(cookie, [['csrf', csrf], ['file', fixture(TAKEOUT), TAKEOUT]]);
    const res = await api.get('/app/subscriptions.opml', { key: null, headers: { Cookie: cookie } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/x-opml; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="subscriptions.opml"');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await res.text()) as { opml: { body: { outline: { title: string; xmlUrl: string }[] } } };
    const outlines = doc.opml.body.outline;
    expect(outlines).to.have.length(5);
    expect(outlines.map((o) => o.title)).to.include('Veritasium "Science" Channel');
    for (const o of outlines) expect(o.xmlUrl).to.match(new RegExp(`^${api.base}/\\?channel_id=UC[\\w-]{22}&api_key=${KEY}$`));

    const anonymous = await api.get('/app/subscriptions.opml', { key: null });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('content-type')).to.contain('text/html');
    // The key itself opens no app page: /app/ is by session only.
    expect((await api.get(`/app/subscriptions.opml?api_key=${KEY}`, { key: null })).status).to.equal(401);
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) this.skip();
      browser = await launchChromium();
    });
    after(async () => browser?.close());
    this.timeout(60_000);

    it('uploads a Takeout CSV through the form and shows the table, axe clean, no console error or CSP violation, the key in no URL', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems = await watch(page);
      const urls: string[] = [];
      page.on('request', (r) => void urls.push(r.url()));
      await page.goto(`${api.base}/app/`);
      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.getByRole('link', { name: 'Subscriptions' }).click();
      await page.getByRole('heading', { name: 'Import a subscription list' }).waitFor();
      await axeClean(page);
      await page.getByLabel('Subscription file').setInputFiles(path.join(FIXTURES, TAKEOUT));
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByRole('table').first().waitFor();
      expect(await page.getByRole('cell', { name: 'imported', exact: true }).count()).to.equal(5);
      expect(await page.getByRole('button', { name: 'Remove' }).count()).to.equal(5);
      expect(await page.getByLabel('Atom feed URL').inputValue()).to.equal(`${api.base}/subscriptions/feed?format=Atom&api_key=${KEY}`);
      await axeClean(page);
      expect(problems).to.deep.equal([]);
      expect(await page.evaluate('window.violations')).to.deep.equal([]);
      expect(urls.filter((u) => u.includes(KEY))).to.deep.equal([]);
      await context.close();
    });
  });
});


