// GET /search over real HTTP on the real app and a real SQLite store: every query form, the
// literal handling of engine syntax (a table of hostile queries), <mark> and timestamps on a
// seeded corpus, Turkish and accented text, scope, formats, validators and 304s.

import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { asArray, CHANNEL, KEY, LIMITED_KEY, OTHER_CHANNEL, startApi, video, type TestApi } from './support';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

type AtomEntry = { id: string; title: string; author?: { name: string }; content: { '#text': string }; link: { '@href': string; '@rel'?: string }[] };
/** The spec's own link of an entry (to the platform), beside its rel="related" link to the web app. */
const platformLink = (e: AtomEntry): string | undefined => e.link.find((l) => l['@rel'] === undefined)?.['@href'];
type AtomDoc = { feed: { id: string; title: string; link: { '@href': string; '@rel'?: string }[]; entry?: AtomEntry | AtomEntry[] } };

function transcript(videoId: string, texts: readonly string[], language = 'en', startsMs?: readonly number[]): TranscriptRecord {
  return { videoId, language, kind: 'manual', paragraphs: texts.map((text, i) => ({ startMs: startsMs?.[i] ?? i * 60_000 + 5_000, text })), fetchedAt: new Date(Date.UTC(2024, 5, 1)) };
}

const CORPUS: { video: VideoRecord; transcripts: TranscriptRecord[] }[] = [
  {
    video: video(1, { title: 'Open source in İstanbul' }),
    transcripts: [transcript('vid00000001', ['Welcome to the meetup.', 'We talk about open source software & <tools>.', 'More open source: it is open, and the source is open.'])],
  },
  { video: video(2, { title: 'Doors' }), transcripts: [transcript('vid00000002', ['Open the door.', 'Source code is here.'])] },
  { video: video(3, { title: 'Gezi' }), transcripts: [transcript('vid00000003', ['Bir ISTANBUL gezisi ve açık kaynak.', 'Café and crème brûlée in ıstanbul.'], 'tr', [0, 3_725_000])] },
  { video: video(4, { channelId: OTHER_CHANNEL, title: 'Cats' }), transcripts: [transcript('vid00000004', ['Cats and dogs in Istanbul.'])] },
];

async function atom(res: Response): Promise<{ doc: AtomDoc; entries: AtomEntry[] }> {
  expect(res.status, await res.clone().text()).to.equal(200);
  const doc = xml.parse(await res.text()) as AtomDoc;
  return { doc, entries: asArray(doc.feed.entry) };
}

