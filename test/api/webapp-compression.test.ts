// The web app's pages are compressed as feeds are (issue 29's page weight): the coding negotiated
// from Accept-Encoding by the feeds' own rules (gzip, br, none), `Vary: Accept-Encoding` on every
// page, and the decoded bytes the same page the uncompressed answer is. Real API on port 0.

import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { transcriptRecord } from '../support/factories';
import { sessionOf, signIn } from './webapp-support';
import { KEY, startApi, video, type TestApi } from './support';

/** The answer's bytes as sent: node:http does not decode a Content-Encoding (fetch would). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('web app pages compressed as feeds are', function () {
  let api: TestApi;
  let session: string;
  before(async () => {
    api = await startApi();
    session = sessionOf(await signIn(api, KEY));
    const v = video(1, { title: 'A long <talk>' });
    const paragraphs = Array.from({ length: 180 }, (_, i) => ({ startMs: i * 20_000, text: `paragraph ${i} of a talk that goes on and on about the same few things.` }));
    await api.store.upsertVideos([v], [{ ...transcriptRecord(v, paragraphs), language: 'en', kind: 'manual' }]);
  });
  after(async () => api.close());

  const page = (accept: string) => rawGet(`${api.base}/app/videos/${video(1).videoId}`, { Cookie: session, 'Accept-Encoding': accept });

  it('sends gzip or br when the browser takes them, the same page decoded, Vary: Accept-Encoding', async () => {
    const plain = await page('identity');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers.vary).to.match(/Accept-Encoding/i);
    const text = plain.body.toString('utf8');
    expect(text).to.contain('A long &lt;talk').and.contain('paragraph 179 of a talk');

    const br = await page('gzip, deflate, br');
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.match(/Accept-Encoding/i);
    expect(br.headers['content-type']).to.match(/^text\/html; charset=utf-8/);
    expect(br.headers['content-security-policy']).to.equal(plain.headers['content-security-policy']);
    expect(Number(br.headers['content-length'])).to.equal(br.body.length).and.below(plain.body.length);
    expect(brotliDecompressSync(br.body).toString('utf8')).to.equal(text);

    const gz = await page('gzip');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).to.equal(text);
  });

  it('compresses the sign-in page too, and sends none without Accept-Encoding', async () => {
    const signInPage = await rawGet(`${api.base}/app/`, { 'Accept-Encoding': 'gzip' });
    expect(signInPage.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(signInPage.body).toString('utf8')).to.contain('name="api_key"');
    const none = await rawGet(`${api.base}/app/`, { Cookie: session });
    expect(none.headers['content-encoding']).to.equal(undefined);
    expect(none.body.toString('utf8')).to.contain('/app/sign-out');
  });
});
