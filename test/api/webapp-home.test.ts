// The web app's home and its follow actions (issue 29 item 2) against the real API on port 0: the
// followed channels and playlists with their stored videos, newest date and crawl state in words;
// the Add box following by handle (through the stub platform), channel URL and playlist URL exactly
// as GET / does, its refusals shown in words at the JSON API's status; unfollow as DELETE
// /subscriptions/<ref>; both refused (403, nothing changed) without the session's token, with
// another session's, or from another site; and the box and Unfollow in Chromium under axe.

import { expect } from 'chai';
import type { Browser } from 'playwright';
import { sha256 } from '../../shared/config/security';
import { errorBody } from '../../api/errors';
import { axeClean, CHROMIUM, launchChromium } from './webapp-browser';
import { csrfOf, postForm, sessionOf, signIn } from './webapp-support';
import { ADMIN_KEY, CHANNEL, KEY, OTHER_CHANNEL, startApi, T0, video, type TestApi } from './support';

const PLAYLIST = 'PLabcdefghij0123456789';
const THIRD = 'UCzzzzzzzzzzzzzzzzzzzzzz';
const MIN = 60_000;

function keyIdOf(api: TestApi, key: string): string {
  const digest = sha256(key).toString('hex');
  return api.ring.keys.find((k) => k.digest.toString('hex') === digest)!.keyId;
}

