// Smaller findings, over the real API on a socket: an If-Modified-Since in the future (or year 9999)
// got a 304; JSON Feed kept the C0 controls and U+FFFE/U+FFFF that Atom and RSS drop; a right-to-left
// override (U+202E) passed into titles, summaries and transcripts of every format.

import { expect } from 'chai';
import { XMLValidator } from 'fast-xml-parser';
import { CHANNEL, startApi, video, type TestApi } from '../api/support';

const RLO = '\u202e';
const HOSTILE = `a${RLO}gpj.exe\u2066b\u2069\u202a\u202b\u202c\u202d c\u0001\u0008\u000b\ufffe\uffff d`;
/** Everything no format may carry: bidi embedding/override/isolate controls, XML-illegal characters. */
// eslint-disable-next-line no-control-regex -- control characters are what this test looks for
const FORBIDDEN = /[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

describe('text every format shows alike, and validators', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    const v = video(1, { title: `Title ${HOSTILE}`, description: `Summary ${HOSTILE}`, language: 'en', kind: 'manual' });
    await api.store.upsertVideos([v], [{ videoId: v.videoId, language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: `Spoken ${HOSTILE}` }], fetchedAt: v.fetchedAt! }]);
  });
  after(() => api.close());

  for (const format of ['atom', 'rss', 'json']) {
    it(`${format}: no bidi control and no character XML cannot carry, in title, summary or transcript`, async () => {
      const res = await api.get(`/?channel_id=${CHANNEL}&format=${format}`);
      expect(res.status).to.equal(200);
      const body = await res.text();
      if (format === 'json') {
        const feed = JSON.parse(body) as { items: { title: string; summary: string; content_html: string }[] };
        const [item] = feed.items;
        for (const text of [item!.title, item!.summary, item!.content_html]) {
          expect(text).not.to.match(FORBIDDEN);
          expect(text).to.match(/agpj\.exeb c +d/);
        }
      } else {
        expect(XMLValidator.validate(body)).to.equal(true);
        expect(body).not.to.match(FORBIDDEN);
        expect(body).to.contain('Title agpj.exeb c d');
        expect(body).to.contain('Spoken agpj.exeb c d');
      }
    });
  }

  it('keeps right-to-left text itself, and the directional marks', async () => {
    const v = video(2, { title: 'שלום \u200fعربي\u200e' });
    await api.store.upsertVideos([v]);
    const body = await (await api.get(`/?channel_id=${CHANNEL}&format=json`)).text();
    expect(body).to.contain('שלום \u200fعربي\u200e');
  });

  it('ignores an If-Modified-Since later than now (RFC 9110), and honours one in the past', async () => {
    const first = await api.get(`/?channel_id=${CHANNEL}`);
    const lastModified = first.headers.get('last-modified')!;
    for (const future of [new Date(api.now.getTime() + 3_600_000).toUTCString(), 'Fri, 31 Dec 9999 23:59:59 GMT']) {
      const res = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': future } });
      expect(res.status, future).to.equal(200);
    }
    expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': lastModified } })).status).to.equal(304);
    expect((await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-Modified-Since': api.now.toUTCString() } })).status).to.equal(304);
  });
});
