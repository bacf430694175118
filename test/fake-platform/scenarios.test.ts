// Every scenario switch, the counters, and the control endpoint, over real HTTP.

import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { makeChannel, solveChallenge, startFakePlatform, type FakePlatform } from './index';
import { ANDROID_CONTEXT, arr, at, innertube, postJson, str, WEB_CONTEXT, type Json } from './test-support';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36';

describe('fake platform: scenarios, counters, control endpoint', () => {
  let fake: FakePlatform;
  const channel = makeChannel({ handle: 'scen', count: 20, captionsMix: { manual: 1 } });
  const first = channel.videos[0]?.videoId ?? '';
  const second = channel.videos[1]?.videoId ?? '';

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
  });
  afterEach(() => {
    fake.clearScenarios();
    fake.resetCounters();
  });
  after(() => fake.close());

  const player = (videoId = first) => innertube(fake.url, 'player', { context: ANDROID_CONTEXT, videoId });
  const page = (path: string, headers: Record<string, string> = {}) => fetch(`${fake.url}${path}`, { headers, redirect: 'manual' });
  const trackUrl = async (videoId = first) => {
    const { json } = await player(videoId);
    return str(at(json, 'captions.playerCaptionsTracklistRenderer.captionTracks[0].baseUrl')).replace(/&fmt=[^&]*/, '');
  };

  it('counts requests per endpoint, leaves the control endpoint out, and resets', async () => {
    await innertube(fake.url, 'navigation/resolve_url', { context: WEB_CONTEXT, url: 'https://www.youtube.com/@scen' });
    await page('/@scen');
    await page(`/channel/${channel.channelId}`);
    await page(`/feeds/videos.xml?channel_id=${channel.channelId}`);
    await innertube(fake.url, 'browse', { context: WEB_CONTEXT, browseId: channel.channelId, params: 'EgZ2aWRlb3PyBgQKAjoA' });
    await page(`/watch?v=${first}`);
    await page(`/embed/${first}?cc_load_policy=1&cc_lang_pref=en`);
    await (await fetch(await trackUrl())).text();
    await page('/favicon.ico');
    await fetch(`${fake.url}/__fake/counters`);
    expect(fake.counters).to.deep.equal({
      resolve: 1,
      handlePage: 1,
      channelPage: 1,
      feed: 1,
      browse: 1,
      browseContinuation: 0,
      watch: 1,
      embed: 1,
      player: 1,
      visitorId: 0,
      timedtext: 1,
      other: 1,
      total: 10,
    });
    fake.resetCounters();
    expect(fake.counters.total).to.equal(0);
  });

  describe('blocking', () => {
    it('block429 for N requests: every endpoint answers 429 with the captcha page, then recovers', async () => {
      fake.scenario.block429({ requests: 2 });
      const a = await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first });
      const b = await page('/@scen');
      const c = await page('/@scen');
      expect([a.status, b.status, c.status]).to.deep.equal([429, 429, 200]);
      expect(await a.text()).to.include('class="g-recaptcha"');
      expect(fake.counters).to.include({ player: 1, handlePage: 2 });
    });

    it('block429 until a moment: blocked before it, free after it', async () => {
      fake.scenario.block429({ untilMs: Date.now() + 60_000 });
      expect((await page('/@scen')).status).to.equal(429);
      fake.scenario.block429({ untilMs: Date.now() - 1 });
      expect((await page('/@scen')).status).to.equal(200);
    });

    it('captcha(n): the captcha page with HTTP 200', async () => {
      fake.scenario.captcha(1);
      const res = await page(`/watch?v=${first}`);
      const body = await res.text();
      expect(res.status).to.equal(200);
      expect(body).to.include('class="g-recaptcha"').and.include('/das_captcha');
      expect(await (await page(`/watch?v=${first}`)).text()).to.include('ytInitialPlayerResponse');
    });

    it('botCheck(n): the next N player answers are the LOGIN_REQUIRED bot check', async () => {
      fake.scenario.botCheck(2);
      const answers = [await player(), await player(), await player()].map((a) => at(a.json, 'playabilityStatus'));
      expect(answers.map((s) => at(s, 'reason'))).to.deep.equal([
        'Sign in to confirm you\u2019re not a bot',
        'Sign in to confirm you\u2019re not a bot',
        undefined,
      ]);
      expect(at(answers[0], 'status')).to.equal('LOGIN_REQUIRED');
    });

    it('rateLimitedPlayer(n): "This content isn\'t available, try again later"', async () => {
      fake.scenario.rateLimitedPlayer(1);
      const { json } = await player();
      expect(at(json, 'playabilityStatus.reason')).to.equal("This content isn't available, try again later");
      expect(at((await player()).json, 'playabilityStatus.status')).to.equal('OK');
    });

    it('tryAgainLaterWindow(open): every player answer is "try again later" until closed', async () => {
      fake.scenario.tryAgainLaterWindow(true);
      for (let i = 0; i < 3; i += 1) {
        expect(at((await player()).json, 'playabilityStatus.reason')).to.equal("This content isn't available, try again later");
      }
      fake.scenario.tryAgainLaterWindow(false);
      expect(at((await player()).json, 'playabilityStatus.status')).to.equal('OK');
    });

    it('poison(n): the answer describes another video', async () => {
      fake.scenario.poison(1);
      const poisoned = (await player(first)).json;
      expect(at(poisoned, 'playabilityStatus.status')).to.equal('OK');
      expect(at(poisoned, 'videoDetails.videoId')).to.not.equal(first);
      expect(at((await player(first)).json, 'videoDetails.videoId')).to.equal(first);
    });

    it('emptyTimedText(n) refuses the next N timed-text requests; emptyTimedText(id) refuses one video', async () => {
      const url = await trackUrl(first);
      fake.scenario.emptyTimedText(1);
      expect(await (await fetch(url)).text()).to.equal('');
      expect(await (await fetch(url)).text()).to.include('<transcript>');
      fake.scenario.emptyTimedText(second);
      const other = await trackUrl(second);
      expect(await (await fetch(other)).text()).to.equal('');
      expect(await (await fetch(other)).text()).to.equal('');
      expect(await (await fetch(url)).text()).to.include('<transcript>');
    });

    it('serverError(n[, status]): JSON errors for InnerTube, HTML for pages', async () => {
      fake.scenario.serverError(2, 503);
      const a = await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first });
      const b = await page('/@scen');
      expect([a.status, b.status]).to.deep.equal([503, 503]);
      expect(at(await a.json(), 'error.code')).to.equal(503);
      expect(await b.text()).to.include('Error 503');
      expect((await page('/@scen')).status).to.equal(200);
    });

    it('malformed(n): truncated JSON and XML, garbage HTML', async () => {
      fake.scenario.malformed(3);
      const json = await (await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first })).text();
      expect(() => JSON.parse(json) as unknown).to.throw();
      const feed = await (await page(`/feeds/videos.xml?channel_id=${channel.channelId}`)).text();
      expect(feed).to.not.include('</feed>');
      const html = await (await page('/@scen')).text();
      expect(html).to.not.include('ytInitialData =');
      const healed = await (await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first })).text();
      expect(() => JSON.parse(healed) as unknown).to.not.throw();
    });

    it('slow(ms) holds answers back', async () => {
      fake.scenario.slow(2000);
      const abort = new AbortController();
      let answered = false;
      const pending = fetch(`${fake.url}/@scen`, { signal: abort.signal }).then(
        () => (answered = true),
        () => undefined,
      );
      // Once the fake has the request, the answer is still being held (no clock involved).
      while (fake.counters.handlePage === 0) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(answered).to.equal(false);
      abort.abort();
      await pending;
      expect(fake.scenario.state().slowMs).to.equal(2000);
    });

    it('feedOutage(status): the feed fails for a valid channel; null heals it', async () => {
      fake.scenario.feedOutage(500);
      expect((await page(`/feeds/videos.xml?channel_id=${channel.channelId}`)).status).to.equal(500);
      fake.scenario.feedOutage(404);
      const res = await page(`/feeds/videos.xml?channel_id=${channel.channelId}`);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      fake.scenario.feedOutage(null);
      expect((await page(`/feeds/videos.xml?channel_id=${channel.channelId}`)).status).to.equal(200);
    });
  });

  describe('consent wall', () => {
    it('serves the consent page to HTML requests without a consent cookie, and the real page with one', async () => {
      fake.scenario.consentWall(true);
      const walled = await (await page(`/watch?v=${first}`)).text();
      expect(walled).to.include('action="https://consent.youtube.com/s"');
      const v = /name="v" value="([^"]+)"/.exec(walled)?.[1];
      expect(await (await page(`/watch?v=${first}`, { cookie: `CONSENT=YES+${v ?? ''}` })).text()).to.include('ytInitialPlayerResponse');
      expect(await (await page('/@scen', { cookie: 'SOCS=CAI' })).text()).to.include('ytInitialData');
      // JSON endpoints and the feed are not walled.
      expect(at((await player()).json, 'playabilityStatus.status')).to.equal('OK');
      expect((await page(`/feeds/videos.xml?channel_id=${channel.channelId}`)).status).to.equal(200);
    });

    it("'redirect' answers 302 to consent.youtube.com/m?continue=…", async () => {
      fake.scenario.consentWall('redirect');
      const res = await page('/@scen');
      expect(res.status).to.equal(302);
      const location = new URL(res.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).to.equal('https://consent.youtube.com/m');
      expect(location.searchParams.get('continue')).to.equal(`${fake.url}/@scen`);
      expect((await page('/@scen', { cookie: 'SOCS=CAI' })).status).to.equal(200);
    });
  });

  describe('JavaScript challenge', () => {
    const challenged = async (headers: Record<string, string>) => {
      const res = await page('/@scen', headers);
      return { status: res.status, body: await res.text() };
    };

    it('blocks clients that do not run the script; the solved cookie works only with the same User-Agent', async () => {
      fake.scenario.jsChallenge(true);
      const wall = await challenged({ 'user-agent': UA });
      expect(wall.status).to.equal(429);
      expect(wall.body).to.include('document.cookie').and.include('fake_clearance=');
      // What the page's script computes, done here by hand.
      const nonce = /var n = "([0-9a-f]+)"/.exec(wall.body)?.[1] ?? '';
      const cookie = `fake_clearance=${nonce}.${solveChallenge(nonce)}`;
      expect((await challenged({ 'user-agent': UA, cookie })).status).to.equal(200);
      expect((await challenged({ 'user-agent': 'curl/8.0', cookie })).status).to.equal(429);
      expect((await challenged({ 'user-agent': UA, cookie: `fake_clearance=${nonce}.bad` })).status).to.equal(429);
      expect((await challenged({ 'user-agent': UA })).status).to.equal(429);
      // The challenge covers InnerTube too.
      expect((await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first }, { 'user-agent': UA, cookie })).status).to.equal(200);
      expect((await postJson(fake.url, 'player', { context: ANDROID_CONTEXT, videoId: first }, { 'user-agent': UA })).status).to.equal(429);
    });

    it("the page's own script produces the accepted cookie", async () => {
      fake.scenario.jsChallenge(true);
      const wall = await challenged({ 'user-agent': UA });
      const script = /<script>([\s\S]*?)<\/script>/.exec(wall.body)?.[1] ?? '';
      // Run the inline script with a stand-in document and location, as a browser would.
      const doc = { cookie: '' };
      const run = new Function('document', 'location', 'setTimeout', script) as (d: object, l: object, t: (f: () => void) => void) => void;
      let reloaded = false;
      run(doc, { reload: () => (reloaded = true) }, (f) => f());
      expect(reloaded).to.equal(true);
      const cookie = doc.cookie.split(';')[0] ?? '';
      expect((await challenged({ 'user-agent': UA, cookie })).status).to.equal(200);
    });

    it('switching it off lets everyone through and forgets issued clearances', async () => {
      fake.scenario.jsChallenge(true);
      expect((await challenged({ 'user-agent': UA })).status).to.equal(429);
      fake.scenario.jsChallenge(false);
      expect((await challenged({ 'user-agent': UA })).status).to.equal(200);
    });
  });

  it('compresses with gzip when the client allows it', async () => {
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(`${fake.url}/@scen`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.encoding).to.equal('gzip');
    expect(gunzipSync(raw.body).toString('utf8')).to.include('ytInitialData');
  });

  describe('control endpoint (for out-of-process tests)', () => {
    const control = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${fake.url}/__fake/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Json };
    };

    it('sets scenarios by name, reports them, and clears them', async () => {
      const set = await control('POST', 'scenario', { botCheck: 2, serverError: [1, 502], consentWall: 'redirect', block429: { requests: 0 } });
      expect(set.json).to.include({ botCheck: 2, serverError: 1, serverErrorStatus: 502, consentWall: 'redirect' });
      expect((await page('/@scen')).status).to.equal(502);
      expect(at((await control('GET', 'scenario')).json, 'botCheck')).to.equal(2);
      await control('POST', 'scenario', { clearScenarios: true });
      expect((await control('GET', 'scenario')).json).to.include({ botCheck: 0, consentWall: 'off' });
      expect((await control('POST', 'scenario', { nonsense: 1 })).status).to.equal(400);
    });

    it('reports and resets counters without counting itself', async () => {
      await page('/@scen');
      expect((await control('GET', 'counters')).json).to.include({ handlePage: 1, total: 1 });
      expect(at((await control('POST', 'counters/reset', {})).json, 'total')).to.equal(0);
      expect(fake.counters.total).to.equal(0);
    });

    it('adds uploads and channels', async () => {
      const upload = await control('POST', 'upload', { channelId: channel.channelId, video: { title: 'Fresh & new', captions: 'automatic' } });
      expect(upload.status).to.equal(200);
      expect(upload.json).to.include({ title: 'Fresh & new', captions: 'automatic' });
      const feedText = await (await page(`/feeds/videos.xml?channel_id=${channel.channelId}`)).text();
      expect(feedText.indexOf(str(at(upload.json, 'videoId')))).to.be.lessThan(feedText.indexOf(first));
      const made = await control('POST', 'channels', { make: { handle: 'remote', count: 5 } });
      expect(arr(at(made.json, 'videos'))).to.have.length(5);
      const listed = arr((await control('GET', 'channels')).json).map((c) => at(c, 'handle'));
      expect(listed).to.include('remote');
      const resolved = await innertube(fake.url, 'navigation/resolve_url', { context: WEB_CONTEXT, url: 'https://www.youtube.com/@remote' });
      expect(at(resolved.json, 'endpoint.browseEndpoint.browseId')).to.equal(at(made.json, 'channelId'));
      expect((await control('POST', 'upload', { channelId: 'UCnope' })).status).to.equal(400);
    });
  });
});
