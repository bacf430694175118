// The web app as a reader meets it (issue 29): the compiled API and crawler as separate OS processes
// on a temp SQLite file, the fake platform on loopback serving the channels, their captions (Turkish,
// with machine translations offered) and the embedded player page that speaks the IFrame API's
// postMessage protocol and records the seeks it is sent (PLAYER_EMBED_URL points at it), and
// Debian's Chromium through Playwright: sign in; add a channel by handle and see its first videos
// arrive; read a transcript; click a time and see the player seek; open #t= links; switch the page's
// language and the transcript's (the crawler fetching the asked translation); search with a Turkish
// query and follow a hit to its second; upload a Takeout CSV and a NewPipe JSON; unfollow; sign out
// and see the old session cookie refused. Then the same pages with JavaScript off. axe-core on every
// page; no console error, CSP violation or key in a URL. The crawler's work is waited for as a
// condition with a bound (a page reloading itself, a poll), never a fixed sleep or a duration.

import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Frame, Page } from 'playwright';
import { makeChannel, startFakePlatform, type FakeCue, type FakePlatform } from '../fake-platform';
import { axeClean, CHROMIUM, launchChromium, watch } from '../api/webapp-browser';
import { waitFor } from '../support/poll';
import { startServicePair, type ServicePair } from '../support/service-pair';

const KEY = 'journey-key-0123456789abcdef';
const FIXTURES = path.resolve(__dirname, '../fixtures/subscriptions');
const TAKEOUT = path.join(FIXTURES, 'takeout-subscriptions.csv');
const NEWPIPE = path.join(FIXTURES, 'newpipe-subscriptions.json');

// The Turkish video: a pause of more than 2 s before each cue, so each is its own paragraph at its
// own second; chapters at 0:00, 1:05 and 3:20 (each at least 10 s long, or the platform shows none).
const TR_TITLE = 'İstanbul’da ılık bir öğleden sonra';
const TR_CUES: FakeCue[] = [
  { start: 1, dur: 4, text: 'Herkese merhaba, kanala tekrar hoş geldiniz.' },
  { start: 30, dur: 5, text: 'Bugün ekşi mayalı ekmeğe bakacağız.' },
  { start: 65, dur: 5, text: "İstanbul'da ılık bir öğleden sonra çekildi." },
  { start: 125, dur: 5, text: 'Şimdi çay ve şeker zamanı.' },
  { start: 200, dur: 4, text: 'İzlediğiniz için teşekkürler, görüşmek üzere.' },
  { start: 230, dur: 4, text: 'Hoşça kalın.' },
];
const TR_DESCRIPTION = 'Bir öğleden sonra.\n\n0:00 Giriş\n1:05 İstanbul\n3:20 Kapanış';

const first = makeChannel({ handle: 'gunluknotlar', title: 'Günlük Notlar', count: 4, seed: 29, captionsMix: { manual: 1 } });
Object.assign(first.videos[0]!, { title: TR_TITLE, captions: 'foreign', language: 'tr', cues: TR_CUES, description: TR_DESCRIPTION });
const second = makeChannel({ handle: 'ikincikanal', title: 'İkinci Kanal', count: 3, seed: 30, captionsMix: { manual: 1 } });
const trVideo = first.videos[0]!.videoId;

