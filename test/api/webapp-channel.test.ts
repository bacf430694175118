// The web app's channel and playlist pages (issue 29, item 3) against the real API on port 0 with a
// signed-in session: each video's state in one word, paging without a video twice or missing, the
// feed addresses carrying the key in their read-only fields and nowhere else on the page, Follow
// or Unfollow by the followed state, a channel the crawler has not stored yet saying what the
// feed's 404 says and reloading itself, a playlist in its own order; and in Chromium, Copy putting
// the address on the clipboard, paging forward and a waiting page reloading into its videos.

import { expect } from 'chai';
import type { Browser, Page } from 'playwright';
import { errorBody } from '../../api/errors';
import { sha256 } from '../../shared/config/security';
import { axeClean, CHROMIUM, launchChromium } from './webapp-browser';
import { sessionOf, signIn } from './webapp-support';
import { CHANNEL, KEY, NASTY_TITLE, startApi, T0, video, type TestApi } from './support';

const PL = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';


/** Video ids a page links to, in page order. */
const linkedVideos = (html: string): string[] => [...html.matchAll(/href="\/app\/videos\/([^"#?]+)"/g)].map((m) => m[1]!);
const hrefs = (html: string): string[] => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
/** The page's feed fields (`<input id="feed-…" … value="…">`) and the page with them cut out. */
function feedFields(html: string): { values: Record<string, string>; rest: string } {
  const values: Record<string, string> = {};
  const rest = html.replace(/<input id="(feed-[a-z]+)"[^>]*\bvalue="([^"]*)"[^>]*>/g, (_, id: string, value: string) => {
    values[id] = value.replaceAll('&amp;', '&');
    return '';
  });
  return { values, rest };
}

