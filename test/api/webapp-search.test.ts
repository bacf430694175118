// The web app's search page (issue 29, item 5) against the real API on port 0 and a real SQLite
// store: GET /search's scopes (everything, channel_id, subscriptions=1) chosen on the form, paging
// by a cursor that neither repeats nor skips a hit (even when a newer one is stored between two
// pages), the feed's folding (a Turkish query without its letters finds and marks them), every
// refusal GET /search gives said in words with its status, never a 500; the subscribe link without
// the key; and signed-in pages counting against the key's rate limit (a 429 page, Retry-After),
// shared with its feed requests, while the stylesheet is not counted.

import { expect } from 'chai';
import { ApiError, errorBody } from '../../api/errors';
import { STYLESHEET_URL } from '../../api/webapp/assets';
import { sha256 } from '../../shared/config/security';
import { transcriptRecord } from '../support/factories';
import { sessionOf, signIn } from './webapp-support';
import { CHANNEL, KEY, LIMITED_KEY, OTHER_CHANNEL, startApi, T0, video, type TestApi } from './support';

const keyIdOf = (api: TestApi, key: string): string => {
  const digest = sha256(key).toString('hex');
  return api.ring.keys.find((k) => k.digest.toString('hex') === digest)!.keyId;
};

/** The video ids of a results page, in their order. */
const idsOf = (html: string): string[] => [...html.matchAll(/<h2><a href="\/app\/videos\/([\w-]{11})"/g)].map((m) => m[1]!);
const nextOf = (html: string): string | null => {
  const m = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(html);
  return m === null ? null : m[1]!.replaceAll('&amp;', '&');
};

