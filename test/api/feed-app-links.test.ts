// Feed entries link to their transcript page in the web app (issue 29, item 4): Atom `link
// rel="related"` and JSON Feed `external_url` at /app/videos/<id>, on the address the feed's self
// link uses (PUBLIC_BASE_URL with its path, else the request's), beside the spec's own link to the
// platform, which stays as it was; RSS has no such link and is unchanged. Real HTTP, real SQLite.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { transcriptRecord } from '../support/factories';
import { asArray, CHANNEL, KEY, startApi, T0, video, type TestApi } from './support';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
type Link = { '@href': string; '@rel'?: string; '@type'?: string };
type AtomDoc = { feed: { link: Link[]; entry: { id: string; link: Link[] }[] | { id: string; link: Link[] } } };
type JsonDoc = { items: { id: string; url: string; external_url: string }[] };

describe('feed entries link to the web app\'s transcript page', () => {
  let api: TestApi;
  afterEach(async () => api.close());

  async function fill(): Promise<void> {
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: 'Kanal' }, T0);
    const vs = [video(1, { title: 'Bir' }), video(2, { title: 'İki' })];
    await api.store.upsertVideos(vs, vs.map((v) => transcriptRecord(v, [{ startMs: 0, text: 'Merhaba türkçe.' }])));
  }

  const atom = async (path: string): Promise<AtomDoc> => xml.parse(await (await api.get(path)).text()) as AtomDoc;

  it('on the request\'s own address: Atom rel="related" beside the spec\'s link, JSON Feed external_url beside url, RSS unchanged', async () => {
    api = await startApi();
    await fill();
    for (const path of [`/?channel_id=${CHANNEL}`, '/search?q=merhaba']) {
      const doc = await atom(path);
      const self = doc.feed.link.find((l) => l['@rel'] === 'self')!['@href'];
      expect(self.startsWith(`${api.base}/`)).to.equal(true);
      for (const e of asArray(doc.feed.entry)) {
        expect(e.link.filter((l) => l['@rel'] === undefined).map((l) => l['@href'])[0], path).to.match(/^https:\/\/youtube\.com\/watch\?v=/);
        expect(e.link.find((l) => l['@rel'] === 'related'), path).to.deep.equal({ '@rel': 'related', '@type': 'text/html', '@href': `${api.base}/app/videos/${e.id}` });
      }
    }
    const json = (await (await api.get(`/?channel_id=${CHANNEL}&format=json`)).json()) as JsonDoc;
    expect(json.items.map((i) => [i.url, i.external_url])).to.deep.equal([
      ['https://youtube.com/watch?v=vid00000001', `${api.base}/app/videos/vid00000001`],
      ['https://youtube.com/watch?v=vid00000002', `${api.base}/app/videos/vid00000002`],
    ]);
    const rss = await (await api.get(`/?channel_id=${CHANNEL}&format=rss`)).text();
    expect(rss).not.to.contain('/app/videos/');
    // The feed's key, wherever the reader put it, never reaches the app link.
    const keyed = await (await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}`, { key: null })).text();
    expect(keyed).to.contain(`href="${api.base}/app/videos/vid00000001"`);
  });

  it('on PUBLIC_BASE_URL with its path, for the combined feed too', async () => {
    api = await startApi({ publicBaseUrl: 'https://feeds.example.org/tf' });
    await fill();
    await api.store.follow(api.ring.keys.find((k) => k.name === 'unlimited')!.keyId, [{ channelId: CHANNEL, title: 'Kanal' }], 'feed', 10, T0);
    for (const path of [`/?channel_id=${CHANNEL}`, '/subscriptions/feed', '/search?q=merhaba']) {
      const entries = asArray((await atom(path)).feed.entry);
      expect(entries.length, path).to.equal(2);
      for (const e of entries) expect(e.link.find((l) => l['@rel'] === 'related')?.['@href'], path).to.equal(`https://feeds.example.org/tf/app/videos/${e.id}`);
    }
    const json = (await (await api.get('/subscriptions/feed?format=json')).json()) as JsonDoc;
    expect(json.items.map((i) => i.external_url)).to.deep.equal(['https://feeds.example.org/tf/app/videos/vid00000001', 'https://feeds.example.org/tf/app/videos/vid00000002']);
  });
});
