// Compressed answers over real HTTP: every feed-like answer (channel and playlist feeds, search, the
// combined feed, transcript files) in gzip and br as Accept-Encoding asks (q-values, identity, *),
// with Vary and a strong ETag per coding; read back by rss-parser and webvtt-parser after the
// client's own decompression; 304s for a compressed client's own ETag; and a warm compressed answer
// that compresses nothing (the compression counter of /metrics stays put).

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import Parser from 'rss-parser';
import { WebVTTParser } from 'webvtt-parser';
import type { TranscriptRecord } from '../../shared/store/types';
import { parseMetrics, sample } from '../support/prometheus';
import { ADMIN_KEY, CHANNEL, KEY, startApi, video, type TestApi } from './support';

import { DEFAULT_MAX_ANSWERS_PER_KEY } from '../../api/http/answers-per-key';
const PL = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

function transcript(n: number): TranscriptRecord {
  const videoId = `vid${String(n).padStart(8, '0')}`;
  const paragraphs = Array.from({ length: 40 }, (_, i) => ({ startMs: i * 30_000, text: `Paragraph ${i} of video ${n}: the same words again and again, as speech repeats itself.` }));
  return { videoId, language: 'en', kind: 'manual', paragraphs, fetchedAt: new Date(Date.UTC(2024, 5, 1)) };
}

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent (still compressed). */
  bytes: Buffer;
}