describe('web app home and follow actions', function () {
  let api: TestApi;
  let session: string;
  let csrf: string;
  beforeEach(async () => {
    api = await startApi({ known: { somebody: OTHER_CHANNEL }, handleLookups: { perKeyPerMinute: 1, perHour: 0, coolDownMs: 30 * MIN } });
    session = sessionOf(await signIn(api, KEY));
    csrf = await csrfOf(api, session);
  });
  afterEach(async () => api.close());

  const subsOf = async (key = KEY): Promise<(string | null)[]> => (await api.store.listSubscriptions(keyIdOf(api, key))).map((s) => s.channelId ?? `@${s.handle}`);
  const homeOf = async (lang = 'en'): Promise<string> => (await api.get(`/app/?lang=${lang}`, { key: null, headers: { Cookie: session } })).text();

  it('lists what the key follows with stored videos, newest date and crawl state in words, and the newest videos linked to their pages', async () => {
    const keyId = keyIdOf(api, KEY);
    await api.store.follow(keyId, [{ channelId: CHANNEL }], 'feed', 10, T0);
    await api.store.upsertVideos([video(1, { title: 'Newest <talk>' }), video(2, { title: 'Older talk' })]);
    await api.store.nameChannel(CHANNEL, 'Channel & Co');
    expect((await api.store.claimDueChannel('crawler-1', MIN, T0))?.channelId).to.equal(CHANNEL);
    await api.store.releaseChannel(CHANNEL, 'crawler-1', { nextDueAt: new Date(T0.getTime() + 60 * MIN), outcome: 'ok', consecutiveFailures: 0 }, T0);
    const later = new Date(T0.getTime() + MIN);
    await api.store.follow(keyId, [{ channelId: OTHER_CHANNEL }], 'feed', 10, later);
    expect((await api.store.claimDueChannel('crawler-1', MIN, later))?.channelId).to.equal(OTHER_CHANNEL);
    await api.store.releaseChannel(OTHER_CHANNEL, 'crawler-1', { nextDueAt: new Date(Date.UTC(2030, 0, 1, 14, 5)), outcome: 'blocked', consecutiveFailures: 1 }, later);
    await api.store.follow(keyId, [{ channelId: THIRD }, { channelId: PLAYLIST, kind: 'playlist' }], 'import', 10, later);

    const page = await homeOf();
    expect(page).to.contain(`href="/app/channels/${CHANNEL}">Channel &amp; Co</a>`);
    expect(page).to.contain('2 videos stored').and.contain('up to date');
    expect(page).to.contain(`href="/app/channels/${OTHER_CHANNEL}"`).and.contain('blocked by the platform, next try 14:05 UTC');
    expect(page).to.contain(`href="/app/channels/${THIRD}"`).and.contain('waiting for the first batch');
    expect(page).to.contain(`href="/app/playlists/${PLAYLIST}"`).and.contain('0 videos stored');
    const [v1, v2] = [video(1), video(2)];
    expect(page).to.contain(`<time datetime="${v1.publishedAt.toISOString()}">`);
    expect(page).to.contain(`href="/app/videos/${v1.videoId}">Newest &lt;talk></a>`).and.contain(`href="/app/videos/${v2.videoId}"`);
    expect(page.indexOf(v1.videoId)).to.be.lessThan(page.indexOf(v2.videoId));
    expect(page).to.contain('<label for="add-channel">Add a channel or playlist</label>');
    const tr = await homeOf('tr');
    expect(tr).to.contain('güncel').and.contain('platform engelledi, sonraki deneme 14:05 UTC').and.contain('ilk parti bekleniyor').and.contain('Kanal veya oynatma listesi ekle');
  });

  it('follows by handle (one platform lookup), by channel URL and by playlist URL as GET / does, 303 to its page or to `back`', async () => {
    const byHandle = await postForm(api, session, '/app/follow', { csrf, channel: '@Somebody' });
    expect(byHandle.status).to.equal(303);
    expect(byHandle.headers.get('location')).to.equal(`/app/channels/${OTHER_CHANNEL}`);
    expect(api.platform.calls).to.deep.equal(['Somebody']);
    expect(await api.store.getChannel(OTHER_CHANNEL)).to.deep.include({ handle: 'somebody', followed: true });

    const byUrl = await postForm(api, session, '/app/follow', { csrf, channel: ` https://www.youtube.com/channel/${CHANNEL} `, back: '/app/search?q=x' });
    expect(byUrl.status).to.equal(303);
    expect(byUrl.headers.get('location')).to.equal('/app/search?q=x');
    const byPlaylist = await postForm(api, session, '/app/follow', { csrf, channel: `https://www.youtube.com/playlist?list=${PLAYLIST}`, back: 'https://elsewhere.example/' });
    expect(byPlaylist.headers.get('location')).to.equal(`/app/playlists/${PLAYLIST}`);
    expect(await subsOf()).to.have.members([OTHER_CHANNEL, CHANNEL, PLAYLIST]);
    expect((await api.store.getChannel(PLAYLIST))?.kind).to.equal('playlist');
    // Following again changes nothing and asks the platform nothing more.
    await postForm(api, session, '/app/follow', { csrf, channel: 'somebody' });
    expect(api.platform.calls).to.have.length(1);
  });

  it('shows a refused input in words at the JSON API’s status, never a 500, and follows nothing', async () => {
    for (const [input, code, status] of [['not a handle!', 'invalidHandle', 400], ['https://example.com/@x', 'invalidChannelUrl', 400], ['@nobody', 'unknownHandle', 400]] as const) {
      const res = await postForm(api, session, '/app/follow', { csrf, channel: input });
      expect(res.status, input).to.equal(status);
      const page = await res.text();
      expect(page).to.contain('role="alert"').and.contain(escapeHtml(errorBody(code, { handle: input }).error));
      expect(page).to.contain(`value="${escapeHtml(input)}"`);
    }
    // The key's handle lookups of the minute (1 here): the second new handle is 429, as GET / answers.
    const limited = await postForm(api, session, '/app/follow', { csrf, channel: '@another' });
    expect(limited.status).to.equal(429);
    expect(await limited.text()).to.contain(escapeHtml(errorBody('handleLookupsLimited', { limit: 1 }).error));
    const json = await api.get('/?channel=@yetanother');
    expect(json.status).to.equal(429);
    expect(await subsOf()).to.deep.equal([]);
  });

  it('spends the key’s new-channel budget as GET / does: beyond it 429 in words, with Retry-After', async () => {
    await api.close();
    api = await startApi({ newChannelsPerKeyHour: 1 });
    session = sessionOf(await signIn(api, KEY));
    csrf = await csrfOf(api, session);
    expect((await postForm(api, session, '/app/follow', { csrf, channel: CHANNEL })).status).to.equal(303);
    const refused = await postForm(api, session, '/app/follow', { csrf, channel: OTHER_CHANNEL });
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
    expect(await refused.text()).to.contain('role="alert"');
    expect(await api.store.getChannel(OTHER_CHANNEL)).to.equal(null);
    // The same budget: the feed is refused too.
    expect((await api.get(`/?channel_id=${THIRD}`)).status).to.equal(429);
    expect(await subsOf()).to.deep.equal([CHANNEL]);
  });

  it('unfollows as DELETE /subscriptions/<ref> does, 303 back; an unknown ref in words', async () => {
    await postForm(api, session, '/app/follow', { csrf, channel: CHANNEL });
    expect(await subsOf()).to.deep.equal([CHANNEL]);
    const res = await postForm(api, session, '/app/unfollow', { csrf, ref: CHANNEL, back: `/app/channels/${CHANNEL}` });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/app/channels/${CHANNEL}`);
    expect(await subsOf()).to.deep.equal([]);
    const again = await postForm(api, session, '/app/unfollow', { csrf, ref: CHANNEL });
    expect(again.status).to.equal(404);
    expect(await again.text()).to.contain(escapeHtml(errorBody('subscriptionNotFound').error));
    expect((await postForm(api, session, '/app/unfollow', { csrf, ref: 'nonsense' })).status).to.equal(400);
    // The feed follows again at once: this process forgot the follow it had recorded.
    expect((await api.get(`/?channel_id=${CHANNEL}`)).status).to.equal(404);
    expect(await subsOf()).to.deep.equal([CHANNEL]);
  });

  it('refuses (403) a post without the token, with another session’s token, or from another site, changing nothing', async () => {
    await postForm(api, session, '/app/follow', { csrf, channel: CHANNEL });
    const other = sessionOf(await signIn(api, ADMIN_KEY));
    const otherCsrf = await csrfOf(api, other);
    const tries: [string, Record<string, string>, Record<string, string>][] = [
      ['/app/follow', { channel: OTHER_CHANNEL }, {}],
      ['/app/follow', { csrf: otherCsrf, channel: OTHER_CHANNEL }, {}],
      ['/app/follow', { csrf, channel: OTHER_CHANNEL }, { Origin: 'https://evil.example' }],
      ['/app/unfollow', { ref: CHANNEL }, {}],
      ['/app/unfollow', { csrf: otherCsrf, ref: CHANNEL }, {}],
      ['/app/unfollow', { csrf, ref: CHANNEL }, { Origin: 'https://evil.example' }],
    ];
    for (const [path, fields, headers] of tries) {
      const res = await postForm(api, session, path, fields, headers);
      expect(res.status, `${path} ${JSON.stringify(fields)} ${JSON.stringify(headers)}`).to.equal(403);
    }
    expect(await subsOf()).to.deep.equal([CHANNEL]);
    expect(await subsOf(ADMIN_KEY)).to.deep.equal([]);
    expect(await api.store.getChannel(OTHER_CHANNEL)).to.equal(null);
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) this.skip();
      browser = await launchChromium();
    });
    after(async () => browser?.close());
    this.timeout(60_000);

    it('signs in, adds a channel by handle through the box and unfollows it, axe finding nothing', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
      page.on('pageerror', (e) => void problems.push(e.message));
      await page.goto(`${api.base}/app/`);
      await page.getByLabel('API key').fill(KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const box = page.getByRole('form', { name: 'Add a channel or playlist', exact: true });
      await box.waitFor();
      await axeClean(page);
      await box.getByLabel('Add a channel or playlist', { exact: true }).fill('@somebody');
      await box.getByRole('button', { name: 'Add' }).click();
      await page.waitForURL(`${api.base}/app/channels/${OTHER_CHANNEL}`);
      await page.getByRole('link', { name: 'Home' }).click();
      const followed = page.getByRole('link', { name: OTHER_CHANNEL, exact: true });
      await followed.waitFor();
      expect(await page.getByText('waiting for the first batch').count()).to.equal(1);
      await axeClean(page);
      await page.getByRole('button', { name: `Unfollow: ${OTHER_CHANNEL}` }).click();
      await page.getByText('You follow nothing yet.').waitFor();
      expect(await subsOf()).to.deep.equal([]);
      // A refused input: the refusal in words beside the box.
      await box.getByLabel('Add a channel or playlist', { exact: true }).fill('not a handle!');
      await box.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('alert').waitFor();
      await axeClean(page);
      expect(problems.filter((p) => !/status of 400/.test(p))).to.deep.equal([]);
      await context.close();
    });
  });
});

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
