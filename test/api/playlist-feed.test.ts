// GET /?playlist_id=… and ?playlist_url=… over HTTP against the real app and a seeded store: the
// query's rules and errors, the 404s before and after the crawler has listed a playlist, and a
// stored listing served in the playlist's order (the end-to-end test crawls one for real).

import { expect } from 'chai';
import { CHANNEL, startApi, video, type TestApi } from '../api/support';
import { withTranscripts } from '../support/factories';

const PL = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
const URL_OF = (id: string) => encodeURIComponent(`https://www.youtube.com/playlist?list=${id}`);

describe('playlist feeds over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  it('400 with its own Turkish error for playlist ids and URLs the platform does not issue (or a login would need)', async () => {
    for (const id of ['RDdQw4w9WgXcQ', 'WL', 'LL', 'PLshort', CHANNEL, 'PL$where{}aaaaaaaaaaa', 'PL' + 'a'.repeat(80)]) {
      const res = await api.get(`/?playlist_id=${encodeURIComponent(id)}`);
      expect(res.status, id).to.equal(400);
      const body = (await res.json()) as { error: string; message: string; usage: object };
      expect(body.error, id).to.equal('Geçersiz playlist_id formatı');
      expect(body.message).to.include('PL…');
      expect(body.usage).to.be.an('object');
    }
    for (const url of [`https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${PL}`, `https://evil.example/playlist?list=${PL}`, `https://www.youtube.com/playlist?list=${PL}&x=1`]) {
      const res = await api.get(`/?playlist_url=${encodeURIComponent(url)}`);
      expect(res.status, url).to.equal(400);
      expect(((await res.json()) as { error: string }).error).to.equal('Geçersiz playlist_url');
    }
    expect((await api.get(`/?playlist_id=${PL}&playlist_id=${PL}`)).status).to.equal(400);
    expect((await api.get(`/?playlist_id=${PL}&max_items=101`)).status).to.equal(400);
    expect((await api.get(`/?playlist_id=${PL}&format=xml`)).status).to.equal(400);
    expect((await api.get(`/?playlist_id=${PL}`, { key: null })).status).to.equal(401);
  });

  it('a channel parameter wins over a playlist one; without either it is the spec\'s 400', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&playlist_id=${PL}`);
    expect(res.status).to.equal(404);
    expect(await res.json()).to.deep.include({ channel_id: CHANNEL });
    expect(((await (await api.get('/?format=Rss')).json()) as { error: string }).error).to.equal('Channel ID bulunamadı');
  });

  it('404 "Henüz işlenmiş video yok" with playlist_id until the crawler stored entries; registers the playlist as work', async () => {
    const res = await api.get(`/?playlist_url=${URL_OF(PL)}&max_items=40`);
    expect(res.status).to.equal(404);
    // The message says what the crawler knows, as for a channel (test/api/crawl-404.test.ts).
    expect(await res.json()).to.deep.equal({ error: 'Henüz işlenmiş video yok', message: 'Tarayıcı bu oynatma listesine henüz bakmadı; sıraya alındı, lütfen birkaç dakika sonra tekrar deneyin', playlist_id: PL });
    expect(await api.store.getChannel(PL)).to.deep.include({ kind: 'playlist', wanted: 40 });
    // Listed, but none of its videos stored yet: still the same 404.
    await api.store.putPlaylist({ playlistId: PL, title: 'T', owner: 'O', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000001'] }, new Date());
    expect((await api.get(`/?playlist_id=${PL}`)).status).to.equal(404);
  });

  it('serves stored entries in the playlist\'s order, named after the playlist, with ETag and 304; include and max_items as for channels', async () => {
    const id = 'PL1234567890ABCDEF';
    await api.store.upsertVideos(...withTranscripts([video(1), video(2), video(3, { videoKind: 'short' }), video(4, { state: 'unavailable', language: null, kind: null }), video(5)]));
    await api.store.putPlaylist({ playlistId: id, title: 'Course <1> & "2"', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000005', 'vid00000003', 'vid00000004', 'vid00000001', 'vid00000002'] }, new Date());
    const res = await api.get(`/?playlist_id=${id}&format=Json`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { title: string; authors: { name: string }[]; items: { id: string }[]; feed_url: string };
    expect(doc.items.map((i) => i.id)).to.deep.equal(['vid00000005', 'vid00000001', 'vid00000002']);
    expect(doc.title).to.equal('YouTube Transcripts - Course <1> & "2"');
    expect(doc.authors).to.deep.equal([{ name: 'Teacher' }]);
    expect(doc.feed_url).to.match(new RegExp(`/\\?playlist_id=${id}&format=Json$`));
    const shorts = (await (await api.get(`/?playlist_id=${id}&format=Json&include=shorts&max_items=2`)).json()) as { items: { id: string }[] };
    expect(shorts.items.map((i) => i.id)).to.deep.equal(['vid00000005', 'vid00000003']);
    const atom = await api.get(`/?playlist_id=${id}`);
    const etag = atom.headers.get('etag')!;
    expect(await atom.text()).to.include('<title>YouTube Transcripts - Course &lt;1&gt; &amp; &quot;2&quot;</title>');
    expect((await api.get(`/?playlist_id=${id}`, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    // A new order is a new feed.
    await api.store.putPlaylist({ playlistId: id, title: 'Course <1> & "2"', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000001', 'vid00000005'] }, new Date(Date.now() + 5000));
    const moved = await api.get(`/?playlist_id=${id}`, { headers: { 'If-None-Match': etag } });
    expect(moved.status).to.equal(200);
    expect([...(await moved.text()).matchAll(/<entry><id>([^<]+)<\/id>/g)].map((m) => m[1])).to.deep.equal(['vid00000001', 'vid00000005']);
  });

  it('private and deleted playlists answer their own 404 with playlist_id', async () => {
    const cases = [['PLprivate_aaaaaaaaaa', 'private', 'Oynatma listesi gizli'], ['PLdeleted_aaaaaaaaaa', 'deleted', 'Oynatma listesi bulunamadı']] as const;
    for (const [id, state, text] of cases) {
      await api.store.putPlaylist({ playlistId: id, title: null, owner: null, ownerChannelId: null, state, videoIds: [] }, new Date());
      const res = await api.get(`/?playlist_id=${id}&format=Rss`);
      expect(res.status).to.equal(404);
      const body = (await res.json()) as { error: string; message: string; playlist_id: string };
      expect(body).to.deep.include({ error: text, playlist_id: id });
      expect(body.message).to.be.a('string').and.not.equal('');
    }
  });
});
