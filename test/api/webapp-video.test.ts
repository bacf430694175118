// The web app's transcript page (issue 29 item 4) against the real API on port 0 and a real SQLite
// store: the creator's chapters as a table of contents, the switch among stored languages and the
// asking of an offered machine translation (`?tl=`), VTT/SRT/TXT downloads served to the session
// and refused without one, the stored summary labelled as the model's, the find box without
// JavaScript, hostile platform texts inert; then in Chromium under the strict CSP with axe-core:
// `#t=65` opening at that moment (paragraph marked, player seeked once listening), the fake
// player's infoDelivery moving the mark, a chapter link seeking, the language switch, the find box.

import { expect } from 'chai';
import type { Browser } from 'playwright';
import { defaultSummaryKey } from '../../api/feed/summaries';
import type { TranscriptRecord } from '../../shared/store/types';
import { startFakeEmbed, type FakeEmbed } from '../support/fake-embed';
import { transcriptRecord } from '../support/factories';
import { axeClean, CHROMIUM, launchChromium, signedInContext, watch } from './webapp-browser';
import { sessionOf, signIn } from './webapp-support';
import { CHANNEL, KEY, startApi, T0, video, type TestApi } from './support';

const HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(2)> \u202Eevil\u202C';
const DESCRIPTION = [
  'What this is about.',
  '0:00 Intro',
  `1:05 Part two ${HOSTILE}`,
  '2:00 javascript:alert(3)',
].join('\n');
const PARAGRAPHS = [
  { startMs: 0, text: 'Hello and welcome.' },
  { startMs: 65_000, text: `Türkçe: çğıöşü ${HOSTILE}` },
  { startMs: 120_000, text: 'The third part (.*) begins.' },
  { startMs: 200_000, text: 'Thanks for watching.' },
];
const TURKISH: TranscriptRecord['paragraphs'] = [
  { startMs: 0, text: 'Merhaba, hoş geldiniz.' },
  { startMs: 65_000, text: 'İkinci bölüm.' },
];

