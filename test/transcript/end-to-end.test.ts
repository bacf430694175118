// End to end: the real crawler (in process) against the fake platform over HTTP
// stores into the API's SQLite store; the real app answers the feeds. Timestamps are the cues'
// start times, chapters come from the description, Shorts and streams are out unless included,
// an upcoming premiere is never listed, and lang=tr on an English channel gives the platform's
// Turkish translation.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { Scheduler } from '../../crawler/scheduler';
import { realTiming } from '../../crawler/timing';
import { CHANNEL, startApi, type TestApi } from '../api/support';
import { captureLogs } from '../support/logs';
import { startFakePlatform, type FakeChannelSpec, type FakeCue, type FakePlatform } from '../fake-platform';
import { jsonFeedViolations } from './json-feed-rules';
import { startInProcessCrawler } from '../crawler/support/in-process-crawler';
import { until } from '../support/poll';
import { refreshAll } from '../support/refresh';

const CUES: FakeCue[] = [
  { start: 0.5, dur: 3, text: 'Welcome back.' },
  { start: 4, dur: 3, text: 'Today we bake bread.' },
  // A sentence running 0.1 s over the 0:30 chapter start: kept whole, before the heading.
  { start: 28.5, dur: 1.4, text: 'Now mix it' },
  { start: 30.1, dur: 1, text: 'all together.' },
  { start: 31.2, dur: 3, text: 'First, the flour.' },
  { start: 95.7, dur: 3, text: 'Now we knead.' },
  { start: 99, dur: 3, text: 'Keep kneading.' },
];
const DESCRIPTION = 'How I bake bread at home.\n\n0:00 Intro\n0:30 Flour\n1:30 Kneading\n\nMore: https://example.com';

const day = (d: number): Date => new Date(Date.UTC(2026, 6, d, 12));
const SPEC: FakeChannelSpec = {
  channelId: CHANNEL,
  handle: 'bakery',
  title: 'The Bakery',
  videos: [
    { videoId: 'premiere001', title: 'Coming soon', publishedAt: day(20), captions: 'none', live: 'upcoming' },
    { videoId: 'shortclip01', title: 'A Short', publishedAt: day(19), captions: 'manual', short: true },
    { videoId: 'livestream1', title: 'A stream', publishedAt: day(18), captions: 'automatic', live: 'stream' },
    { videoId: 'breadvideo1', title: 'Bread', publishedAt: day(17), captions: 'manual', cues: CUES, description: DESCRIPTION },
    { videoId: 'oldervideo1', title: 'Older', publishedAt: day(16), captions: 'manual' },
  ],
};