describe('web app channel and playlist pages', function () {
  let api: TestApi;
  let cookie: string;
  beforeEach(async () => {
    api = await startApi();
    api.now = T0;
    cookie = sessionOf(await signIn(api, KEY));
  });
  afterEach(async () => api.close());

  const page = async (path: string, headers: Record<string, string> = {}): Promise<{ status: number; html: string }> => {
    const res = await api.get(path, { key: null, headers: { Cookie: cookie, ...headers } });
    return { status: res.status, html: await res.text() };
  };
  const keyId = (): string => sha256(KEY).toString('hex');

  /** n stored videos of the test channel, every third one given up without captions. */
  async function channelOf(n: number): Promise<void> {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 100, title: NASTY_TITLE }, T0);
    const videos = Array.from({ length: n }, (_, i) => video(i + 1, i % 3 === 2 ? { state: 'no_transcript', language: null, kind: null, durationSeconds: 3723 } : {}));
    await api.store.upsertVideos(videos);
  }

  it('lists 120 videos newest first on 3 pages, none twice and none missing, each with date, duration, language and state in words', async () => {
    await channelOf(120);
    const seen: string[] = [];
    for (const n of [1, 2, 3]) {
      const { status, html } = await page(`/app/channels/${CHANNEL}${n === 1 ? '' : `?page=${n}`}`);
      expect(status).to.equal(200);
      const ids = linkedVideos(html);
      expect(ids).to.have.length(n === 3 ? 20 : 50);
      seen.push(...ids);
      expect(html.includes(`href="/app/channels/${CHANNEL}?page=${n + 1}" rel="next">Next page</a>`)).to.equal(n < 3);
      const previous = n === 2 ? `/app/channels/${CHANNEL}` : `/app/channels/${CHANNEL}?page=${n - 1}`;
      expect(html.includes(`href="${previous}" rel="prev">Previous page</a>`)).to.equal(n > 1);
      expect(html).to.contain('<nav aria-label="Pages"');
    }
    expect(seen).to.deep.equal(Array.from({ length: 120 }, (_, i) => video(i + 1).videoId));
    const first = (await page(`/app/channels/${CHANNEL}`)).html;
    expect(first).to.contain('Tom &amp; Jerry &lt;live>'); // the title, escaped
    expect(first).to.contain(`Video 1</a> <span class="muted"><time datetime="${video(1).publishedAt.toISOString()}">11 Feb 2024</time> · 5:16 · en · stored</span>`);
    expect(first).to.match(/Video 3<\/a> <span class="muted"><time[^>]*>[^<]+<\/time> · 1:02:03 · no captions<\/span>/);
    // Past the end: a page saying so, with the way back.
    const beyond = (await page(`/app/channels/${CHANNEL}?page=4`)).html;
    expect(beyond).to.contain('There are no videos on this page.').and.contain('Previous page');
    expect(linkedVideos(beyond)).to.deep.equal([]);
  });

  it('shows the feed addresses with the key in their read-only fields only, never in a link or anywhere else', async () => {
    await channelOf(3);
    const { html } = await page(`/app/channels/${CHANNEL}`);
    const { values, rest } = feedFields(html);
    const key = `api_key=${KEY}`;
    expect(values).to.deep.equal({
      'feed-atom': `${api.base}/?channel_id=${CHANNEL}&${key}`,
      'feed-rss': `${api.base}/?channel_id=${CHANNEL}&format=Rss&${key}`,
      'feed-json': `${api.base}/?channel_id=${CHANNEL}&format=Json&${key}`,
      'feed-opml': `${api.base}/subscriptions?${key}`,
    });
    expect(html).to.match(/<input id="feed-atom" type="text" readonly[^>]*>/);
    expect(html.match(/<button type="button" hidden data-copy="feed-[a-z]+">Copy<\/button>/g)).to.have.length(4);
    expect(rest).not.to.contain(KEY);
    expect(hrefs(html).filter((h) => h.includes(KEY))).to.deep.equal([]);
    // The session's cookie holds no readable key, in any common spelling.
    for (const spelling of [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('base64url')]) expect(cookie).not.to.contain(spelling);
    // The addresses are real feeds of this key.
    const feed = await api.get(values['feed-json']!.slice(api.base.length), { key: null });
    expect(feed.status).to.equal(200);
    expect(api.logs.join('\n')).not.to.contain(KEY);
  });

  it('offers Follow to a key that does not follow the channel and Unfollow to one that does, each a form with the session\'s token', async () => {
    await channelOf(1);
    const path = `/app/channels/${CHANNEL}`;
    const before = (await page(path)).html;
    const csrf = csrfOf(before);
    expect(before).to.contain(`<form method="post" action="/app/follow" class="follow"><input type="hidden" name="csrf" value="${csrf}"/><input type="hidden" name="channel" value="${CHANNEL}"/><input type="hidden" name="back" value="${path}"/><button type="submit">Follow</button></form>`);
    expect(before).not.to.contain('/app/unfollow');
    await api.store.follow(keyId(), [{ channelId: CHANNEL }], 'feed', 10, T0);
    const after = (await page(path)).html;
    expect(after).to.contain(`<form method="post" action="/app/unfollow" class="follow"><input type="hidden" name="csrf" value="${csrf}"/><input type="hidden" name="ref" value="${CHANNEL}"/><input type="hidden" name="back" value="${path}"/><button type="submit">Unfollow</button></form>`);
    expect(after).not.to.contain('action="/app/follow"');
  });

  it('says what the feed\'s 404 says for a channel the crawler has not stored yet, reloading itself; an id nobody registered is a 404 in words', async () => {
    const waiting = 'UC' + 'w'.repeat(22);
    await api.store.registerChannel({ channelId: waiting, wanted: 10 }, T0);
    const en = await page(`/app/channels/${waiting}`);
    expect(en.status).to.equal(200);
    expect(en.html).to.contain('<p role="status" data-refresh="10">No video processed yet: the crawler has not looked at this channel yet');
    expect(en.html).to.match(/<script src="\/app\/assets\/channel\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(en.html).to.contain(`<a href="/app/channels/${waiting}">Check again</a>`).and.contain('feed-atom');
    const tr = await page(`/app/channels/${waiting}`, { 'Accept-Language': 'tr' });
    const said = errorBody('noVideosYet', { channelId: waiting, crawl: { state: 'waiting' } });
    expect(tr.html).to.contain(`${said.error}: ${said.message}`);
    // The feed says the same today.
    const feed = await api.get(`/?channel_id=${waiting}`);
    expect(feed.status).to.equal(404);
    expect(((await feed.json()) as { message: string }).message).to.equal(said.message);

    const unknown = await page(`/app/channels/${'UC' + 'u'.repeat(22)}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.html).to.contain('No channel with this id is known here.').and.not.contain('data-refresh');
    expect((await page('/app/channels/not-a-channel')).status).to.equal(404);
  });

  it('lists a playlist in its own order, paged, every entry\'s state in one word, with the playlist\'s feeds and follow form', async () => {
    await api.store.registerChannel({ channelId: PL, kind: 'playlist', wanted: 100 }, T0);
    const order = [5, 3, 4, 1, 2, ...Array.from({ length: 55 }, (_, i) => 100 + i)];
    await api.store.upsertVideos([
      video(5), video(3, { state: 'failed', language: null, kind: null, nextAttemptAt: T0 }),
      video(4, { state: 'unavailable', language: null, kind: null }), video(1, { state: 'no_transcript', language: null, kind: null }),
      ...Array.from({ length: 55 }, (_, i) => video(100 + i)),
    ]);
    await api.store.putPlaylist({ playlistId: PL, title: 'Course <1> & "2"', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: order.map((n) => video(n).videoId) }, T0);
    const first = await page(`/app/playlists/${PL}`);
    expect(first.status).to.equal(200);
    const html = first.html;
    expect(html).to.contain('<h1>Course &lt;1> &amp; &quot;2&quot;</h1>');
    // video 2 is listed but not stored: its id, waiting, no link.
    expect(linkedVideos(html)).to.deep.equal(order.slice(0, 50).filter((n) => n !== 2).map((n) => video(n).videoId));
    const state = (n: number): string => new RegExp(`${n === 2 ? video(2).videoId + '</span>' : `Video ${n}</a>`} <span class="muted">(?:<time[^>]*>[^<]*</time>[^<]*)?· ([a-z ]+)</span>`).exec(html)?.[1] ?? 'none';
    expect([5, 3, 4, 1, 2].map(state)).to.deep.equal(['stored', 'waiting', 'unavailable', 'no captions', 'waiting']);
    expect(html).to.contain(`href="/app/playlists/${PL}?page=2" rel="next">Next page</a>`);
    const second = (await page(`/app/playlists/${PL}?page=2`)).html;
    expect(linkedVideos(second)).to.deep.equal(order.slice(50).map((n) => video(n).videoId));
    expect(second).to.contain('<ol class="videos" start="51">').and.not.contain('Next page');
    const { values, rest } = feedFields(html);
    expect(values['feed-rss']).to.equal(`${api.base}/?playlist_id=${PL}&format=Rss&api_key=${KEY}`);
    expect(rest).not.to.contain(KEY);
    expect(html).to.contain(`<input type="hidden" name="channel" value="https://www.youtube.com/playlist?list=${PL}"/>`);
  });

  it('says what the playlist feed\'s 404 says before its first listing, and names a private playlist', async () => {
    await api.store.registerChannel({ channelId: PL, kind: 'playlist', wanted: 10 }, T0);
    const said = errorBody('noPlaylistVideosYet', { playlistId: PL, crawl: { state: 'waiting' } });
    expect((await page(`/app/playlists/${PL}`, { 'Accept-Language': 'tr' })).html).to.contain(`${said.error}: ${said.message}`).and.contain('data-refresh="10"');
    expect((await page(`/app/playlists/${PL}`)).html).to.contain('the crawler has not looked at this playlist yet');
    await api.store.putPlaylist({ playlistId: PL, title: null, owner: null, ownerChannelId: null, state: 'private', videoIds: [] }, T0);
    const priv = await page(`/app/playlists/${PL}`);
    expect(priv.status).to.equal(404);
    expect(priv.html).to.contain('The platform says this playlist is private.');
    expect((await page('/app/playlists/PLunknownunknownunknown')).status).to.equal(404);
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) this.skip();
      browser = await launchChromium();
    });
    after(async () => browser?.close());
    this.timeout(60_000);

    async function signedInPage(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.base });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('request', (r) => void (r.url().includes(KEY) && problems.push(`key in a URL: ${r.url()}`)));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
      page.on('pageerror', (e) => void problems.push(`page: ${e.message}`));
      await page.addInitScript({ content: "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));" });
      await page.goto(`${api.base}/app/`);
      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      return { page, problems, close: () => context.close() };
    }

    it('copies a feed address to the clipboard and pages forward, axe clean, no CSP violation', async () => {
      await channelOf(120);
      const { page, problems, close } = await signedInPage();
      await page.goto(`${api.base}/app/channels/${CHANNEL}`);
      await page.getByRole('heading', { name: 'Videos' }).waitFor();
      await axeClean(page);
      await page.getByRole('button', { name: 'Copy' }).first().click();
      await page.getByText('Copied').first().waitFor();
      const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
      expect(copied).to.equal(`${api.base}/?channel_id=${CHANNEL}&api_key=${KEY}`);
      expect(await page.getByLabel('Atom feed').inputValue()).to.equal(copied);
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.getByRole('link', { name: 'Previous page' }).waitFor();
      expect(page.url()).to.equal(`${api.base}/app/channels/${CHANNEL}?page=2`);
      expect(await page.getByRole('link', { name: 'Video 51', exact: true }).count()).to.equal(1);
      await axeClean(page);
      expect(problems).to.deep.equal([]);
      expect(await page.evaluate('window.violations')).to.deep.equal([]);
      await close();
    });

    it('reloads a channel waiting for its first batch until the videos are there', async () => {
      await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, T0);
      const { page, problems, close } = await signedInPage();
      await page.goto(`${api.base}/app/channels/${CHANNEL}`);
      await page.getByRole('status').filter({ hasText: 'No video processed yet' }).waitFor();
      await axeClean(page);
      await api.store.upsertVideos([video(1)]);
      await page.getByRole('link', { name: 'Video 1', exact: true }).waitFor({ timeout: 40_000 });
      expect(problems).to.deep.equal([]);
      expect(await page.evaluate('window.violations')).to.deep.equal([]);
      await close();
    });
  });
});