describe('web app transcript page /app/videos/<id>', function () {
  let api: TestApi;
  let embed: FakeEmbed;
  let videoId: string;
  let cookie: string;
  before(async () => {
    embed = await startFakeEmbed();
  });
  after(async () => embed.close());
  beforeEach(async () => {
    api = await startApi({ playerEmbedUrl: embed.url });
    api.now = T0;
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: `Talks ${HOSTILE}` }, T0);
    const v = video(1, { title: `Title ${HOSTILE}`, description: DESCRIPTION, durationSeconds: 3723, language: 'en', kind: 'manual', offeredLanguages: ['en', 'tr', 'de'] });
    videoId = v.videoId;
    await api.store.upsertVideos([v], [
      { ...transcriptRecord(v, PARAGRAPHS), language: 'en', kind: 'manual' },
      { ...transcriptRecord(v, TURKISH), language: 'tr', kind: 'translated' },
    ]);
    const key = defaultSummaryKey();
    await api.store.putSummary({
      videoId, language: key.language, promptVersion: key.promptVersion, transcriptLanguage: 'en', model: 'model-x',
      points: [{ seconds: 65, text: `The second part ${HOSTILE}` }, { seconds: 120, text: 'The third part.' }],
      promptTokens: 10, completionTokens: 5, madeAt: T0,
    }, 'test');
    cookie = sessionOf(await signIn(api, KEY));
  });
  afterEach(async () => api.close());

  const page = async (query = ''): Promise<{ status: number; html: string }> => {
    const res = await api.get(`/app/videos/${videoId}${query}`, { key: null, headers: { Cookie: cookie } });
    return { status: res.status, html: await res.text() };
  };

  it('links the video\'s channel by its stored title, as text', async () => {
    const { html } = await page();
    const link = /<a href="\/app\/channels\/([^"]+)">([^<]*)<\/a>/.exec(html);
    expect(link?.[1]).to.equal(CHANNEL);
    expect(link?.[2]).to.equal('Talks &lt;script>alert(1)&lt;/script> &quot;>&lt;img src=x onerror=alert(2)> evil');
  });

  it('shows the creator\'s chapters as a table of contents, each linking to its time, and #t= ids that work without JavaScript', async () => {
    const { status, html } = await page();
    expect(status).to.equal(200);
    expect(html).to.contain('<nav class="chapters" aria-labelledby="chapters"><h2 id="chapters">Chapters</h2><ol>');
    expect(html).to.contain('<a href="#t=0" data-seconds="0">0:00 Intro</a>').and.contain('<a href="#t=120" data-seconds="120">2:00 javascript:alert(3)</a>');
    // Each #t=<s> names one element: a chapter's heading, else the time link of the paragraph of that second.
    for (const s of [0, 65, 120, 200]) expect(html.split(`id="t=${s}"`).length - 1, `id t=${s}`).to.equal(1);
    expect(html).to.contain('<h3 id="t=65"><a href="https://youtube.com/watch?v=vid00000001&amp;t=65s" class="time" data-seconds="65">1:05</a> Part two');
    expect(html).to.contain('<p id="t200" data-start="200"><a id="t=200" href="https://youtube.com/watch?v=vid00000001&amp;t=200s" class="time" data-seconds="200">3:20</a>');
  });

  it('switches among the stored languages with ?tl=, and asks the crawler for an offered machine translation', async () => {
    const en = await page();
    expect(en.html).to.contain('<label for="tl">Transcript language</label>').and.contain('<option value="en" selected>English (en) · manual captions</option>');
    expect(en.html).to.contain('<option value="tr">Turkish (tr) · machine translation</option>');
    expect(en.html).to.contain('<optgroup label="Machine translation, fetched on request"><option value="de">German (de)</option></optgroup>');
    expect(en.html).to.contain('<section class="transcript" aria-labelledby="transcript" lang="en">');

    const tr = await page('?tl=tr');
    expect(tr.html).to.contain('<section class="transcript" aria-labelledby="transcript" lang="tr">').and.contain('İkinci bölüm.').and.not.contain('Thanks for watching.');
    expect(tr.html).to.contain(`href="/app/videos/${videoId}.vtt?tl=tr"`);
    // The page's own words stay English: ?tl= is not the UI switch (?lang=).
    expect(tr.html).to.contain('<html lang="en">');
    expect(await api.store.wantedLanguages(CHANNEL, 8, T0)).to.deep.equal([]);

    const de = await page('?tl=de');
    expect(de.status).to.equal(200);
    expect(de.html).to.contain('The machine translation into German (de) is asked for').and.contain('Thanks for watching.');
    expect(await api.store.wantedLanguages(CHANNEL, 8, T0)).to.deep.equal(['de']);
    // A language the platform never offered is not asked (it would cost a player call for nothing), nor a malformed one.
    await page('?tl=fr');
    await page('?tl=%3Cscript%3E');
    expect(await api.store.wantedLanguages(CHANNEL, 8, T0)).to.deep.equal(['de']);
  });

  it('serves VTT, SRT and TXT to the session through app routes, never a link with the key, and refuses them without one', async () => {
    const { html } = await page();
    for (const ext of ['vtt', 'srt', 'txt']) expect(html).to.contain(`href="/app/videos/${videoId}.${ext}?tl=en"`);
    expect(html).not.to.contain('api_key').and.not.to.contain(KEY);
    const vtt = await api.get(`/app/videos/${videoId}.vtt`, { key: null, headers: { Cookie: cookie } });
    expect(vtt.status).to.equal(200);
    expect(vtt.headers.get('content-type')).to.equal('text/vtt; charset=utf-8');
    expect(vtt.headers.get('content-disposition')).to.equal(`attachment; filename="${videoId}.en.vtt"`);
    const body = await vtt.text();
    expect(body).to.match(/^WEBVTT\n/).and.contain('00:01:05.000 --> 00:02:00.000\nTürkçe: çğıöşü &lt;script&gt;');
    const srt = await api.get(`/app/videos/${videoId}.srt?tl=tr`, { key: null, headers: { Cookie: cookie } });
    expect(srt.headers.get('content-language')).to.equal('tr');
    expect(await srt.text()).to.contain('00:01:05,000 --> ').and.contain('İkinci bölüm.');
    const txt = await api.get(`/app/videos/${videoId}.txt`, { key: null, headers: { Cookie: cookie } });
    expect(txt.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(await txt.text()).to.contain('Thanks for watching.');

    const refused = await api.get(`/app/videos/${videoId}.vtt`, { key: null });
    expect(refused.status).to.equal(401);
    expect(await refused.text()).to.contain('API key').and.not.contain('Thanks for watching.');
    // Nor does a key in a header stand for a session here.
    expect((await api.get(`/app/videos/${videoId}.txt`, { key: KEY })).status).to.equal(401);
    expect((await api.get('/app/videos/AAAAAAAAAAA.vtt', { key: null, headers: { Cookie: cookie } })).status).to.equal(404);
  });

  it('shows the stored summary above the transcript, labelled as the model\'s, and no summary section without one', async () => {
    const { html } = await page();
    expect(html).to.contain('<section class="summary" aria-labelledby="summary"><h2 id="summary">Summary</h2><p class="muted">Written by a language model (model-x) from the transcript; it can be wrong.</p>');
    expect(html.indexOf('id="summary"')).to.be.lessThan(html.indexOf('id="transcript"'));
    expect(html).to.contain('data-seconds="65">1:05</a> The second part &lt;script>');
    await api.store.dropSummaries(defaultSummaryKey());
    expect((await page()).html).not.to.contain('id="summary"');
  });

  it('keeps every platform and model text inert: titles, descriptions, chapters, transcripts, summaries', async () => {
    for (const q of ['', '?tl=tr', '?find=%3Cscript%3E']) {
      const { html } = await page(q);
      expect(html).not.to.contain('<script>alert').and.not.to.contain('<img').and.not.to.contain('href="javascript:');
      expect(html.match(/<script/g)).to.have.length(1); // the page's own player.<hash>.js, nothing else
      expect(html).to.contain('&lt;img src=x onerror=alert(2)>');
    }
  });

  it('finds in the transcript without JavaScript: ?find= marks the hits and hides the other paragraphs', async () => {
    const { html } = await page('?find=t%C3%BCrk%C3%A7e');
    expect(html).to.contain('name="find" type="search" value="türkçe"');
    expect(html).to.contain('<span class="said"><mark>Türkçe</mark>: çğıöşü');
    expect(html).to.contain('<p id="t0" data-start="0" hidden>').and.contain('Paragraphs holding it: 1.');
    // The text is a literal, never a pattern.
    const literal = await page('?find=(.*)');
    expect(literal.status).to.equal(200);
    expect(literal.html).to.contain('The third part <mark>(.*)</mark> begins.').and.contain('Paragraphs holding it: 1.');
    expect((await page('?find=nowhere')).html).to.contain('No paragraph matches.');
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) this.skip();
      browser = await launchChromium();
    });
    after(async () => browser?.close());
    this.timeout(60_000);

    const looks = [{ name: 'desktop, light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' as const }, { name: 'phone, dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' as const }];
    for (const { name, ...look } of looks) it(`opens #t=65 at that moment, marks the paragraph the player speaks, seeks from a chapter, switches language and finds, axe clean and under the CSP (${name})`, async () => {
      const context = await signedInContext(browser, api, KEY, look);
      const tab = await context.newPage();
      const problems = await watch(tab);
      await tab.goto(`${api.base}/app/videos/${videoId}#t=65`);
      const at65 = tab.locator('p[data-start="65"]');
      await tab.locator('p[data-start="65"][aria-current="true"]').waitFor();
      // The player is seeked once it has answered our `listening`: a seek, and no play asked.
      const player = tab.frameLocator('#player');
      await player.getByText('seeked to 65').waitFor();
      const frame = tab.frames().find((f) => f.url().startsWith(`${embed.url}/${videoId}`))!;
      expect(await frame.evaluate('window.commands')).to.deep.equal([{ origin: api.base, func: 'seekTo', args: [65, true], id: 1, channel: 'widget' }]);
      expect(await frame.evaluate('window.ignored')).to.deep.equal([]);
      await axeClean(tab);

      // The player plays on: its infoDelivery moves the mark.
      await frame.evaluate('window.playTo(125)');
      await tab.locator('p[data-start="120"][aria-current="true"]').waitFor();
      expect(await at65.getAttribute('aria-current')).to.equal(null);
      expect(await tab.locator('p.now').count()).to.equal(1);

      // A chapter in the table of contents seeks the player and marks its paragraph.
      await tab.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: '0:00 Intro' }).click();
      await player.getByText('seeked to 0').waitFor();
      await tab.locator('p[data-start="0"][aria-current="true"]').waitFor();
      expect(tab.url()).to.equal(`${api.base}/app/videos/${videoId}#t=0`);

      // The find box filters as one types, and says how many paragraphs hold the text.
      await tab.getByLabel('Find in transcript').fill('türkçe');
      await tab.getByText('Paragraphs holding it: 1.').waitFor();
      expect(await tab.locator('p[data-start]:visible').count()).to.equal(1);
      expect(await tab.locator('p[data-start="65"] mark').textContent()).to.equal('Türkçe');
      await axeClean(tab);
      await tab.getByLabel('Find in transcript').fill('');
      expect(await tab.locator('p[data-start]:visible').count()).to.equal(4);

      // The language switch.
      await tab.getByLabel('Transcript language').selectOption('tr');
      await tab.getByRole('button', { name: 'Show' }).click();
      await tab.getByText('İkinci bölüm.').waitFor();
      expect(new URL(tab.url()).searchParams.get('tl')).to.equal('tr');
      expect(await tab.locator('section.transcript').getAttribute('lang')).to.equal('tr');
      await axeClean(tab);

      expect(problems).to.deep.equal([]);
      expect(await tab.evaluate('window.violations')).to.deep.equal([]);
      await context.close();
    });

    it('without JavaScript: #t=200 scrolls to its element, the find box is a form, the time links open the platform', async () => {
      const context = await signedInContext(browser, api, KEY, { viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
      const tab = await context.newPage();
      await tab.goto(`${api.base}/app/videos/${videoId}#t=200`);
      await tab.locator('[id="t=200"]').waitFor();
      expect(await tab.locator('[id="t=200"]').isVisible()).to.equal(true);
      // In the viewport of a phone, far below the player: the browser scrolled to it by its id (boundingBox is the viewport's, no page script).
      const box = (await tab.locator('[id="t=200"]').boundingBox())!;
      expect(box.y, 'scrolled to the paragraph').to.be.within(0, 844 - box.height);
      // No page script ran (it would have marked the paragraph).
      expect(await tab.locator('p[data-start="200"]').getAttribute('aria-current')).to.equal(null);
      expect(await tab.getByRole('link', { name: '3:20' }).getAttribute('href')).to.equal(`https://youtube.com/watch?v=${videoId}&t=200s`);
      await tab.getByLabel('Find in transcript').fill('welcome');
      await tab.getByRole('button', { name: 'Find' }).click();
      await tab.getByText('Paragraphs holding it: 1.').waitFor();
      expect(new URL(tab.url()).searchParams.get('find')).to.equal('welcome');
      await context.close();
    });
  });
});
