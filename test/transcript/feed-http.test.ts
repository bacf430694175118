// format=Json over HTTP against the real app: the JSON Feed answer, its own validators and cache entry.

import { expect } from 'chai';
import { CHANNEL, startApi, video, type TestApi } from '../api/support';
import { jsonFeedViolations } from './json-feed-rules';

describe('format=Json over HTTP', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.store.upsertVideos([video(1), video(2)]);
  });
  after(() => api.close());

  it('answers a valid JSON Feed 1.1 as application/feed+json, with the spec security headers', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=Json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/feed+json');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
    const doc = (await res.json()) as { items: { id: string; content_html: string }[]; feed_url: string };
    expect(jsonFeedViolations(doc)).to.deep.equal([]);
    expect(doc.items.map((i) => i.id)).to.deep.equal(['vid00000001', 'vid00000002']);
    expect(doc.feed_url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/\?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=Json$/);
  });

  it('is its own representation: its own ETag, and 304 on a match', async () => {
    const json = await api.get(`/?channel_id=${CHANNEL}&format=json`);
    const atom = await api.get(`/?channel_id=${CHANNEL}`);
    const etag = json.headers.get('etag')!;
    expect(etag).to.match(/^"/);
    expect(etag).not.to.equal(atom.headers.get('etag'));
    expect((await api.get(`/?channel_id=${CHANNEL}&format=json`, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect(await atom.text()).to.match(/^<\?xml/);
  });

  it('names Json in the 400 for an unknown format', async () => {
    const res = await api.get(`/?channel_id=${CHANNEL}&format=jsonfeed`);
    expect(res.status).to.equal(400);
    const body = (await res.json()) as { error: string; message: string };
    expect(body.error).to.equal('Geçersiz format değeri');
    expect(body.message).to.include("'Json'");
  });
});
