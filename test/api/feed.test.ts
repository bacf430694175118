import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { entryHtmlOf, transcriptRecord, withTranscripts } from '../support/factories';
import { asArray, CHANNEL, KEY, NASTY_PARAGRAPHS, NASTY_TITLE, OTHER_CHANNEL, startApi, video, type TestApi } from './support';
import { NO_TRANSCRIPT_NOTE } from '../../api/feed/state';
import { StoreUnavailableError } from '../../shared/store/types';
import { decodeHtml, escapeHtml } from '../../shared/transcript/entities';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

type AtomDoc = { feed: { id: string; title: string; entry?: unknown } };
type AtomEntry = { id: string; title: string; content: { '#text': string }; link: { '@href': string } };

describe('API feed endpoint over HTTP', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi({ known: { veritasium: CHANNEL, other: OTHER_CHANNEL } });
  });
  afterEach(() => api.close());

  it('answers 404 at first, registers the channel as work, and 200 once videos are stored', async () => {
    const first = await api.get(`/?channel_id=${CHANNEL}&max_items=25`);
    expect(first.status).to.equal(404);
    const registered = await api.store.getChannel(CHANNEL);
    expect(registered).to.include({ channelId: CHANNEL, wanted: 25 });
    expect(registered!.dueAt.getTime()).to.equal(api.now.getTime());

    await api.store.upsertVideos(...withTranscripts([video(1), video(2), video(3)]));
    const res = await api.get(`/?channel_id=${CHANNEL}`);
    expect(res.status).to.equal(200);
    const doc = xml.parse(await res.text()) as AtomDoc;
    expect(doc.feed.id).to.equal(CHANNEL);
    expect(asArray(doc.feed.entry as AtomEntry[]).map((e) => e.id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000003']);
  });

  it('raises the wanted count to the largest max_items asked for, never lowers it', async () => {
    await api.get(`/?channel_id=${CHANNEL}&max_items=5`);
    await api.get(`/?channel_id=${CHANNEL}&max_items=40`);
    await api.get(`/?channel_id=${CHANNEL}&max_items=7`);
    expect((await api.store.getChannel(CHANNEL))!.wanted).to.equal(40);
  });

  it('serves at most max_items entries, newest first, and no failed or pending ones', async () => {
    const videos = Array.from({ length: 15 }, (_, i) => video(i + 1));
    videos.push(video(0, { state: 'unavailable', language: null, kind: null }));
    videos.push(video(-1, { state: 'no_transcript', language: null, kind: null, nextAttemptAt: new Date(Date.UTC(2031, 0, 1)) }));
    await api.store.upsertVideos(...withTranscripts(videos));
    const doc = xml.parse(await (await api.get(`/?channel_id=${CHANNEL}`)).text()) as AtomDoc;
    const ids = asArray(doc.feed.entry as AtomEntry[]).map((e) => e.id);
    expect(ids).to.deep.equal(videos.slice(0, 10).map((v) => v.videoId));
    const all = xml.parse(await (await api.get(`/?channel_id=${CHANNEL}&max_items=100`)).text()) as AtomDoc;
    expect(asArray(all.feed.entry)).to.have.length(15);
  });

  it('renders Atom and RSS that both parsers (fast-xml-parser, rss-parser) read back exactly (escaping, CDATA, emoji, Turkish letters; RSS titles as HTML, decoded once more)', async () => {
    const nasty = video(1, { title: NASTY_TITLE });
    const NASTY_HTML = entryHtmlOf(nasty, transcriptRecord(nasty, NASTY_PARAGRAPHS));
    expect(NASTY_HTML).to.include('5 &lt; 6 &amp; a ]]&gt; b');
    await api.store.upsertVideos([nasty, video(2, { state: 'no_transcript', language: null, kind: null, nextAttemptAt: null })], [transcriptRecord(nasty, NASTY_PARAGRAPHS)]);
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Kanal & <Başlık> İçerik' }, api.now);

    const atomText = await (await api.get(`/?channel_id=${CHANNEL}&format=Atom`)).text();
    const atom = xml.parse(atomText) as { feed: { author: { name: string }; entry: AtomEntry[] } };
    expect(atom.feed.author.name).to.equal('Kanal & <Başlık> İçerik');
    expect(atom.feed.entry[0]!.title).to.equal(NASTY_TITLE);
    expect(atom.feed.entry[0]!.content['#text']).to.equal(NASTY_HTML);
    expect(atom.feed.entry[1]!.content['#text']).to.equal(NO_TRANSCRIPT_NOTE);
    const atomParsed = await new Parser().parseString(atomText);
    expect(atomParsed.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
    expect(atomParsed.items[0]!.title).to.equal(NASTY_TITLE);
    expect(atomParsed.items[0]!.content).to.equal(NASTY_HTML);
    expect(atomParsed.items[0]!.link).to.equal('https://youtube.com/watch?v=vid00000001');

    const rssText = await (await api.get(`/?channel_id=${CHANNEL}&format=Rss`)).text();
    // Rendered HTML escapes every `>` of the text, so no `]]>` reaches the CDATA section from it.
    expect(rssText).to.contain('<content:encoded><![CDATA[<p><small>Transcript: English (en), manual captions</small></p>');
    const rss = xml.parse(rssText) as { rss: { channel: { item: { title: string; 'content:encoded': string }[] } } };
    // RSS titles are HTML (docs/api.md, "How texts are escaped"): the title escaped once, then as XML.
    expect(rss.rss.channel.item[0]!.title).to.equal(escapeHtml(NASTY_TITLE));
    expect(decodeHtml(rss.rss.channel.item[0]!.title)).to.equal(NASTY_TITLE);
    expect(rss.rss.channel.item[0]!['content:encoded']).to.equal(NASTY_HTML);
    const rssParsed = await new Parser().parseString(rssText);
    expect(rssParsed.items.map((i) => i.guid)).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(rssParsed.items[0]!.title).to.equal(escapeHtml(NASTY_TITLE));
    expect((rssParsed.items[0] as Record<string, unknown>)['content:encoded']).to.equal(NASTY_HTML);
    expect(rssParsed.items[0]!.link).to.equal('https://youtube.com/watch?v=vid00000001');
    expect((rssParsed.items[1] as Record<string, unknown>)['content:encoded']).to.equal(NO_TRANSCRIPT_NOTE);
  });

  it('links to the public host and names the feed with the fixed prefix', async () => {
    await api.store.upsertVideos(...withTranscripts([video(1)]));
    const doc = xml.parse(await (await api.get(`/?channel_id=${CHANNEL}`)).text()) as { feed: { title: string; link: { '@href': string }[] } };
    expect(doc.feed.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
    expect(doc.feed.link[0]!['@href']).to.equal(`https://youtube.com/channel/${CHANNEL}`);
  });

  describe('channel by handle or URL', () => {
    it('resolves a handle with one platform call, then from the store cache', async () => {
      await api.store.upsertVideos(...withTranscripts([video(1)]));
      for (const p of ['/?channel=@Veritasium', '/?channel=veritasium', '/?channel_url=https%3A%2F%2Fwww.youtube.com%2F%40veritasium%2F']) {
        const res = await api.get(p);
        expect(res.status, p).to.equal(200);
        expect((xml.parse(await res.text()) as AtomDoc).feed.id).to.equal(CHANNEL);
      }
      expect(api.platform.calls).to.deep.equal(['Veritasium']);
      expect(await api.store.getHandle('veritasium')).to.equal(CHANNEL);
      expect((await api.store.getChannel(CHANNEL))!.handle).to.equal('veritasium');
    });

    it('shares one platform call between concurrent requests for the same new handle', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.get('/?channel=other')));
      expect(answers.map((r) => r.status)).to.deep.equal([404, 404, 404, 404, 404]);
      expect(api.platform.calls).to.deep.equal(['other']);
      expect(((await answers[0]!.json()) as { channel_id: string }).channel_id).to.equal(OTHER_CHANNEL);
    });

    it('takes a channel URL with the id without asking the platform', async () => {
      await api.store.upsertVideos(...withTranscripts([video(1)]));
      const res = await api.get(`/?channel_url=${encodeURIComponent(`https://youtube.com/channel/${CHANNEL}`)}`);
      expect(res.status).to.equal(200);
      expect(api.platform.calls).to.deep.equal([]);
    });
  });

  describe('conditional GET', () => {
    beforeEach(() => api.store.upsertVideos(...withTranscripts([video(1), video(2)])));

    it('304 without a body for a matching If-None-Match (also weak and in a list), 200 otherwise', async () => {
      const first = await api.get(`/?channel_id=${CHANNEL}`);
      const etag = first.headers.get('etag')!;
      for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const res = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-None-Match': inm } });
        expect(res.status, inm).to.equal(304);
        expect(await res.text()).to.equal('');
        expect(res.headers.get('etag')).to.equal(etag);
        expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
        expect(res.headers.get('cache-control')).to.equal('private, max-age=60');
        // The security headers are the 200's (a cache keeps them); the 304 has no body to guard.
        expect(res.headers.get('x-frame-options')).to.equal(null);
      }
      const miss = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-None-Match': '"other"' } });
      expect(miss.status).to.equal(200);
    });

    it('304 for a not-newer If-Modified-Since, 200 for an older one; If-None-Match wins over it', async () => {
      const first = await api.get(`/?channel_id=${CHANNEL}`);
      const lastModified = first.headers.get('last-modified')!;
      expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': lastModified } })).status).to.equal(304);
      const later = new Date(Date.parse(lastModified) + 3_600_000).toUTCString();
      expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': later } })).status).to.equal(304);
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': earlier } })).status).to.equal(200);
      expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': 'garbage' } })).status).to.equal(200);
      const both = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': lastModified, 'If-None-Match': '"other"' } });
      expect(both.status).to.equal(200);
    });

    it('changes the ETag when a new video is stored, and per format and max_items', async () => {
      const a = (await api.get(`/?channel_id=${CHANNEL}`)).headers.get('etag');
      const rss = (await api.get(`/?channel_id=${CHANNEL}&format=Rss`)).headers.get('etag');
      const five = (await api.get(`/?channel_id=${CHANNEL}&max_items=5`)).headers.get('etag');
      expect(new Set([a, rss, five]).size).to.equal(3);
      await api.store.upsertVideos(...withTranscripts([video(0, { fetchedAt: new Date(Date.UTC(2025, 0, 1)) })]));
      const b = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-None-Match': a! } });
      expect(b.status).to.equal(200);
      expect(b.headers.get('etag')).not.to.equal(a);
      expect(asArray((xml.parse(await b.text()) as AtomDoc).feed.entry)).to.have.length(3);
    });

    it('gives the same bytes for the same ETag (rendered once, then from the cache)', async () => {
      const one = await api.get(`/?channel_id=${CHANNEL}`);
      const two = await api.get(`/?channel_id=${CHANNEL}`);
      expect(two.headers.get('etag')).to.equal(one.headers.get('etag'));
      expect(await two.text()).to.equal(await one.text());
    });
  });

  describe('cache-warm path', () => {
    /** Counts calls of one store method on the live store object. */
    function countCalls(name: 'listFeedEntries' | 'registerChannel'): { n: number } {
      const counter = { n: 0 };
      const store = api.store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const real = store[name]!.bind(api.store);
      store[name] = (...a: unknown[]) => {
        counter.n++;
        return real(...a);
      };
      return counter;
    }

    beforeEach(() => api.store.upsertVideos(...withTranscripts([video(1), video(2)])));

    it('reads neither the transcripts nor writes the registration again while nothing changed', async () => {
      await api.get(`/?channel_id=${CHANNEL}`);
      const lists = countCalls('listFeedEntries');
      const registers = countCalls('registerChannel');
      for (let i = 0; i < 5; i++) expect((await api.get(`/?channel_id=${CHANNEL}`)).status).to.equal(200);
      expect(lists.n).to.equal(0);
      expect(registers.n).to.equal(0);
      // A larger max_items is a real change: it goes to the store at once.
      await api.get(`/?channel_id=${CHANNEL}&max_items=30`);
      expect(registers.n).to.equal(1);
      expect((await api.store.getChannel(CHANNEL))!.wanted).to.equal(30);
    });

    it('shows a newly stored batch on the very next request', async () => {
      await api.get(`/?channel_id=${CHANNEL}`);
      await api.store.upsertVideos(...withTranscripts([video(0, { fetchedAt: new Date(Date.UTC(2025, 0, 1)) })]));
      const doc = xml.parse(await (await api.get(`/?channel_id=${CHANNEL}`)).text()) as AtomDoc;
      expect(asArray(doc.feed.entry as AtomEntry[]).map((e) => e.id)).to.deep.equal(['vid00000000', 'vid00000001', 'vid00000002']);
    });

    it('picks up a change the version cannot see (older entry rewritten) after the state TTL', async () => {
      const before = await api.get(`/?channel_id=${CHANNEL}`);
      // Rewrite the older entry with a write time below the newest: feedVersion stays the same.
      await api.store.upsertVideos(...withTranscripts([video(2, { title: 'Renamed', fetchedAt: new Date(video(2).fetchedAt.getTime() - 1) })]));
      api.now = new Date(api.now.getTime() + 6_000);
      const after = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
      expect(after.status).to.equal(200);
      const titles = asArray((xml.parse(await after.text()) as AtomDoc).feed.entry as AtomEntry[]).map((e) => e.title);
      expect(titles).to.deep.equal(['Video 1', 'Renamed']);
    });

    it('renders correctly on a render-cache miss for a remembered state (another self link)', async () => {
      await api.get(`/?channel_id=${CHANNEL}`);
      const res = await api.get(`/?format=atom&channel_id=${CHANNEL}`);
      expect(res.status).to.equal(200);
      expect(asArray((xml.parse(await res.text()) as AtomDoc).feed.entry)).to.have.length(2);
    });
  });

  it('answers 500 with the prefixed body and channel_id when the store is down, and logs an ERROR', async () => {
    await api.store.close();
    const res = await api.get(`/?channel_id=${CHANNEL}`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: 'Feed oluşturucu hatası: veri deposuna ulaşılamıyor', channel_id: '' });
    expect(api.logs.some((l) => l.includes('"level":"ERROR"') && l.includes('"category":"api"'))).to.equal(true);
    // /health stays up: it does not depend on the store.
    expect((await api.get('/health', { key: null })).status).to.equal(200);
  });

  it('answers 500 with the channel_id when the store fails after the channel is known', async () => {
    const realVersion = api.store.feedVersion.bind(api.store);
    api.store.feedVersion = () => Promise.reject(new StoreUnavailableError('database is locked'));
    try {
      const res = await api.get(`/?channel_id=${CHANNEL}`);
      expect(res.status).to.equal(500);
      expect(await res.json()).to.deep.equal({ error: 'Feed oluşturucu hatası: veri deposuna ulaşılamıyor', channel_id: CHANNEL });
    } finally {
      api.store.feedVersion = realVersion;
    }
  });

  it('the API key never reaches a log line, whichever way it is sent', async () => {
    await api.store.upsertVideos(...withTranscripts([video(1)]));
    await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}`, { key: null });
    await api.get(`/?api%5Fkey=${KEY}&channel_id=${CHANNEL}`, { key: null });
    await api.get(`/?API_KEY=${KEY}&channel_id=${CHANNEL}`, { key: null });
    await api.get(`/nope?api_key=${KEY}`, { key: null });
    await api.get(`/?channel_id=${CHANNEL}`, { key: KEY });
    await api.get('/?channel=@x', { key: KEY, headers: { 'If-None-Match': KEY } });
    api.platform.failWith = new Error('boom');
    await api.get(`/?channel=@newhandle&api_key=${KEY}`, { key: null });
    api.platform.failWith = null;
    const access = api.logs.filter((l) => l.includes('"category":"api.http"'));
    expect(access.length).to.be.greaterThan(6);
    expect(api.logs.join('')).not.to.contain(KEY);
    const first = JSON.parse(access[0]!) as Record<string, unknown>;
    expect(first).to.include({ method: 'GET', path: `/?channel_id=${CHANNEL}`, status: 200 });
    expect(first.ms).to.be.a('number');
  });
});
