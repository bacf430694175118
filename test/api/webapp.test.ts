// The reader's web app (issue 29) against the real API on port 0: sign-in with the key in a POST
// body (never a URL, never a log line), the session cookie's flags, home listing what the key
// follows, sign-out ending the session server-side, a disabled key ending its session, CSRF and
// Origin refusals, the failed sign-in limit, and each page in Chromium under its strict CSP with no
// console error, no CSP violation and no axe-core violation.

import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright';
import { APP_CSP } from '../../api/webapp/security';
import { sha256 } from '../../shared/config/security';
import { startFakeEmbed, type FakeEmbed } from '../support/fake-embed';
import { transcriptRecord } from '../support/factories';
import { axeClean, CHROMIUM, launchChromium, watch } from './webapp-browser';
import { sessionOf, signIn, signInForm } from './webapp-support';
import { CHANNEL, DEFAULT_KEYS, KEY, ADMIN_KEY, NASTY_PARAGRAPHS, NASTY_TITLE, securityYaml, startApi, T0, video, type TestApi } from './support';


describe('web app /app/', function () {
  let api: TestApi;
  let embed: FakeEmbed;
  before(async () => {
    embed = await startFakeEmbed();
  });
  after(async () => embed.close());
  beforeEach(async () => {
    api = await startApi({ playerEmbedUrl: embed.url });
    api.now = T0;
  });
  afterEach(async () => api.close());

  it('shows the sign-in form under the strict headers, and signs a key in with a session cookie holding no key', async () => {
    const form = await api.get('/app/', { key: null });
    expect(form.status).to.equal(200);
    expect(form.headers.get('content-security-policy')).to.equal(APP_CSP);
    expect(form.headers.get('x-frame-options')).to.equal('DENY');
    expect(form.headers.get('referrer-policy')).to.equal('same-origin');
    const html = await form.text();
    expect(html).to.contain('<label for="api-key">API key</label>').and.contain('method="post"').and.not.contain('<script');

    const res = await signIn(api, KEY);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal('/app/');
    const set = res.headers.getSetCookie().find((c) => c.startsWith('tf_session='))!;
    expect(set).to.contain('HttpOnly').and.contain('SameSite=Lax').and.contain('Path=/app').and.not.contain('Secure');
    expect(set).not.to.contain(KEY);

    await api.store.follow(keyIdOf(api, KEY), [{ channelId: CHANNEL, title: NASTY_TITLE }], 'feed', 10, T0);
    const home = await api.get('/app/', { key: null, headers: { Cookie: sessionOf(res) } });
    expect(home.status).to.equal(200);
    const page = await home.text();
    expect(page).to.contain('Sign out').and.contain(`href="/app/channels/${CHANNEL}"`);
    expect(page).to.contain('Tom &amp; Jerry &lt;live>').and.not.contain('<live>');
    expect(page).not.to.contain('/status'); // a reader's navigation has no status link
    expect(api.logs.join('\n')).not.to.contain(KEY);
  });

  it('sets Secure when PUBLIC_BASE_URL is https, and gives admins a link to /status', async () => {
    await api.close();
    api = await startApi({ publicBaseUrl: 'https://feeds.example' });
    const res = await signIn(api, ADMIN_KEY, { Origin: 'https://feeds.example' });
    expect(res.status).to.equal(303);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('tf_session='))).to.contain('Secure');
    const home = await (await api.get('/app/', { key: null, headers: { Cookie: sessionOf(res) } })).text();
    expect(home).to.contain('href="/status"');
  });

  it('refuses a sign-in without its token or from another site, and logs a failed one without its text', async () => {
    const { cookie } = await signInForm(api);
    const noToken = await api.get('/app/sign-in', { key: null, method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie }, body: `api_key=${KEY}` });
    expect(noToken.status).to.equal(403);
    expect(noToken.headers.getSetCookie().some((c) => c.startsWith('tf_session='))).to.equal(false);
    const crossSite = await signIn(api, KEY, { Origin: 'https://evil.example' });
    expect(crossSite.status).to.equal(403);
    expect(crossSite.headers.getSetCookie().some((c) => c.startsWith('tf_session='))).to.equal(false);

    const wrong = await signIn(api, 'not-a-key-but-secret-text');
    expect(wrong.status).to.equal(401);
    expect(await wrong.text()).to.contain('That key is not a valid, enabled key.');
    expect(api.logs.join('\n')).to.contain('webapp_sign_in_failed').and.not.contain('not-a-key-but-secret-text');
  });

  it('limits failed sign-ins to 10 a minute per address, with the wait shown', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(api, `wrong-${i}`)).status).to.equal(401);
    const limited = await signIn(api, KEY);
    expect(limited.status).to.equal(429);
    // The count is the store's minute window (shared by every API process): T0 is one second into it.
    expect(await limited.text()).to.contain('try again in 59 seconds');
    api.now = new Date(T0.getTime() + 60_000);
    expect((await signIn(api, KEY)).status).to.equal(303);
  });

  it('signs out server-side only with the session\'s token, and a disabled key ends its session', async () => {
    const cookie = sessionOf(await signIn(api, KEY));
    const home = await (await api.get('/app/', { key: null, headers: { Cookie: cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(home)![1]!;
    const form = { key: null, method: 'POST', redirect: 'manual' as const };
    const forged = await api.get('/app/sign-out', { ...form, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie }, body: 'csrf=wrong' });
    expect(forged.status).to.equal(403);
    const crossSite = await api.get('/app/sign-out', { ...form, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: 'https://evil.example' }, body: `csrf=${csrf}` });
    expect(crossSite.status).to.equal(403);
    expect(await (await api.get('/app/', { key: null, headers: { Cookie: cookie } })).text()).to.contain('Sign out');
    const out = await api.get('/app/sign-out', { ...form, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: api.base }, body: `csrf=${csrf}` });
    expect(out.status).to.equal(303);
    expect(await (await api.get('/app/', { key: null, headers: { Cookie: cookie } })).text()).to.contain('API key');

    const again = sessionOf(await signIn(api, KEY));
    writeFileSync(api.securityFile, securityYaml({ ...DEFAULT_KEYS, [KEY]: { ...DEFAULT_KEYS[KEY], enabled: false } }));
    await waitFor(async () => (await (await api.get('/app/', { key: null, headers: { Cookie: again } })).text()).includes('API key'));
  });

  /** The test channel followed, named, with one stored video whose title and transcript need escaping. */
  async function fill(): Promise<string> {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: NASTY_TITLE }, T0);
    await api.store.follow(keyIdOf(api, KEY), [{ channelId: CHANNEL, title: NASTY_TITLE }], 'feed', 10, T0);
    const v = video(1, { title: `<b>${NASTY_TITLE}</b>`, durationSeconds: 3723, language: 'en' });
    await api.store.upsertVideos([v], [{ ...transcriptRecord(v, NASTY_PARAGRAPHS), language: 'en' }]);
    return v.videoId;
  }

  it('shows a channel\'s videos and a video\'s transcript, every time a link to the player at that second', async () => {
    const videoId = await fill();
    const cookie = sessionOf(await signIn(api, KEY));
    const asked = await api.get(`/app/channels/${CHANNEL}`, { key: null });
    expect(await asked.text()).to.contain('API key'); // no session: the sign-in form
    const channel = await api.get(`/app/channels/${CHANNEL}`, { key: null, headers: { Cookie: cookie } });
    expect(channel.status).to.equal(200);
    const list = await channel.text();
    expect(list).to.contain(`href="/app/videos/${videoId}"`).and.contain('&lt;b>Tom &amp; Jerry').and.contain('1:02:03').and.contain('stored');
    const page = await (await api.get(`/app/videos/${videoId}`, { key: null, headers: { Cookie: cookie } })).text();
    expect(page).to.contain(`href="https://youtube.com/watch?v=${videoId}&amp;t=65s"`).and.contain('data-seconds="65">1:05</a>');
    // The player beside the transcript, and the page may frame the player's origin, nothing else.
    expect(page).to.contain(`<iframe id="player" src="${embed.url}/${videoId}?enablejsapi=1" title="Video player"`).and.match(/<script src="\/app\/assets\/player\.[0-9a-f]{12}\.js" defer><\/script>/);
    const shown = await api.get(`/app/videos/${videoId}`, { key: null, headers: { Cookie: cookie } });
    expect(shown.headers.get('content-security-policy')).to.equal(`${APP_CSP}; frame-src ${new URL(embed.url).origin}`);
    expect(page).to.contain('5 &lt; 6 &amp; a ]]> b').and.contain('Türkçe: çğıöşü İĞÜŞÖÇ 🎉').and.contain(`href="/app/channels/${CHANNEL}"`);
    const unknown = await api.get('/app/videos/AAAAAAAAAAA', { key: null, headers: { Cookie: cookie } });
    expect(unknown.status).to.equal(404);
    // An id no one registered: a 404 in words (a registered one waiting for its batch: webapp-channel.test.ts).
    const empty = await api.get(`/app/channels/${'UC' + 'x'.repeat(22)}`, { key: null, headers: { Cookie: cookie } });
    expect(empty.status).to.equal(404);
    expect(await empty.text()).to.contain('No channel with this id is known here.');
  });

  it('searches everything stored, marking the hits and linking to the transcript at that second; a refused query gets the refusal in words', async () => {
    const videoId = await fill();
    const cookie = sessionOf(await signIn(api, KEY));
    const res = await api.get(`/app/search?q=${encodeURIComponent('türkçe')}`, { key: null, headers: { Cookie: cookie } });
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.contain(`href="/app/videos/${videoId}#t=65"`).and.contain('<mark>Türkçe</mark>: çğıöşü');
    expect(html).to.contain(`href="${api.base}/search?q=t%C3%BCrk%C3%A7e"`);
    expect(await (await api.get('/app/search?q=nowhere', { key: null, headers: { Cookie: cookie } })).text()).to.contain('Nothing stored matches.');
    const refused = await api.get(`/app/search?q=${'a'.repeat(201)}`, { key: null, headers: { Cookie: cookie } });
    expect(refused.status).to.equal(400);
    expect(await refused.text()).to.contain('role="alert"');
  });

  it('speaks Turkish from Accept-Language, and ?lang= switches', async () => {
    const tr = await (await api.get('/app/', { key: null, headers: { 'Accept-Language': 'tr-TR,tr;q=0.9,en;q=0.5' } })).text();
    expect(tr).to.contain('<html lang="tr">').and.contain('API anahtarı');
    const en = await (await api.get('/app/?lang=en', { key: null, headers: { 'Accept-Language': 'tr' } })).text();
    expect(en).to.contain('<html lang="en">').and.contain('API key');
    // The switch keeps the rest of the page's query (a search, a page, a transcript language).
    const cookie = sessionOf(await signIn(api, KEY));
    const search = await (await api.get('/app/search?q=t%C3%BCrk%C3%A7e&lang=en&subscriptions=1', { key: null, headers: { Cookie: cookie } })).text();
    expect(search).to.contain('href="/app/search?q=t%C3%BCrk%C3%A7e&amp;subscriptions=1&amp;lang=tr"');
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) this.skip();
      browser = await launchChromium();
    });
    after(async () => browser?.close());

    // One test a viewport and scheme: each walk is a whole browser session of its own, and four in
    // one test outgrew any fair budget on a loaded machine.
    this.timeout(60_000);
    const viewports = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 800 }];
    for (const { name, ...viewport } of viewports) {
      for (const colorScheme of ['light', 'dark'] as const) {
        it(`signs in through the form, every page passing axe with no console error or CSP violation, the key in no URL (${name}, ${colorScheme})`, async () => {
          const videoId = await fill();
          const context = await browser.newContext({ viewport, colorScheme });
          const page = await context.newPage();
          const problems = await watch(page);
          const urls: string[] = [];
          page.on('request', (r) => void urls.push(r.url()));
          await page.goto(`${api.base}/app/`);
          await axeClean(page);
          await page.getByLabel('API key').fill(KEY);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('button', { name: 'Sign out' }).waitFor();
          expect(await page.getByRole('link', { name: NASTY_TITLE, exact: true }).getAttribute('href')).to.equal(`/app/channels/${CHANNEL}`);
          await axeClean(page);
          await page.getByRole('link', { name: NASTY_TITLE, exact: true }).click();
          await page.getByRole('heading', { name: 'Videos' }).waitFor();
          await axeClean(page);
          await page.getByRole('link', { name: `<b>${NASTY_TITLE}</b>` }).click();
          await page.getByRole('heading', { name: 'Transcript' }).waitFor();
          expect(await page.getByRole('link', { name: '1:05' }).getAttribute('href')).to.equal(`https://youtube.com/watch?v=${videoId}&t=65s`);
          await axeClean(page);
          // A time link seeks the player beside the transcript (the fake player records the command) and stays on the page.
          const player = page.frameLocator('#player');
          await player.getByText('not seeked').waitFor();
          await page.getByRole('link', { name: '1:05' }).click();
          await player.getByText('seeked to 65').waitFor();
          // It stays on the page, whose URL now names the moment (#t=, to share or reload).
          expect(page.url()).to.equal(`${api.base}/app/videos/${videoId}#t=65`);
          const frame = page.frames().find((f) => f.url().startsWith(`${embed.url}/${videoId}`))!;
          expect(frame.url()).to.contain('#t=65');
          expect(await frame.evaluate('window.commands')).to.deep.equal([
            { origin: api.base, func: 'seekTo', args: [65, true], id: 1, channel: 'widget' }, { origin: api.base, func: 'playVideo', args: [], id: 1, channel: 'widget' },
          ]);
          await page.getByRole('link', { name: 'Search' }).click();
          await page.getByLabel('Search transcripts').fill('türkçe');
          await page.getByRole('button', { name: 'Search' }).click();
          await page.locator('mark').first().waitFor();
          await axeClean(page);
          await page.getByRole('button', { name: 'Sign out' }).click();
          await page.getByLabel('API key').waitFor();
          expect(problems).to.deep.equal([]);
          expect(await page.evaluate('window.violations')).to.deep.equal([]);
          expect(urls.filter((u) => u.includes(KEY))).to.deep.equal([]);
          await context.close();
          expect(api.logs.join('\n')).not.to.contain(KEY);
        });
      }
    }
  });
});

function keyIdOf(api: TestApi, key: string): string {
  const digest = sha256(key).toString('hex');
  return api.ring.keys.find((k) => k.digest.toString('hex') === digest)!.keyId;
}



async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never held');
}