describe('entries end to end: crawler → store → feeds', function () {
  this.timeout(60_000);
  let fake: FakePlatform;
  let api: TestApi;
  let scheduler: Scheduler;
  let logs: ReturnType<typeof captureLogs>;

  before(async () => {
    fake = await startFakePlatform({ channels: [SPEC] });
    api = await startApi();
    logs = captureLogs();
    // The first feed request registers the channel as work (404 until something is stored).
    api.now = new Date();
    expect((await api.get(`/?channel_id=${CHANNEL}`)).status).to.equal(404);
    // A reader of Turkish: the crawler learns the language from the request, as it learns max_items.
    expect((await api.get(`/?channel_id=${CHANNEL}&lang=tr`)).status).to.equal(404);
    scheduler = startInProcessCrawler({ fakeUrl: fake.url, configDir: api.dir, store: api.store, timing: realTiming, logger: logs.logger, owner: 'entries-e2e' });
    await until('the run to end', () => logs.lines.some((l) => l.msg === 'run ended'), 30_000);
  });
  after(async () => {
    await scheduler.stop();
    await api.close();
    await fake.close();
  });

  const items = async (query = ''): Promise<{ id: string; content_html: string }[]> => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json${query}`);
    expect(res.status, query).to.equal(200);
    const doc = (await res.json()) as { items: { id: string; content_html: string }[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    return doc.items;
  };

  it('stores each video with the kind the listing and player answers tell', async () => {
    const stored = new Map((await api.store.getVideos(SPEC.videos.map((v) => v.videoId))).map((v) => [v.videoId, v]));
    expect(stored.get('breadvideo1')).to.deep.include({ videoKind: 'regular', description: DESCRIPTION, state: 'ready' });
    expect(stored.get('shortclip01')!.videoKind).to.equal('short');
    expect(stored.get('livestream1')!.videoKind).to.equal('live');
    expect(stored.get('premiere001')).to.deep.include({ videoKind: 'upcoming', state: 'no_transcript' });
    expect(stored.get('breadvideo1')!.durationSeconds).to.be.a('number').and.at.least(99);
  });

  it('lists regular videos by default; include adds Shorts and streams; the premiere never', async () => {
    expect((await items()).map((i) => i.id)).to.deep.equal(['breadvideo1', 'oldervideo1']);
    expect((await items('&include=shorts')).map((i) => i.id)).to.deep.equal(['shortclip01', 'breadvideo1', 'oldervideo1']);
    expect((await items('&include=live')).map((i) => i.id)).to.deep.equal(['livestream1', 'breadvideo1', 'oldervideo1']);
    expect((await items('&include=shorts,live&max_items=100')).map((i) => i.id)).not.to.include('premiere001');
  });

  it('links each paragraph to its first cue\'s start and heads each chapter', async () => {
    const bread = (await items()).find((i) => i.id === 'breadvideo1')!;
    const stamps = [...bread.content_html.matchAll(/<p><a href="https:\/\/youtube\.com\/watch\?v=breadvideo1&amp;t=(\d+)s">([\d:]+)<\/a>/g)].map((m) => [Number(m[1]), m[2]]);
    // The paragraph right under "0:00 Intro" starts that same second: the heading's link is not repeated.
    expect(stamps).to.deep.equal([[28, '0:28'], [31, '0:31'], [95, '1:35']]);
    const lines = bread.content_html.split('\n');
    expect(lines[2]).to.equal('<p>Welcome back. Today we bake bread.</p>');
    // The sentence over the chapter start stays whole, in the paragraph before the chapter's heading.
    const whole = lines.findIndex((l) => l.endsWith(' Now mix it all together.</p>'));
    expect(whole).to.be.above(0);
    expect(lines[whole + 1]).to.match(/^<h3><a href="[^"]*t=30s">0:30<\/a> Flour<\/h3>$/);
    for (const [s] of stamps) expect(CUES.some((c) => Math.floor(c.start) === s)).to.equal(true);
    const chapters = [...bread.content_html.matchAll(/<h3><a href="[^"]*t=(\d+)s">[\d:]+<\/a> ([^<]*)<\/h3>/g)].map((m) => [Number(m[1]), m[2]]);
    expect(chapters).to.deep.equal([[0, 'Intro'], [30, 'Flour'], [90, 'Kneading']]);
  });

  it('shows the summary, thumbnail and duration in Atom as well', async () => {
    const atom = await (await api.get(`/?channel_id=${CHANNEL}`)).text();
    expect(atom).to.include('<summary type="text">How I bake bread at home. More: https://example.com</summary>');
    expect(atom).to.include('<media:thumbnail url="https://i.ytimg.com/vi/breadvideo1/hqdefault.jpg" width="480" height="360"></media:thumbnail>');
    expect(atom).to.match(/<media:content url="https:\/\/youtube\.com\/watch\?v=breadvideo1" medium="video" duration="\d+"><\/media:content>/);
    expect(atom).to.include('<author><name>The Bakery</name></author>');
  });

  it('lang=tr on an English channel shows the Turkish translation, with the same timestamps', async () => {
    const html = (list: { id: string; content_html: string }[]) => list.find((i) => i.id === 'breadvideo1')!.content_html;
    const english = html(await items());
    const turkish = html(await items('&lang=tr'));
    expect(english.split('\n')[0]).to.equal('<p><small>Transcript: English (en), manual captions</small></p>');
    expect(turkish.split('\n')[0]).to.equal('<p><small>Transcript: Turkish (tr), machine-translated captions</small></p>');
    expect(turkish).to.include('[tr] Welcome back.');
    const stamps = (h: string) => [...h.matchAll(/t=(\d+)s/g)].map((m) => m[1]);
    expect(stamps(turkish)).to.deep.equal(stamps(english));
    // The video's own language comes before a translation.
    expect(html(await items('&lang=tr,en'))).to.equal(english);
    const tr = await api.get(`/?channel_id=${CHANNEL}&lang=tr`);
    const plain = await api.get(`/?channel_id=${CHANNEL}`);
    expect(tr.headers.get('etag')).not.to.equal(plain.headers.get('etag'));
    expect(await api.store.wantedLanguages(CHANNEL, 5, new Date())).to.have.members(['tr', 'en']);
  });

  it('marks each entry with the language it shows: Atom content xml:lang (the root stays en), RSS dc:language, JSON Feed language', async () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
    const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
    for (const [query, lang] of [['', 'en'], ['&lang=tr', 'tr']] as const) {
      const atom = parser.parse(await (await api.get(`/?channel_id=${CHANNEL}${query}`)).text()) as { feed: { '@xml:lang': string; entry: { content: { '@xml:lang': string } }[] } };
      expect(atom.feed['@xml:lang']).to.equal('en');
      expect(atom.feed.entry.map((e) => e.content['@xml:lang']), query).to.deep.equal(['breadvideo1', 'oldervideo1'].map(() => lang));
      const rssText = await (await api.get(`/?channel_id=${CHANNEL}&format=Rss${query}`)).text();
      const rss = parser.parse(rssText) as { rss: { '@xmlns:dc': string; channel: { language: string; item: { 'dc:language': string }[] } } };
      expect(rss.rss['@xmlns:dc']).to.equal('http://purl.org/dc/elements/1.1/');
      expect(rss.rss.channel.language).to.equal('en');
      expect(list(rss.rss.channel.item).map((i) => i['dc:language']), query).to.deep.equal([lang, lang]);
      expect((await items(query)).map((i) => (i as { language?: string }).language), query).to.deep.equal([lang, lang]);
    }
  });

  it('a language asked for after the videos were stored is fetched for them on the next run, once', async () => {
    const runs = (): number => logs.lines.filter((l) => l.msg === 'run ended').length;
    const nextRun = async (): Promise<void> => {
      const before = runs();
      await refreshAll(api.store, new Date());
      scheduler.wake();
      await until('the next run to end', () => runs() > before, 30_000);
    };
    // Counted from before the request: a language new to the channel makes it due, and the crawler
    // may start on it before the next line runs.
    fake.resetCounters();
    expect((await api.get(`/?channel_id=${CHANNEL}&lang=de`)).status).to.equal(200);
    await nextRun();
    // The two listed regular videos, the Short and the stream are ready: each fetched again, with
    // German (translated) and the languages asked before; nothing else.
    expect(fake.counters.player).to.equal(4);
    const bread = (await items('&lang=de')).find((i) => i.id === 'breadvideo1')!.content_html;
    expect(bread.split('\n')[0]).to.equal('<p><small>Transcript: German (de), machine-translated captions</small></p>');
    expect(bread).to.include('[de] Welcome back.');
    // Covered now: the next run does not fetch them again.
    fake.resetCounters();
    await nextRun();
    expect(fake.counters.player).to.equal(0);
  });
});
