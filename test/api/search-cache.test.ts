// A search feed kept between polls, over real HTTP on the real app and a real SQLite store: a
// repeated search is answered from what it found (its validators, its cached body) without
// searching, until a video could have been stored in its scope — anywhere for an unscoped search,
// in the named channels for a scoped one, in the followed channels (or the list itself) for
// subscriptions=1. Store calls are counted by a wrapper around the real store.

import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { SearchQuery, Store, TranscriptRecord } from '../../shared/store/types';
import { CHANNEL, KEY, OTHER_CHANNEL, startApi, video, type TestApi } from './support';

const LATER = (days: number): Date => new Date(Date.UTC(2024, 7, 1 + days));

function transcript(videoId: string, text: string, fetchedAt: Date): TranscriptRecord {
  return { videoId, language: 'en', kind: 'manual', paragraphs: [{ startMs: 5_000, text }], fetchedAt };
}

describe('search feeds kept between polls (HTTP, SQLite)', function () {
  let api: TestApi;
  let searches: SearchQuery[];

  beforeEach(async function () {
    searches = [];
    const counting = (store: Store): Store =>
      new Proxy(store, {
        get: (target, name, receiver) =>
          name === 'searchVideos' ? (...args: Parameters<Store['searchVideos']>) => (searches.push(args[0]), target.searchVideos(...args)) : (Reflect.get(target, name, receiver) as unknown),
      });
    api = await startApi({ appStore: counting });
    await api.store.upsertVideos([video(1, { title: 'Pelicans' }), video(2, { channelId: OTHER_CHANNEL, title: 'Other' })], [transcript('vid00000001', 'A pelican flies.', LATER(0)), transcript('vid00000002', 'Pelicans elsewhere.', LATER(0))]);
  });
  afterEach(() => api.close());

  const ids = async (res: Response): Promise<string[]> => [...(await res.text()).matchAll(/<id>yt:video:([^<]+)<\/id>|<id>([A-Za-z0-9_-]{11})<\/id>/g)].map((m) => m[1] ?? m[2]!);

  it('answers a repeated search, its 304 and its compressed body from what it found', async function () {
    const first = await api.get('/search?q=pelicans');
    expect(first.status).to.equal(200);
    const body = await first.text();
    const etag = first.headers.get('etag')!;
    const again = await api.get('/search?q=pelicans');
    expect(again.headers.get('etag')).to.equal(etag);
    expect(await again.text()).to.equal(body);
    expect((await api.get('/search?q=pelicans', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    const identity = await api.get('/search?q=pelicans', { headers: { 'Accept-Encoding': 'identity' } });
    expect(identity.headers.get('content-encoding')).to.equal(null);
    expect(searches, 'one search for four answers').to.have.length(1);
  });

  it('searches again once a video is stored anywhere, for a search of every channel', async function () {
    await api.get('/search?q=pelicans').then((r) => r.text());
    await api.store.upsertVideos([video(3, { channelId: OTHER_CHANNEL, title: 'More pelicans', fetchedAt: LATER(1) })]);
    const after = await api.get('/search?q=pelicans');
    expect(await ids(after)).to.include('vid00000003');
    expect(searches).to.have.length(2);
  });

  it('searches again for named channels only when one of them stored a video', async function () {
    const url = `/search?q=pelicans&channel_id=${CHANNEL}`;
    await api.get(url).then((r) => r.text());
    await api.store.upsertVideos([video(4, { channelId: OTHER_CHANNEL, title: 'Pelicans, not here', fetchedAt: LATER(1) })]);
    await api.get(url).then((r) => r.text());
    expect(searches, 'another channel stored: no new search').to.have.length(1);
    await api.store.upsertVideos([video(5, { title: 'Pelicans here', fetchedAt: LATER(2) })]);
    expect(await ids(await api.get(url))).to.include('vid00000005');
    expect(searches).to.have.length(2);
  });

  it('searches again for subscriptions=1 when the key follows another channel', async function () {
    const keyId = createHash('sha256').update(KEY).digest('hex');
    await api.store.follow(keyId, [{ channelId: CHANNEL }], 'import', 10, api.now);
    const url = '/search?q=pelicans&subscriptions=1';
    expect(await ids(await api.get(url))).to.deep.equal(['vid00000001']);
    await api.get(url).then((r) => r.text());
    expect(searches).to.have.length(1);
    await api.store.follow(keyId, [{ channelId: OTHER_CHANNEL }], 'import', 10, api.now);
    expect(await ids(await api.get(url))).to.include('vid00000002');
    expect(searches).to.have.length(2);
  });
});