describe('web app search page /app/search', function () {
  let api: TestApi;
  let cookie: string;
  const page = (path: string, key = cookie): Promise<Response> => api.get(path, { key: null, headers: { Cookie: key } });

  beforeEach(async () => {
    api = await startApi();
    api.now = T0;
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Followed <one>' }, T0);
    await api.store.registerChannel({ channelId: OTHER_CHANNEL, wanted: 10, title: 'Other' }, T0);
    await api.store.follow(keyIdOf(api, KEY), [{ channelId: CHANNEL, title: 'Followed <one>' }], 'feed', 10, T0);
    cookie = sessionOf(await signIn(api, KEY));
  });
  afterEach(async () => api.close());

  async function store(n: number, channelId: string, text: string): Promise<string> {
    const v = video(n, { channelId, title: `Talk ${n}`, language: 'en' });
    await api.store.upsertVideos([v], [transcriptRecord(v, [{ startMs: 0, text: 'Hello.' }, { startMs: 65_000, text }])]);
    return v.videoId;
  }

  it('searches everything, one channel or the channels the key follows, as GET /search scopes, with a feed link to the same search and no key', async () => {
    const mine = await store(1, CHANNEL, 'Türkçe konuşuyoruz.');
    const other = await store(2, OTHER_CHANNEL, 'Biraz TÜRKÇE.');
    // A query without the Turkish letters finds them, as the feed folds.
    const all = await (await page(`/app/search?q=turkce`)).text();
    expect(idsOf(all)).to.deep.equal([mine, other]);
    expect(all).to.contain(`href="/app/videos/${mine}#t=65"`).and.contain('<mark>Türkçe</mark> konuşuyoruz.').and.contain('<mark>TÜRKÇE</mark>');
    expect(all).to.contain(`<a href="/app/channels/${CHANNEL}">Followed &lt;one></a>`).and.contain(`<a href="/app/channels/${OTHER_CHANNEL}">Other</a>`);
    expect(all).to.match(/<time datetime="2024-/);
    expect(all).to.contain(`href="${api.base}/search?q=turkce"`).and.contain('<option value selected>Everything</option>');

    const followed = await (await page(`/app/search?q=turkce&subscriptions=1`)).text();
    expect(idsOf(followed)).to.deep.equal([mine]);
    expect(followed).to.contain(`href="${api.base}/search?q=turkce&amp;subscriptions=1"`).and.contain('<option value="1" selected>Channels I follow</option>');

    const one = await (await page(`/app/search?q=turkce&channel_id=${OTHER_CHANNEL}`)).text();
    expect(idsOf(one)).to.deep.equal([other]);
    expect(one).to.contain(`name="channel_id" type="checkbox" value="${OTHER_CHANNEL}" checked`).and.contain('Only in Other');
    expect(one).to.contain(`href="${api.base}/search?q=turkce&amp;channel_id=${OTHER_CHANNEL}"`);
    for (const html of [all, followed, one]) expect(html).not.to.contain(KEY);
  });

  it('pages 45 hits as 20, 20 and 5, newest first, never repeating or skipping one when a newer hit is stored between pages', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 45; n++) ids.push(await store(n, n % 2 === 0 ? CHANNEL : OTHER_CHANNEL, `Pelicans, part ${n}.`));
    const first = await (await page('/app/search?q=pelicans')).text();
    expect(idsOf(first)).to.deep.equal(ids.slice(0, 20));
    const second = nextOf(first);
    expect(second).to.match(/^\/app\/search\?q=pelicans&page=2&before=\d+\.vid00000020$/);
    // A newer hit arrives: the next page still follows the first page's last hit.
    await store(0, CHANNEL, 'A brand new pelicans story.');
    const two = await (await page(second!)).text();
    expect(idsOf(two)).to.deep.equal(ids.slice(20, 40));
    expect(two).to.contain('<ol start="21">');
    const three = await (await page(nextOf(two)!)).text();
    expect(idsOf(three)).to.deep.equal(ids.slice(40));
    expect(nextOf(three)).to.equal(null);
    // The scope goes with the pages.
    const mineFirst = await (await page('/app/search?q=pelicans&subscriptions=1')).text();
    expect(idsOf(mineFirst)).to.deep.equal(['vid00000000', ...ids.filter((_, i) => (i + 1) % 2 === 0).slice(0, 19)]);
    const mineNext = await (await page(nextOf(mineFirst)!)).text();
    expect(idsOf(mineNext)).to.deep.equal(ids.filter((_, i) => (i + 1) % 2 === 0).slice(19));
    expect(nextOf(mineNext)).to.equal(null);
  });

  it('says every refusal of GET /search in its words and status, a bad scope and an unknown handle included, never a 500', async () => {
    const cases: [string, number, string][] = [
      [`/app/search?q=${'a'.repeat(201)}`, 400, errorBody('searchQueryTooLong').error],
      ['/app/search?q=a&subscriptions=2', 400, errorBody('invalidSubscriptionsScope').error],
      ['/app/search?q=a&channel_id=nope', 400, errorBody('invalidChannelId').error],
      ['/app/search?q=a&subscriptions=1&subscriptions=1', 400, errorBody('repeatedParameter', { param: 'subscriptions' }).error],
      ['/app/search?q=***', 400, errorBody('searchNoWords').error],
      ['/app/search?q=a&channel=%40nobody-here', new ApiError('unknownHandle').status, errorBody('unknownHandle', { handle: '@nobody-here' }).error],
    ];
    for (const [path, status, words] of cases) {
      const res = await page(path);
      const html = await res.text();
      expect(res.status, path).to.equal(status);
      expect(html, path).to.contain('role="alert"').and.contain(words.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;'));
    }
    // No text yet: the form, whatever scope was picked.
    const bare = await page('/app/search?subscriptions=1');
    expect(bare.status).to.equal(200);
    expect(await bare.text()).to.contain('<option value="1" selected>Channels I follow</option>').and.not.contain('role="alert"');
  });

  it('counts signed-in pages against the key\'s rate limit with its feed requests: then a page saying the wait, 429 and Retry-After; the stylesheet is not counted', async () => {
    const limited = sessionOf(await signIn(api, LIMITED_KEY)); // 3 a minute
    expect((await page('/app/search', limited)).status).to.equal(200);
    expect((await api.get('/search?q=a', { key: LIMITED_KEY })).status).to.equal(200);
    const last = await page('/app/', limited);
    expect(last.status).to.equal(200);
    expect(last.headers.get('x-ratelimit-remaining')).to.equal('0');
    for (let i = 0; i < 3; i++) expect((await api.get(STYLESHEET_URL, { key: null, headers: { Cookie: limited } })).status).to.equal(200);
    const over = await page('/app/search?q=a', limited);
    expect(over.status).to.equal(429);
    expect(over.headers.get('retry-after')).to.equal('59'); // T0 is one second into its minute
    expect(over.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await over.text()).to.contain('try again in 59 seconds').and.contain('role="alert"');
    // The JSON API sees the same count; another key's pages are not limited by it.
    expect((await api.get('/search?q=a', { key: LIMITED_KEY })).status).to.equal(429);
    expect((await page('/app/search?q=a')).status).to.equal(200);
    api.now = new Date(T0.getTime() + 60_000);
    expect((await page('/app/', limited)).status).to.equal(200);
  });
});
