import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { entryHtmlOf, transcriptRecord } from '../support/factories';
import { asArray, CHANNEL, KEY, startApi, video, type TestApi } from './support';
import { jsonFeedViolations } from '../transcript/json-feed-rules';
import { defaultSummaryKey } from '../../api/feed/summaries';
import type { SummaryRecord } from '../../shared/store/types';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
/** A key's id as the store keeps it (its SHA-256). */
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
const HOSTILE = '<script>alert(1)</script> & ]]> "q" çğü 😀';
type AtomEntry = { id: string; content: { '#text': string }; summary?: { '#text': string } };
type JsonItem = { id: string; content_html: string; summary?: string };

function summary(videoId: string, points: SummaryRecord['points'], madeAt: Date): SummaryRecord {
  const key = defaultSummaryKey();
  return { videoId, language: key.language, promptVersion: key.promptVersion, transcriptLanguage: 'en', model: 'fake', points, promptTokens: 10, completionTokens: 5, madeAt };
}

describe('feeds with summary=1 and summary=only over HTTP (issue 31)', () => {
  let api: TestApi;
  const v1 = video(1);
  const v2 = video(2);
  const t1 = transcriptRecord(v1, [{ startMs: 0, text: 'first' }, { startMs: 65_000, text: 'second' }]);
  const t2 = transcriptRecord(v2);
  beforeEach(async () => {
    api = await startApi();
    await api.store.upsertVideos([v1, v2], [t1, t2]);
    await api.store.putSummary(summary(v1.videoId, [{ seconds: 0, text: 'Opening' }, { seconds: 65, text: HOSTILE }], api.now), 'test');
  });
  afterEach(() => api.close());

  it('Atom summary=1: the summary opens the content before the transcript, escaped; plain text in <summary>; no summary yet = the transcript', async () => {
    const text = await (await api.get(`/?channel_id=${CHANNEL}&summary=1`)).text();
    expect(text).not.to.contain('<script>');
    const entries = asArray((xml.parse(text) as { feed: { entry: AtomEntry[] } }).feed.entry);
    const byId = new Map(entries.map((e) => [e.id, e]));
    const first = byId.get(v1.videoId)!;
    expect(first.content['#text']).to.match(/^<h3>Summary<\/h3>\n<ul>\n<li><a href="[^"]*t=0s?[^"]*">0:00<\/a> Opening<\/li>/);
    expect(first.content['#text']).to.contain('1:05</a> &lt;script&gt;alert(1)&lt;/script&gt; &amp; ]]&gt; &quot;q&quot; çğü 😀</li>');
    expect(first.content['#text'].endsWith(entryHtmlOf(v1, t1))).to.equal(true);
    expect(first.summary!['#text']).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    expect(byId.get(v2.videoId)!.content['#text']).to.equal(entryHtmlOf(v2, t2));
    const parsed = await new Parser().parseString(text);
    expect(parsed.items.find((i) => i.id === v1.videoId)!.content).to.equal(first.content['#text']);
  });

  it('RSS summary=1 read back by rss-parser: content:encoded opens with the summary, description is its text', async () => {
    const text = await (await api.get(`/?channel_id=${CHANNEL}&format=rss&summary=1`)).text();
    const parsed = await new Parser<object, { 'content:encoded': string; description: string }>({ customFields: { item: ['content:encoded', 'description'] } }).parseString(text);
    const item = parsed.items.find((i) => i.guid === v1.videoId)!;
    expect(item['content:encoded'].startsWith('<h3>Summary</h3>')).to.equal(true);
    expect(item['content:encoded']).to.contain('&lt;script&gt;');
    expect(item['content:encoded'].endsWith(entryHtmlOf(v1, t1))).to.equal(true);
    expect(item.description).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
  });

  it('JSON Feed summary=only: valid JSON Feed, the summary and a link to the whole transcript, no transcript; the other entry unchanged', async () => {
    const doc = (await (await api.get(`/?channel_id=${CHANNEL}&format=json&summary=only`)).json()) as { items: JsonItem[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    const first = doc.items.find((i) => i.id === v1.videoId)!;
    expect(first.content_html).to.match(/^<h3>Summary<\/h3>/);
    expect(first.content_html).to.match(/<p><a href="[^"]+\/transcripts\/vid00000001\.vtt[^"]*">Whole transcript<\/a><\/p>$/);
    expect(first.content_html).not.to.contain('first');
    expect(first.summary).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    expect(doc.items.find((i) => i.id === v2.videoId)!.content_html).to.equal(entryHtmlOf(v2, t2));
  });

  it('the ETag differs by summary value and changes when a summary is stored; a cached body is not served after it', async () => {
    const etag = async (q: string) => (await api.get(`/?channel_id=${CHANNEL}${q}`)).headers.get('etag');
    const plain = await etag('');
    const on = await etag('&summary=1');
    const only = await etag('&summary=only');
    expect(new Set([plain, on, only]).size).to.equal(3);
    await api.store.putSummary(summary(v2.videoId, [{ seconds: 0, text: 'Second video' }], api.now), 'test');
    const res = await api.get(`/?channel_id=${CHANNEL}&summary=1`, { headers: { 'if-none-match': on! } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('etag')).not.to.equal(on);
    expect(await res.text()).to.contain('Second video');
    // Without summary= the stored summary is the plain-text summary, so that feed's tag moves too.
    expect(await etag('')).not.to.equal(plain);
  });

  it('without summary=: a stored summary is the plain-text summary (Atom <summary>, RSS description, JSON Feed summary), the content the transcript alone; the ETag changes when one arrives', async () => {
    const text = await (await api.get(`/?channel_id=${CHANNEL}`)).text();
    const entries = new Map(asArray((xml.parse(text) as { feed: { entry: AtomEntry[] } }).feed.entry).map((e) => [e.id, e]));
    expect(entries.get(v1.videoId)!.summary!['#text']).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    expect(entries.get(v1.videoId)!.content['#text']).to.equal(entryHtmlOf(v1, t1));
    expect(entries.get(v2.videoId)!.summary!['#text']).to.equal('About this video.');
    expect(text).not.to.contain('<script>');
    const rss = await new Parser<object, { 'content:encoded': string; description: string }>({ customFields: { item: ['content:encoded', 'description'] } })
      .parseString(await (await api.get(`/?channel_id=${CHANNEL}&format=rss`)).text());
    const item = rss.items.find((i) => i.guid === v1.videoId)!;
    expect(item.description).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
    expect(item['content:encoded']).to.equal(entryHtmlOf(v1, t1));
    const before = await api.get(`/?channel_id=${CHANNEL}&format=json`);
    const doc = (await before.json()) as { items: JsonItem[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    expect(doc.items.find((i) => i.id === v1.videoId)!.summary).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    expect(doc.items.find((i) => i.id === v1.videoId)!.content_html).to.equal(entryHtmlOf(v1, t1));
    await api.store.putSummary(summary(v2.videoId, [{ seconds: 0, text: 'Arrived' }], api.now), 'test');
    const after = await api.get(`/?channel_id=${CHANNEL}&format=json`, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).to.equal(200);
    expect(((await after.json()) as { items: JsonItem[] }).items.find((i) => i.id === v2.videoId)!.summary).to.equal('0:00 Arrived');
  });

  it('a search feed without summary= carries a stored summary as its plain text, and a remembered search answer does not hide one stored since', async () => {
    const first = await api.get('/search?q=second&format=json');
    const item = ((await first.json()) as { items: JsonItem[] }).items.find((i) => i.id === v1.videoId)!;
    expect(item.summary).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    expect(item.content_html).not.to.contain('<h3>Summary</h3>');
    const again = await api.get('/search?q=second&format=json', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).to.equal(304);
    await api.store.putSummary(summary(v1.videoId, [{ seconds: 65, text: 'Made anew' }], new Date(api.now.getTime() + 1000)), 'test');
    const later = await api.get('/search?q=second&format=json', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(later.status).to.equal(200);
    expect(((await later.json()) as { items: JsonItem[] }).items.find((i) => i.id === v1.videoId)!.summary).to.equal('1:05 Made anew');
  });

  it('a playlist feed takes summary=1 the same way, and its ETag follows a stored summary', async () => {
    const PL = 'PL0123456789abcdefghijklmnopqrstuv';
    await api.store.putPlaylist({ playlistId: PL, title: 'List', owner: 'O', ownerChannelId: CHANNEL, state: 'listed', videoIds: [v2.videoId, v1.videoId] }, api.now);
    const res = await api.get(`/?playlist_id=${PL}&format=json&summary=1`);
    const doc = (await res.json()) as { items: JsonItem[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    expect(doc.items.find((i) => i.id === v1.videoId)!.content_html.startsWith('<h3>Summary</h3>')).to.equal(true);
    expect(doc.items.find((i) => i.id === v2.videoId)!.content_html).to.equal(entryHtmlOf(v2, t2));
    await api.store.putSummary(summary(v2.videoId, [{ seconds: 0, text: 'Listed <b>' }], api.now), 'test');
    const again = await api.get(`/?playlist_id=${PL}&format=json&summary=1`);
    expect(again.headers.get('etag')).not.to.equal(res.headers.get('etag'));
    expect(((await again.json()) as { items: JsonItem[] }).items.find((i) => i.id === v2.videoId)!.content_html).to.contain('Listed &lt;b&gt;');
    expect((await api.get(`/?playlist_id=${PL}&summary=no`)).status).to.equal(400);
  });

  it('the combined feed (subscriptions) takes summary=only, read back by rss-parser, and its ETag follows a stored summary', async () => {
    await api.store.follow(keyIdOf(KEY), [{ channelId: CHANNEL }], 'import', 10, api.now);
    const res = await api.get('/subscriptions/feed?format=rss&summary=only');
    expect(res.status).to.equal(200);
    const parsed = await new Parser<object, { 'content:encoded': string }>({ customFields: { item: ['content:encoded'] } }).parseString(await res.text());
    const item = parsed.items.find((i) => i.guid === v1.videoId)!;
    expect(item['content:encoded']).to.match(/^<h3>Summary<\/h3>[\s\S]*Whole transcript<\/a><\/p>$/);
    expect(item['content:encoded']).not.to.contain('first');
    expect(parsed.items.find((i) => i.guid === v2.videoId)!['content:encoded']).to.equal(entryHtmlOf(v2, t2));
    await api.store.putSummary(summary(v2.videoId, [{ seconds: 0, text: 'Combined' }], api.now), 'test');
    const again = await api.get('/subscriptions/feed?format=rss&summary=only');
    expect(again.headers.get('etag')).not.to.equal(res.headers.get('etag'));
    expect(await again.text()).to.contain('Combined');
    expect((await api.get('/subscriptions/feed?summary=0')).status).to.equal(400);
  });

  it('the search feed takes summary=1 (before the matching paragraphs) and summary=only, and follows a stored summary', async () => {
    const on = await api.get('/search?q=second&format=json&summary=1');
    expect(on.status).to.equal(200);
    const doc = (await on.json()) as { items: JsonItem[] };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    const item = doc.items.find((i) => i.id === v1.videoId)!;
    expect(item.content_html).to.match(/^<h3>Summary<\/h3>[\s\S]*&lt;script&gt;[\s\S]*<mark>second<\/mark>/);
    expect(item.summary).to.equal(`0:00 Opening\n1:05 ${HOSTILE}`);
    const only = await api.get('/search?q=second&format=atom&summary=only');
    const entry = asArray((xml.parse(await only.text()) as { feed: { entry: AtomEntry[] } }).feed.entry)[0]!;
    expect(entry.content['#text']).to.match(/^<h3>Summary<\/h3>[\s\S]*Whole transcript<\/a><\/p>$/);
    expect(entry.content['#text']).not.to.contain('<mark>');
    await api.store.putSummary(summary(v1.videoId, [{ seconds: 0, text: 'Redone' }], new Date(api.now.getTime() + 1000)), 'test');
    const again = await api.get('/search?q=second&format=json&summary=1');
    expect(again.headers.get('etag')).not.to.equal(on.headers.get('etag'));
    expect(await again.text()).to.contain('Redone');
    expect((await api.get('/search?q=second&summary=x')).status).to.equal(400);
  });

  it('a bad summary value is a 400 with the clear JSON error', async () => {
    for (const bad of ['2', 'yes', 'ONLY1']) {
      const res = await api.get(`/?channel_id=${CHANNEL}&summary=${bad}`);
      expect(res.status, bad).to.equal(400);
      const body = (await res.json()) as { error: string; message: string };
      expect(body.error).to.equal('Geçersiz summary değeri');
      expect(body.message).to.contain("'only'");
    }
    expect((await api.get(`/?channel_id=${CHANNEL}&summary=1&summary=only`)).status).to.equal(400);
  });
});