/** One GET as it comes over the wire: nothing decompressed, so the coding can be checked. */
function rawGet(api: TestApi, path: string, headers: Record<string, string>): Promise<Raw> {
  const url = new URL(api.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { 'X-API-Key': KEY, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(r: Raw): string {
  const coding = r.headers['content-encoding'];
  const bytes = coding === 'gzip' ? gunzipSync(r.bytes) : coding === 'br' ? brotliDecompressSync(r.bytes) : r.bytes;
  return bytes.toString('utf8');
}

describe('compressed answers (gzip, br)', function () {
  this.timeout(20_000);
  let api: TestApi;

  before(async () => {
    api = await startApi();
    const videos = [1, 2, 3].map((n) => video(n, { language: 'en', kind: 'manual', description: 'Open source, again.' }));
    await api.store.upsertVideos(videos, [1, 2, 3].map(transcript));
    await api.store.putPlaylist({ playlistId: PL, title: 'A course', owner: 'Teacher', ownerChannelId: CHANNEL, state: 'listed', videoIds: ['vid00000002', 'vid00000001'] }, api.now);
    await api.store.follow(keyIdOf(KEY), [{ channelId: CHANNEL }], 'import', 10, api.now);
  });
  after(() => api.close());

  const FEEDS = [`/?channel_id=${CHANNEL}`, `/?channel_id=${CHANNEL}&format=Rss`, `/?playlist_id=${PL}`, '/search?q=paragraph', '/subscriptions/feed?format=Rss'];

  it('sends each feed in the coding asked for, with Vary and its own ETag, and rss-parser reads every one back', async () => {
    for (const path of FEEDS) {
      const identity = await rawGet(api, path, { 'Accept-Encoding': 'identity' });
      expect(identity.status, path).to.equal(200);
      expect(identity.headers['content-encoding'], path).to.equal(undefined);
      expect(identity.headers.vary, path).to.equal('Accept-Encoding');
      const items = (await new Parser().parseString(decoded(identity))).items.map((i) => i.title);
      expect(items.length, path).to.be.greaterThan(0);
      for (const [coding, suffix] of [['gzip', '-gz'], ['br', '-br']] as const) {
        const r = await rawGet(api, path, { 'Accept-Encoding': coding });
        expect(r.status, `${coding} ${path}`).to.equal(200);
        expect(r.headers['content-encoding'], `${coding} ${path}`).to.equal(coding);
        expect(r.headers.vary).to.equal('Accept-Encoding');
        expect(Number(r.headers['content-length'])).to.equal(r.bytes.length);
        expect(r.bytes.length, `${coding} is smaller`).to.be.lessThan(identity.bytes.length);
        expect(r.headers.etag).to.equal(`${identity.headers.etag!.slice(0, -1)}${suffix}"`);
        expect(decoded(r), `${coding} ${path}: the same document`).to.equal(decoded(identity));
        // What a reader does: its HTTP client decompresses (fetch here), the library parses.
        const res = await api.get(path, { headers: { 'Accept-Encoding': coding } });
        expect(res.headers.get('content-encoding')).to.equal(coding);
        expect((await new Parser().parseString(await res.text())).items.map((i) => i.title), `${coding} ${path}`).to.deep.equal(items);
      }
    }
  });

  it('compresses transcript files too, and webvtt-parser reads the file back', async () => {
    const path = '/transcripts/vid00000001.vtt';
    const identity = await rawGet(api, path, { 'Accept-Encoding': 'identity' });
    expect(identity.status).to.equal(200);
    const r = await rawGet(api, path, { 'Accept-Encoding': 'br' });
    expect(r.headers['content-encoding']).to.equal('br');
    expect(r.headers['content-language']).to.equal('en');
    expect(r.bytes.length).to.be.lessThan(identity.bytes.length);
    const tree = new WebVTTParser().parse(decoded(r), 'metadata');
    expect(tree.errors).to.deep.equal([]);
    expect(tree.cues).to.have.length(40);
  });

  it('honours q-values, identity and * as Accept-Encoding says', async () => {
    const path = `/?channel_id=${CHANNEL}`;
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'], // alike: the smaller
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['*;q=0.1, identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['identity;q=0, *;q=0', undefined], // nothing acceptable: sent as it is rather than a 406
      ['compress, deflate', undefined],
      ['', undefined],
    ];
    for (const [header, want] of cases) {
      const r = await rawGet(api, path, { 'Accept-Encoding': header });
      expect(r.status, header).to.equal(200);
      expect(r.headers['content-encoding'], header).to.equal(want);
    }
  });

  it('answers 304 to a compressed client’s own ETag, with the 200’s ETag and Vary and no body', async () => {
    for (const path of FEEDS) {
      for (const coding of ['gzip', 'br']) {
        const first = await rawGet(api, path, { 'Accept-Encoding': coding });
        const again = await rawGet(api, path, { 'Accept-Encoding': coding, 'If-None-Match': first.headers.etag! });
        expect(again.status, `${coding} ${path}`).to.equal(304);
        expect(again.bytes.length).to.equal(0);
        expect(again.headers.etag).to.equal(first.headers.etag);
        expect(again.headers.vary).to.equal('Accept-Encoding');
        expect(again.headers['content-encoding']).to.equal(undefined);
        // Another coding is another representation: its copy is not this one.
        const other = await rawGet(api, path, { 'Accept-Encoding': 'identity', 'If-None-Match': first.headers.etag! });
        expect(other.status, `identity after ${coding} ${path}`).to.equal(200);
      }
    }
  });

  it('compresses a cached body once per coding: warm compressed answers compress nothing', async () => {
    const compressions = async (coding: string): Promise<number> => {
      const res = await api.get('/metrics', { key: ADMIN_KEY });
      return sample(parseMetrics(await res.text()), 'transcript_feed_feed_compressions_total', { coding }) ?? 0;
    };
    const path = `/?channel_id=${CHANNEL}&max_items=2`;
    const before = { gzip: await compressions('gzip'), br: await compressions('br') };
    // Cold: many requests at once share the one compression (as many as one key may have in
    // progress: more would get the per-key 429 when they happen to overlap).
    const cold = await Promise.all(Array.from({ length: DEFAULT_MAX_ANSWERS_PER_KEY }, () => rawGet(api, path, { 'Accept-Encoding': 'gzip' })));
    expect(cold.map((r) => r.status)).to.deep.equal(cold.map(() => 200));
    expect(new Set(cold.map((r) => r.bytes.toString('base64'))).size).to.equal(1);
    expect(await compressions('gzip')).to.equal(before.gzip + 1);
    for (let i = 0; i < 5; i++) expect((await rawGet(api, path, { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).to.equal('gzip');
    expect(await compressions('gzip'), 'warm gzip answers').to.equal(before.gzip + 1);
    await rawGet(api, path, { 'Accept-Encoding': 'br' });
    await rawGet(api, path, { 'Accept-Encoding': 'br' });
    expect(await compressions('br'), 'br: once').to.equal(before.br + 1);
  });
});
