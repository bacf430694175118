// Thousands of random query strings, including broken percent-encoding, repeated and odd names,
// at / and /info: never a 5xx, every body JSON or a feed.

import { request } from 'node:http';
import { expect } from 'chai';
import { makeRng } from '../support/random';
import { withTranscripts } from '../support/factories';
import { CHANNEL, KEY, startApi, video, type TestApi } from './support';

const NAMES = ['channel_id', 'channel', 'channel_url', 'format', 'max_items', 'api_key', 'api%5Fkey', '__proto__', 'constructor', 'channel_id[]', 'channel[x]', 'x', ''];
const PIECES = [CHANNEL, 'UC', '@veritasium', 'veritasium', 'https%3A%2F%2Fwww.youtube.com%2F%40v', 'https://youtube.com/channel/' + CHANNEL, 'Atom', 'Rss', 'rss', '10', '100', '0', '-1', '1e3',
  '%', '%%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '%FF%FE', '%ED%A0%80', '😀', 'çğıöşü', 'İ', '+', '&', '=', ';', '[', ']', '"', '<', '>', ']]>', '\\', '/', '?', '#x', ''];

function randomQuery(r: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const parts: string[] = [];
  const n = Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    let value = '';
    for (let j = Math.floor(r() * 3); j >= 0; j--) value += r() < 0.15 ? String.fromCharCode(33 + Math.floor(r() * 94)) : pick(PIECES);
    const name = r() < 0.1 ? `%${Math.floor(r() * 256).toString(16)}` : pick(NAMES);
    // The real key only where a key belongs, so that finding it in a log line means a leak.
    if (name.startsWith('api') && r() < 0.5) value = KEY;
    parts.push(r() < 0.1 ? name : `${name}=${value}`);
  }
  // Node refuses to send spaces, control characters and non-ASCII raw; encode those, keep the rest broken.
  return parts.join(r() < 0.1 ? '&&' : '&').replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c)).replace(/#/g, '%23');
}

function get(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fuzzing the query string', function () {
  this.timeout(120000);
  let api: TestApi;
  before(async () => {
    api = await startApi({ known: { veritasium: CHANNEL, v: CHANNEL } });
    await api.store.upsertVideos(...withTranscripts([video(1), video(2)]));
  });
  after(() => api.close());

  it('3000 random queries at / and /info: no 5xx, every body JSON or a feed', async () => {
    const r = makeRng(20240601);
    const statuses = new Map<number, number>();
    const total = 3000;
    const concurrency = 8;
    let done = 0;
    const worker = async () => {
      while (done < total) {
        const i = done++;
        const path = `${i % 3 === 0 ? '/info' : '/'}?${randomQuery(r)}`;
        const headers: Record<string, string> = r() < 0.5 ? { 'X-API-Key': KEY } : {};
        const res = await get(api.base, path, headers);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, path).to.be.below(500);
        if (res.status === 200 && /xml/.test(res.type)) {
          expect(res.body, path).to.match(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<(feed|rss) /);
        } else {
          expect(res.type, path).to.match(/^application\/json/);
          expect(() => JSON.parse(res.body) as unknown, path).not.to.throw();
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    // The mix really reached the interesting answers, not only 401s.
    for (const s of [200, 400, 401]) expect(statuses.get(s) ?? 0, `status ${s} in ${JSON.stringify([...statuses])}`).to.be.greaterThan(0);
    const leaked = api.logs.filter((l) => l.includes(KEY));
    expect(leaked.slice(0, 3), 'log lines holding the key').to.deep.equal([]);
  });
});