describe('end to end: a reader uses the web app in Chromium against the real processes and the fake platform', function () {
  this.timeout(120_000);
  let fake: FakePlatform;
  let pair: ServicePair | undefined;
  let base: string;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let tab: Page;
  let problems: string[];
  const urls: string[] = [];

  before(async function () {
    if (CHROMIUM === null) {
      console.log('    (skipped: no Chromium; install Debian\'s chromium or set BROWSER_EXECUTABLE_PATH)');
      this.skip();
    }
    fake = await startFakePlatform({ channels: [first, second] });
    // Batches of 2 (the first arrives after two videos), and the fake's embed page as the player.
    pair = await startServicePair({
      prefix: 'tf-journey-', key: KEY, keyName: 'journey reader', platformUrl: fake.url,
      env: { PLAYER_EMBED_URL: `${fake.url}/embed`, CRAWL_BATCH_SIZE: '2' },
    });
    base = pair.base;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    tab = await context.newPage();
    problems = await watch(tab);
    tab.on('request', (r) => void urls.push(r.url()));
  });

  afterEach(function () {
    // What the crawler was doing when a step failed: its last lines.
    if (this.currentTest?.state !== 'failed' || pair === undefined) return;
    const tail = pair.crawler.logs.slice(-25).map((l) => `${String(l.time ?? '')} ${String(l.msg ?? l.raw ?? '')} ${JSON.stringify({ ...l, msg: undefined, time: undefined })}`.slice(0, 300));
    console.log(`    crawler, last lines:\n      ${tail.join('\n      ')}`);
  });

  after(async () => {
    await browser?.close();
    await pair?.kill();
    await fake?.close();
  });

  /** The player frame of the page (the fake platform's embed page of `videoId`). */
  const playerOf = (page: Page, videoId: string): Frame => {
    const frame = page.frames().find((f) => f.url().startsWith(`${fake.url}/embed/${videoId}?enablejsapi=1`));
    if (frame === undefined) throw new Error(`no player frame of ${videoId} in ${page.url()}`);
    return frame;
  };
  const sessionCookie = async (ctx: BrowserContext): Promise<string> => {
    const c = (await ctx.cookies(`${base}/app/`)).find((x) => x.name === 'tf_session');
    if (c === undefined) throw new Error('no session cookie');
    return `${c.name}=${c.value}`;
  };
  /** A page as the session's browser would get it, read over HTTP (for polling the crawler's work). */
  const fetchPage = async (ctx: BrowserContext, pathAndQuery: string): Promise<{ status: number; html: string }> => {
    const res = await fetch(`${base}${pathAndQuery}`, { headers: { Cookie: await sessionCookie(ctx) } });
    return { status: res.status, html: await res.text() };
  };

  it('signs in with the API key through the form', async () => {
    await tab.goto(`${base}/app/`);
    await tab.getByLabel('API key').waitFor();
    await axeClean(tab);
    await tab.getByLabel('API key').fill(KEY);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(tab.url()).to.equal(`${base}/app/`);
    expect(await tab.getByText('You follow nothing yet.').count()).to.equal(1);
    await axeClean(tab);
  });

  it('adds a channel by handle and sees its first videos arrive: the page reloads itself until the crawler stored a batch', async () => {
    const box = tab.getByRole('form', { name: 'Add a channel or playlist', exact: true });
    await box.getByLabel('Add a channel or playlist', { exact: true }).fill('@GunlukNotlar');
    await box.getByRole('button', { name: 'Add' }).click();
    await tab.waitForURL(`${base}/app/channels/${first.channelId}`);
    await axeClean(tab); // waiting or stored, whichever the crawler has reached
    await tab.getByRole('link', { name: TR_TITLE, exact: true }).waitFor({ timeout: 90_000 });
    await tab.getByRole('heading', { name: 'Günlük Notlar' }).waitFor();
    expect(await tab.getByText(/ · tr · stored$/).count()).to.equal(1);
    await axeClean(tab);
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await tab.getByRole('link', { name: 'Günlük Notlar', exact: true }).waitFor();
    expect(await tab.getByRole('link', { name: TR_TITLE, exact: true }).count()).to.equal(1);
    await axeClean(tab);
  });

  it('reads a transcript beside the platform\'s player, and a click on a time seeks the player there', async () => {
    await tab.getByRole('link', { name: TR_TITLE, exact: true }).click();
    await tab.waitForURL(`${base}/app/videos/${trVideo}`);
    await tab.getByRole('heading', { name: TR_TITLE, level: 1 }).waitFor();
    expect(await tab.locator('section.transcript').getAttribute('lang')).to.equal('tr');
    expect(await tab.locator('p[data-start="65"]').textContent()).to.contain("İstanbul'da ılık bir öğleden sonra çekildi.");
    expect(await tab.getByRole('navigation', { name: 'Chapters' }).getByRole('link').allTextContents()).to.deep.equal(['0:00 Giriş', '1:05 İstanbul', '3:20 Kapanış']);
    const player = tab.frameLocator('#player');
    await player.getByText('not seeked').waitFor();
    await tab.locator('p[data-start="125"] a.time').click();
    await player.getByText('seeked to 125').waitFor();
    expect(tab.url()).to.equal(`${base}/app/videos/${trVideo}#t=125`);
    await tab.locator('p[data-start="125"][aria-current="true"]').waitFor();
    // What the player was sent, recorded in its frame: the seek and a play, from the app's origin.
    const frame = playerOf(tab, trVideo);
    const commands = (await frame.evaluate('window.commands')) as { origin: string; func: string; args: unknown[] }[];
    expect(commands.map((c) => [c.origin, c.func, c.args])).to.deep.equal([[base, 'seekTo', [125, true]], [base, 'playVideo', []]]);
    expect(await frame.evaluate('window.ignored')).to.deep.equal([]);
    await axeClean(tab);
  });

  it('opens #t= links at that moment (the paragraph marked, the player seeked once it listens), and marks what the player speaks', async () => {
    // A full load (the same address with another hash would only change the hash: below).
    await tab.goto(`${base}/app/`);
    await tab.goto(`${base}/app/videos/${trVideo}#t=200`);
    await tab.locator('p[data-start="200"][aria-current="true"]').waitFor();
    await tab.frameLocator('#player').getByText('seeked to 200').waitFor();
    const frame = playerOf(tab, trVideo);
    expect(((await frame.evaluate('window.commands')) as { func: string; args: unknown[] }[]).map((c) => [c.func, c.args])).to.deep.equal([['seekTo', [200, true]]]);
    // Another #t= in the same page (a link followed, the address edited), in the 1h2m3s form.
    await tab.evaluate("location.hash = '#t=1m5s'");
    await tab.locator('p[data-start="65"][aria-current="true"]').waitFor();
    await tab.frameLocator('#player').getByText('seeked to 65').waitFor();
    // The player plays on: its infoDelivery moves the mark. The page takes only times near a seek
    // for 2 s after it, so the player goes on delivering (as a playing one does) until it is taken.
    await waitFor('the mark to follow the playing player', async () => {
      await frame.evaluate('window.playTo(127)');
      return (await tab.locator('p[data-start="125"][aria-current="true"]').count()) === 1 ? true : undefined;
    }, 30_000, 250);
    expect(await tab.locator('p.now').count()).to.equal(1);
    await axeClean(tab);
  });

  it('switches the page\'s language to Turkish and back, and the transcript into an offered translation the crawler then fetches', async () => {
    await tab.getByRole('link', { name: 'Türkçe' }).click();
    await tab.getByRole('button', { name: 'Oturumu kapat' }).waitFor();
    expect(await tab.locator('html').getAttribute('lang')).to.equal('tr');
    await axeClean(tab);
    await tab.getByRole('link', { name: 'English' }).click();
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();

    await tab.getByLabel('Transcript language').selectOption('en');
    await tab.getByRole('button', { name: 'Show' }).click();
    await tab.getByText('The machine translation into English (en) is asked for').waitFor();
    await axeClean(tab);
    // The crawler fetches it on its next visit to the channel; meanwhile the page shows the Turkish.
    await waitFor('the English translation stored', async () => {
      const { html } = await fetchPage(context, `/app/videos/${trVideo}?tl=en`);
      return html.includes('<section class="transcript" aria-labelledby="transcript" lang="en">') ? true : undefined;
    }, 90_000, 500);
    await tab.reload();
    await tab.locator('section.transcript[lang="en"]').waitFor();
    expect(await tab.locator('p[data-start="1"]').textContent()).to.contain('[en] Herkese merhaba');
    expect(await tab.locator('#tl option:checked').textContent()).to.contain('English (en)');
    await axeClean(tab);
  });

  it('searches with a Turkish query and follows a hit to its second', async () => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await tab.getByLabel('Search transcripts').fill('ISTANBUL ılık');
    await tab.getByRole('button', { name: 'Search' }).click();
    const hit = tab.locator(`a[href="/app/videos/${trVideo}#t=65"]`).first();
    await hit.waitFor();
    expect(await tab.getByRole('link', { name: TR_TITLE, exact: true }).count()).to.equal(1);
    const marks = await tab.locator('mark').allTextContents();
    expect(marks).to.include('İstanbul').and.include('ılık');
    await axeClean(tab);
    await hit.click();
    await tab.waitForURL(`${base}/app/videos/${trVideo}#t=65`);
    await tab.locator('p[data-start="65"][aria-current="true"]').waitFor();
    await tab.frameLocator('#player').getByText('seeked to 65').waitFor();
    await axeClean(tab);
  });

  it('uploads a Takeout CSV and then a NewPipe JSON naming the same channels', async () => {
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click();
    await tab.getByRole('heading', { name: 'Import a subscription list' }).waitFor();
    await axeClean(tab);
    await tab.getByLabel('Subscription file').setInputFiles(TAKEOUT);
    await tab.getByRole('button', { name: 'Import' }).click();
    await tab.getByText('5 imported, 0 already followed, 0 rejected.').waitFor();
    expect(await tab.getByRole('cell', { name: 'imported', exact: true }).count()).to.equal(5);
    await axeClean(tab);
    await tab.getByLabel('Subscription file').setInputFiles(NEWPIPE);
    await tab.getByRole('button', { name: 'Import' }).click();
    await tab.getByText('0 imported, 4 already followed, 1 rejected.').waitFor();
    expect(await tab.getByRole('cell', { name: 'already', exact: true }).count()).to.equal(4);
    expect(await tab.getByRole('cell', { name: 'a service other than YouTube', exact: true }).count()).to.equal(1);
    // The channel added by handle and the five imported ones, each with its Remove button.
    expect(await tab.getByRole('button', { name: 'Remove' }).count()).to.equal(6);
    await axeClean(tab);
  });

  it('unfollows the channel from its page', async () => {
    await tab.goto(`${base}/app/channels/${first.channelId}`);
    await tab.getByRole('button', { name: 'Unfollow' }).click();
    await tab.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    expect(tab.url()).to.equal(`${base}/app/channels/${first.channelId}`);
    await axeClean(tab);
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await tab.getByRole('heading', { name: 'Channels and playlists you follow' }).waitFor();
    expect(await tab.getByRole('link', { name: 'Günlük Notlar', exact: true }).count()).to.equal(0);
    expect(await tab.getByRole('link', { name: TR_TITLE, exact: true }).count()).to.equal(0);
  });

  it('signs out, and the old session cookie replayed afterwards gets the sign-in form, never the page', async () => {
    const old = await sessionCookie(context);
    const csrf = await tab.locator('input[name="csrf"]').first().inputValue();
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByLabel('API key').waitFor();
    expect(await tab.getByRole('button', { name: 'Sign out' }).count()).to.equal(0);
    await axeClean(tab);
    for (const page of ['/app/', '/app/subscriptions', `/app/videos/${trVideo}`, `/app/search?q=istanbul`]) {
      const res = await fetch(`${base}${page}`, { headers: { Cookie: old } });
      const html = await res.text();
      expect(html, page).to.contain('<label for="api-key">API key</label>').and.not.contain('Sign out');
      expect(html, page).not.to.contain('İstanbul').and.not.to.contain('Import a subscription list');
    }
    // A form of the old session, its token with it: refused like any post without a session.
    const follow = await fetch(`${base}/app/follow`, {
      method: 'POST', redirect: 'manual',
      headers: { Cookie: old, Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, channel: first.channelId }).toString(),
    });
    expect(follow.status).to.equal(401);
    expect(await follow.text()).to.contain('API key');
    expect(problems).to.deep.equal([]);
    expect(await tab.evaluate('window.violations')).to.deep.equal([]);
    expect(urls.filter((u) => u.includes(KEY))).to.deep.equal([]);
  });

  describe('the same pages with JavaScript off', () => {
    let noJs: BrowserContext;
    let page: Page;
    let shown: Page;
    const asked: string[] = [];
    const PHONE = { width: 390, height: 844 };
    before(async () => {
      noJs = await browser!.newContext({ viewport: PHONE, javaScriptEnabled: false });
      page = await noJs.newPage();
      page.on('request', (r) => void asked.push(r.url()));
      shown = await (await browser!.newContext({ viewport: PHONE })).newPage();
    });

    /**
     * axe-core on what the page without JavaScript shows. axe.run needs timers, which never fire
     * with JavaScript off; so the page's DOM as it stands is served again from its own origin to a
     * page with JavaScript on and the app's scripts refused, and axe runs there.
     */
    async function axeAsShown(): Promise<void> {
      const html = await page.content();
      const at = `${base}/app/__as-shown`;
      await shown.unrouteAll();
      await shown.route('**/*', (route) => {
        const url = route.request().url();
        if (url === at) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
        if (url.startsWith(`${base}/app/assets/`) && url.endsWith('.js')) return route.abort();
        return route.continue();
      });
      await shown.goto(at);
      await axeClean(shown);
    }
    /** The element is in the phone's viewport: the browser scrolled to it by its id (no page script). */
    async function inView(selector: string): Promise<void> {
      const box = (await page.locator(selector).boundingBox())!;
      expect(box.y, `${selector} scrolled into view`).to.be.within(0, PHONE.height - box.height);
    }

    it('signs in by the form, adds a channel by handle, and checks again by the link until its first videos are there', async () => {
      await page.goto(`${base}/app/`);
      await axeAsShown();
      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await axeAsShown();
      await page.getByRole('textbox', { name: 'Add a channel or playlist', exact: true }).fill('@ikincikanal');
      await page.getByRole('button', { name: 'Add' }).click();
      await page.waitForURL(`${base}/app/channels/${second.channelId}`);
      await axeAsShown();
      const newest = second.videos[0]!;
      await waitFor('the second channel\'s first batch, checking again by its link', async () => {
        if ((await page.getByRole('link', { name: newest.title, exact: true }).count()) > 0) return true;
        await page.getByRole('link', { name: 'Check again' }).click();
        return undefined;
      }, 90_000, 1000);
      await axeAsShown();
    });

    it('opens a transcript at #t= by scrolling to its element, its times linking to the platform, the languages switched by forms', async () => {
      await page.goto(`${base}/app/videos/${trVideo}?tl=tr#t=200`);
      await page.locator('[id="t=200"]').waitFor();
      await inView('[id="t=200"]');
      // No page script ran (it would have marked the paragraph), and a time is a link to the platform's player.
      expect(await page.locator('p[data-start="200"]').getAttribute('aria-current')).to.equal(null);
      expect(await page.locator('p[data-start="65"] a.time').getAttribute('href')).to.equal(`https://youtube.com/watch?v=${trVideo}&t=65s`);
      await axeAsShown();
      await page.getByLabel('Transcript language').selectOption('en');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.locator('section.transcript[lang="en"]').waitFor();
      expect(new URL(page.url()).searchParams.get('tl')).to.equal('en');
      await page.getByRole('link', { name: 'Türkçe' }).click();
      await page.getByRole('button', { name: 'Oturumu kapat' }).waitFor();
      await axeAsShown();
    });

    it('searches with a Turkish query by the form and opens a hit at its second', async () => {
      await page.goto(`${base}/app/search`);
      await page.getByLabel('Search transcripts').fill('istanbul ILIK');
      await page.getByRole('button', { name: 'Search' }).click();
      const hit = page.locator(`a[href="/app/videos/${trVideo}#t=65"]`).first();
      await hit.waitFor();
      await axeAsShown();
      await hit.click();
      await page.waitForURL(`${base}/app/videos/${trVideo}#t=65`);
      await inView('[id="t=65"]');
    });

    it('uploads a NewPipe JSON by the multipart form and removes a channel by its button', async () => {
      await page.goto(`${base}/app/subscriptions`);
      await page.getByLabel('Subscription file').setInputFiles(NEWPIPE);
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByText('0 imported, 4 already followed, 1 rejected.').waitFor();
      await axeAsShown();
      const removes = await page.getByRole('button', { name: 'Remove' }).count();
      await page.getByRole('button', { name: 'Remove' }).first().click();
      await page.getByRole('heading', { name: 'Import a subscription list' }).waitFor();
      expect(await page.getByRole('button', { name: 'Remove' }).count()).to.equal(removes - 1);
    });

    it('unfollows from the channel page and signs out; the old session cookie gets the sign-in form', async () => {
      await page.goto(`${base}/app/channels/${second.channelId}`);
      await page.getByRole('button', { name: 'Unfollow' }).click();
      await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
      await axeAsShown();
      const old = await sessionCookie(noJs);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      const replay = await (await fetch(`${base}/app/channels/${second.channelId}`, { headers: { Cookie: old } })).text();
      expect(replay).to.contain('<label for="api-key">API key</label>').and.not.contain('Sign out').and.not.contain(`/app/videos/${second.videos[0]!.videoId}`);
      expect(asked.filter((u) => u.includes(KEY))).to.deep.equal([]);
      await noJs.close();
    });
  });

  // Last: mocha runs a suite's own steps before its inner suites.
  describe('at the end', () => {
    it('stops both processes cleanly, the key in no log line', async () => {
      const [a, c] = await Promise.all([pair!.api.stop('SIGTERM'), pair!.crawler.stop('SIGTERM')]);
      expect(a, `api stderr: ${pair!.api.stderr.join('')}`).to.deep.equal({ code: 0, signal: null });
      expect(c, `crawler stderr: ${pair!.crawler.stderr.join('')}`).to.deep.equal({ code: 0, signal: null });
      expect([...pair!.api.logs, ...pair!.crawler.logs].some((l) => JSON.stringify(l).includes(KEY))).to.equal(false);
    });
  });
});
