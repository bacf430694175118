// GET /subscriptions/feed over real HTTP: the newest stored videos of every channel the key
// follows, each entry naming its channel, in the three formats, with a strong ETag,
// Last-Modified and 304s; other keys' channels never show.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import Parser from 'rss-parser';
import { XMLParser } from 'fast-xml-parser';
import { KEY, LIMITED_KEY, startApi, video, type TestApi } from './support';

const A = 'UCBa659QWEk1AI4Tg--mrJ2A';
const B = 'UCsXVk37bltHxD1rDPwtNM8Q';
const NOT_FOLLOWED = 'UC6nSFpj9HTCZ5t-N3Rm3-HA';
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
const HOUR = 3_600_000;
const at = (h: number): Date => new Date(Date.UTC(2026, 10, 1) + h * HOUR);

describe('subscriptions: the combined feed', function () {
  let api: TestApi;
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (n) => n === 'entry' || n === 'item' });

  beforeEach(async function () {
    api = await startApi();
    await api.store.follow(keyIdOf(KEY), [{ channelId: A, title: 'Channel A (from the file)' }, { channelId: B }], 'import', 10, api.now);
    await api.store.follow(keyIdOf(LIMITED_KEY), [{ channelId: NOT_FOLLOWED }], 'import', 10, api.now);
    await api.store.registerChannel({ channelId: B, wanted: 10, title: 'Channel B' }, api.now);
    await api.store.upsertVideos([
      video(1, { channelId: A, publishedAt: at(10), fetchedAt: at(11) }),
      video(2, { channelId: B, publishedAt: at(9), fetchedAt: at(12) }),
      video(3, { channelId: NOT_FOLLOWED, publishedAt: at(11), fetchedAt: at(13) }),
      video(4, { channelId: A, publishedAt: at(8), fetchedAt: at(11) }),
      video(5, { channelId: B, publishedAt: at(7), fetchedAt: at(11), videoKind: 'short' }),
    ]);
  });
  afterEach(async function () {
    await api.close();
  });

  it('lists the newest entries across the followed channels, each naming its channel (Atom by default)', async function () {
    const res = await api.get('/subscriptions/feed');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/atom+xml');
    const doc = xml.parse(await res.text()) as { feed: { title: string; entry: { id: string; author: { name: string } }[]; link: { '@_rel'?: string; '@_href': string }[] } };
    expect(doc.feed.entry.map((e) => e.id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000004']);
    expect(doc.feed.entry.map((e) => e.author.name)).to.deep.equal(['Channel A (from the file)', 'Channel B', 'Channel A (from the file)']);
    expect(doc.feed.title).to.equal('YouTube Transcripts - subscriptions');
    expect(doc.feed.link.find((l) => l['@_rel'] === 'self')?.['@_href']).to.equal(`${api.base}/subscriptions/feed`);
  });

  it('answers Rss (dc:creator per item) and Json (authors per item), and takes max_items and include', async function () {
    const rss = await api.get('/subscriptions/feed?format=Rss&max_items=2');
    expect(rss.headers.get('content-type')).to.equal('application/rss+xml');
    const parsed = await new Parser().parseString(await rss.text());
    expect(parsed.items.map((i) => [i.guid, i.creator])).to.deep.equal([['vid00000001', 'Channel A (from the file)'], ['vid00000002', 'Channel B']]);

    const json = await api.get('/subscriptions/feed?format=Json&include=shorts');
    expect(json.headers.get('content-type')).to.equal('application/feed+json');
    const feed = (await json.json()) as { items: { id: string; authors: { name: string }[] }[] };
    expect(feed.items.map((i) => i.id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000004', 'vid00000005']);
    expect(feed.items[3]!.authors).to.deep.equal([{ name: 'Channel B' }]);

    for (const bad of ['max_items=0', 'max_items=101', 'format=Yaml', 'include=all', 'max_items=1&max_items=2']) {
      expect((await api.get(`/subscriptions/feed?${bad}`)).status, bad).to.equal(400);
    }
  });

  it('defaults to 50 entries', async function () {
    await api.store.upsertVideos(Array.from({ length: 60 }, (_, i) => video(100 + i, { channelId: i % 2 ? A : B, publishedAt: at(-i), fetchedAt: at(20) })));
    const feed = (await (await api.get('/subscriptions/feed?format=Json')).json()) as { items: unknown[] };
    expect(feed.items).to.have.length(50);
  });

  it('has a strong ETag and Last-Modified, answers 304 to either, and a new stored video changes both', async function () {
    const first = await api.get('/subscriptions/feed');
    const etag = first.headers.get('etag')!;
    expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('last-modified')).to.equal(at(12).toUTCString());
    await first.text();

    const byTag = await api.get('/subscriptions/feed', { headers: { 'If-None-Match': etag } });
    expect(byTag.status).to.equal(304);
    expect(await byTag.text()).to.equal('');
    expect(byTag.headers.get('etag')).to.equal(etag);
    const byDate = await api.get('/subscriptions/feed', { headers: { 'If-Modified-Since': at(12).toUTCString() } });
    expect(byDate.status).to.equal(304);

    const otherFormat = await api.get('/subscriptions/feed?format=Rss', { headers: { 'If-None-Match': etag } });
    expect(otherFormat.status, 'each format is its own representation').to.equal(200);

    await api.store.upsertVideos([video(6, { channelId: B, publishedAt: at(12), fetchedAt: at(14) })]);
    const changed = await api.get('/subscriptions/feed', { headers: { 'If-None-Match': etag } });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('etag')).to.not.equal(etag);
    expect(changed.headers.get('last-modified')).to.equal(at(14).toUTCString());
  });

  it('shows only the asking key’s channels; a key that follows nothing gets an empty feed', async function () {
    const other = xml.parse(await (await api.get('/subscriptions/feed', { key: LIMITED_KEY })).text()) as { feed: { entry?: { id: string }[] } };
    expect(other.feed.entry?.map((e) => e.id)).to.deep.equal(['vid00000003']);
    await api.store.unfollow(keyIdOf(KEY), A, api.now);
    await api.store.unfollow(keyIdOf(KEY), B, api.now);
    const empty = await api.get('/subscriptions/feed');
    expect(empty.status).to.equal(200);
    expect((xml.parse(await empty.text()) as { feed: { entry?: unknown[] } }).feed.entry ?? []).to.deep.equal([]);
  });

  it('needs a key', async function () {
    expect((await api.get('/subscriptions/feed', { key: null })).status).to.equal(401);
  });
});