describe('API search endpoint over HTTP', () => {
  let api: TestApi;
  const ids = async (query: string): Promise<string[]> => (await atom(await api.get(`/search?q=${encodeURIComponent(query)}`))).entries.map((e) => e.id);

  beforeEach(async () => {
    api = await startApi({ known: { veritasium: CHANNEL, other: OTHER_CHANNEL } });
    await api.store.upsertVideos(CORPUS.map((c) => c.video), CORPUS.flatMap((c) => c.transcripts));
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Kanal & <Bir>' }, api.now);
  });
  afterEach(() => api.close());

  it('needs a key', async () => {
    expect((await api.get('/search?q=open', { key: null })).status).to.equal(401);
  });

  it('answers every query form', async () => {
    expect(await ids('source OPEN')).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(await ids('"open source"')).to.deep.equal(['vid00000001']);
    expect(await ids('open -meetup')).to.deep.equal(['vid00000002']);
    expect(await ids('meetup OR door')).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(await ids('istanbul')).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004']);
    expect(await ids('İSTANBUL cafe creme')).to.deep.equal(['vid00000003']);
    expect(await ids('açık kaynak')).to.deep.equal(['vid00000003']);
    expect(await ids('acik')).to.deep.equal(['vid00000003']);
  });

  it('shows the matching paragraphs with timestamp links and <mark>, then the whole transcript', async () => {
    const { entries } = await atom(await api.get(`/search?q=${encodeURIComponent('"open source"')}&api_key=${KEY}`, { key: null }));
    const [e] = entries;
    expect(e!.title).to.equal('Open source in İstanbul');
    expect(platformLink(e!)).to.equal('https://youtube.com/watch?v=vid00000001&t=65s');
    expect(e!.link.find((l) => l['@rel'] === 'related')?.['@href']).to.equal(`${api.base}/app/videos/vid00000001`);
    expect(e!.author?.name).to.equal('Kanal & <Bir>');
    const html = e!.content['#text'];
    expect(html.split('\n')).to.deep.equal([
      '<p><a href="https://youtube.com/watch?v=vid00000001&amp;t=65s">1:05</a> We talk about <mark>open source</mark> software &amp; &lt;tools&gt;.</p>',
      '<p><a href="https://youtube.com/watch?v=vid00000001&amp;t=125s">2:05</a> More <mark>open source</mark>: it is open, and the source is open.</p>',
      `<p><a href="${api.base}/?channel_id=${CHANNEL}&amp;api_key=${KEY}">Whole transcript</a></p>`,
    ]);
  });

  it('marks every word of the query in Turkish and accented text, at the original letters', async () => {
    const { entries } = await atom(await api.get(`/search?q=${encodeURIComponent('istanbul creme OR cafe')}`));
    const html = entries[0]!.content['#text'];
    expect(html).to.include('<a href="https://youtube.com/watch?v=vid00000003&amp;t=0s">0:00</a> Bir <mark>ISTANBUL</mark> gezisi ve açık kaynak.');
    expect(html).to.include('<a href="https://youtube.com/watch?v=vid00000003&amp;t=3725s">1:02:05</a> <mark>Café</mark> and <mark>crème</mark> brûlée in <mark>ıstanbul</mark>.');
    expect(platformLink(entries[0]!)).to.equal('https://youtube.com/watch?v=vid00000003&t=0s');
  });

  it('shows at most five matching paragraphs', async () => {
    const many = Array.from({ length: 9 }, (_, i) => `Paragraph ${i} about pelicans.`);
    await api.store.upsertVideos([video(9)], [transcript('vid00000009', many)]);
    const { entries } = await atom(await api.get('/search?q=pelicans'));
    expect(entries[0]!.content['#text'].match(/<mark>/g)).to.have.length(5);
  });

  it('links a title-only match to the video, and says so', async () => {
    const { entries } = await atom(await api.get('/search?q=doors'));
    expect(platformLink(entries[0]!)).to.equal('https://youtube.com/watch?v=vid00000002');
    expect(entries[0]!.content['#text']).to.include('The title matches.');
  });

  it('names the query in the title, links itself without the key, and answers RSS and JSON Feed too', async () => {
    const { doc } = await atom(await api.get(`/search?q=${encodeURIComponent('open "source code"')}&api_key=${KEY}&format=atom&unknown=1`, { key: null }));
    expect(doc.feed.title).to.equal('YouTube Transcripts - search: open "source code"');
    const self = doc.feed.link.find((l) => l['@rel'] === 'self')!['@href'];
    expect(self).to.equal(`${api.base}/search?q=open+%22source+code%22&format=Atom`);
    expect(doc.feed.id).to.equal(self);

    const rss = await new Parser({ customFields: { item: ['dc:creator'] } }).parseString(await (await api.get('/search?q=istanbul&format=Rss')).text());
    expect(rss.title).to.equal('YouTube Transcripts - search: istanbul');
    expect(rss.items.map((i) => i.guid)).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004']);
    expect(rss.items[0]!['dc:creator']).to.equal('Kanal & <Bir>');
    expect(rss.items[2]!['dc:creator'], 'no title known: the channel id').to.equal(OTHER_CHANNEL);

    const json = (await (await api.get('/search?q=istanbul&format=JSON')).json()) as { title: string; items: { id: string; url: string; authors: { name: string }[] }[] };
    expect(json.items.map((i) => i.id)).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004']);
    expect(json.items[0]!.authors).to.deep.equal([{ name: 'Kanal & <Bir>' }]);
  });

  it('answers an empty feed (200) when nothing matches', async () => {
    const { doc, entries } = await atom(await api.get('/search?q=zeppelin'));
    expect(entries).to.deep.equal([]);
    expect(doc.feed.title).to.equal('YouTube Transcripts - search: zeppelin');
  });

  it('narrows to channels by id, handle or URL (repeatable, at most 20), and lists Shorts when asked', async () => {
    const scoped = async (params: string): Promise<string[]> => (await atom(await api.get(`/search?q=istanbul&${params}`))).entries.map((e) => e.id);
    expect(await scoped(`channel_id=${OTHER_CHANNEL}`)).to.deep.equal(['vid00000004']);
    expect(await scoped('channel=@veritasium')).to.deep.equal(['vid00000001', 'vid00000003']);
    expect(await scoped(`channel_url=${encodeURIComponent('https://www.youtube.com/@other')}&channel=veritasium`)).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004']);
    const tooMany = Array.from({ length: 21 }, (_, i) => `channel_id=UC${String(i).padStart(22, '0')}`).join('&');
    const res = await api.get(`/search?q=istanbul&${tooMany}`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: string }).error).to.equal('Çok fazla kanal verildi');
    expect((await api.get('/search?q=istanbul&channel_id=UCshort')).status).to.equal(400);

    await api.store.upsertVideos([video(5, { videoKind: 'short', title: 'Short about Istanbul' })], [transcript('vid00000005', ['short'])]);
    expect(await scoped('include=shorts')).to.include('vid00000005');
    expect(await scoped('')).to.not.include('vid00000005');
  });

  it('narrows to the channels the key follows with subscriptions=1', async () => {
    const keyId = createHash('sha256').update(KEY).digest('hex');
    const scoped = async (params: string, key = KEY): Promise<string[]> => (await atom(await api.get(`/search?q=istanbul&${params}`, { key }))).entries.map((e) => e.id);
    expect(await scoped('subscriptions=1'), 'following nothing: an empty feed').to.deep.equal([]);
    await api.store.follow(keyId, [{ channelId: OTHER_CHANNEL }, { handle: 'not-resolved-yet' }], 'import', 10, api.now);
    expect(await scoped('subscriptions=1')).to.deep.equal(['vid00000004']);
    expect(await scoped('subscriptions=0')).to.deep.equal(['vid00000001', 'vid00000003', 'vid00000004']);
    expect(await scoped(`subscriptions=1&channel_id=${CHANNEL}`), 'named and followed: none').to.deep.equal([]);
    expect(await scoped(`subscriptions=1&channel_id=${OTHER_CHANNEL}&channel_id=${CHANNEL}`)).to.deep.equal(['vid00000004']);
    expect(await scoped('subscriptions=1', LIMITED_KEY), "another key's list is its own").to.deep.equal([]);
    expect((await api.get('/search?q=istanbul&subscriptions=yes')).status).to.equal(400);
  });

  it('takes max_items from 1 to 100, default 20', async () => {
    await api.store.upsertVideos(Array.from({ length: 30 }, (_, i) => video(100 + i, { title: `Zebra ${i}` })));
    expect(await ids('zebra')).to.have.length(20);
    expect((await atom(await api.get('/search?q=zebra&max_items=3'))).entries).to.have.length(3);
    for (const bad of ['0', '101', 'x', '1.5']) expect((await api.get(`/search?q=zebra&max_items=${bad}`)).status, bad).to.equal(400);
  });

  it('answers 304 to its own validators, and a newly stored matching video changes them', async () => {
    const first = await api.get('/search?q=istanbul');
    const etag = first.headers.get('etag')!;
    // fetch asks for gzip: the gzip representation's ETag carries its suffix.
    expect(etag).to.match(/^"[A-Za-z0-9_-]{27}-gz"$/);
    expect(first.headers.get('last-modified')).to.equal(new Date(Date.UTC(2024, 5, 1, 0, 0, 4)).toUTCString());
    expect((await api.get('/search?q=istanbul', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect((await api.get('/search?q=istanbul', { headers: { 'If-Modified-Since': first.headers.get('last-modified')! } })).status).to.equal(304);
    expect((await api.get('/search?q=istanbul&format=Rss', { headers: { 'If-None-Match': etag } })).status, 'another format').to.equal(200);

    await api.store.upsertVideos([video(50, { title: 'Not matching' })]);
    expect((await api.get('/search?q=istanbul', { headers: { 'If-None-Match': etag } })).status, 'no new match').to.equal(304);

    await api.store.upsertVideos([video(51, { title: 'Istanbul again', fetchedAt: new Date(Date.UTC(2024, 6, 1)) })]);
    const after = await api.get('/search?q=istanbul', { headers: { 'If-None-Match': etag } });
    expect(after.status).to.equal(200);
    expect(after.headers.get('etag')).to.not.equal(etag);
    expect((await atom(after)).entries.map((e) => e.id)).to.include('vid00000051');
  });

  it('refuses a missing, too long or too large query with a Turkish error', async () => {
    const cases: [string, string][] = [
      ['', 'Arama sorgusu gerekli'],
      ['%20%20', 'Arama sorgusu gerekli'],
      ['a'.repeat(201), 'Arama sorgusu çok uzun'],
      [Array.from({ length: 11 }, (_, i) => `w${i}`).join('+'), 'Arama sorgusunda çok fazla terim var'],
      ['-only+-exclusions', 'Arama sorgusunda aranacak kelime yok'],
      ['***', 'Arama sorgusunda aranacak kelime yok'],
    ];
    for (const [q, error] of cases) {
      const res = await api.get(`/search?q=${q}`);
      expect(res.status, q).to.equal(400);
      expect(((await res.json()) as { error: string }).error, q).to.equal(error);
    }
    expect((await api.get('/search')).status).to.equal(400);
    expect((await api.get('/search?q=a&q=b')).status).to.equal(400);
    expect((await api.get(`/search?q=${'ş'.repeat(200)}`)).status, '200 characters, not bytes').to.equal(200);
    expect((await api.get(`/search?q=${Array.from({ length: 10 }, (_, i) => `w${i}`).join('+OR+')}`)).status, 'OR is not a term').to.equal(200);
  });

  // Engine syntax of FTS5 and MongoDB, malformed quoting and grouping, operators in every case,
  // Unicode oddities: each is searched as its words or refused with a 400, never a 500 and never
  // an engine's error text.
  const HOSTILE = [
    'NEAR(open source)', 'NEAR(open source, 2)', 'open NEAR/2 source', 'open*', '*', '^open', 'open^2', 'title:open', '{title body}: open',
    'body : open', '"open', 'open"', '"""', '""', '(open', 'open)', '((open) OR (source))', 'open AND source', 'open and source', 'open NOT source',
    'NOT open', 'OR', 'OR OR OR', 'open OR', 'OR open', '- -', '-', '--open', '-"', 'open -', '$where', '{"$where": "sleep(1000)"}', '{$gt: ""}',
    '$text', '{"$search": "x"}', 'open\\', "'; DROP TABLE videos; --", 'open; SELECT 1', 'open\u0000source', '\uE000', 'open \uE000 source', '\uFFFF',
    '𝕠𝕡𝕖𝕟', 'ﬁle', '½', 'İıIi', 'x'.repeat(200), 'a b c d e f g h i j', '"a b c d e f g h i j k l m n o p"', 'rowid:1', 'search_index:open',
    '"open" + "source"', 'open + source', '%', '_', '\\"open\\"', '<script>alert(1)</script>', ']]>', '&amp;',
  ];

  it(`takes engine syntax literally: ${HOSTILE.length} hostile queries, each a 200 or a 400`, async () => {
    expect(HOSTILE.length).to.be.at.least(30);
    for (const q of HOSTILE) {
      for (const format of ['Atom', 'Json']) {
        const res = await api.get(`/search?q=${encodeURIComponent(q)}&format=${format}`);
        const body = await res.text();
        expect([200, 400], `${JSON.stringify(q)} → ${res.status} ${body.slice(0, 200)}`).to.include(res.status);
        expect(body, JSON.stringify(q)).to.not.match(/fts5|syntax error|sqlite|no such column|unknown special query|MongoServerError|malformed MATCH/i);
        if (res.status === 400) expect((JSON.parse(body) as { error: string }).error).to.match(/^(Arama sorgusu|Arama sorgusunda)/);
        if (res.status === 200 && format === 'Json') JSON.parse(body);
      }
    }
    expect(await ids('NEAR(open source)'), 'NEAR( is the word "near"').to.deep.equal([]);
    expect(await ids('(open')).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(await ids('open*')).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(await ids('"open')).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(await ids('<script>source</script>'), 'script is a word').to.deep.equal([]);
  });
});
