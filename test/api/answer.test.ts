// The one answer writer's fixed headers, pinned as literal lists: what every answer but a 304
// starts with, what a 304 keeps, the CORS preflight, and the bytes of an answer to a request that
// never parsed. A change to any of them is a change to this file, on purpose.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { CHANNEL, KEY, rawSocket, startApi, video, type TestApi } from './support';
import { withTranscripts } from '../support/factories';

const SECURITY = [
  'Content-Security-Policy: default-src \'none\';frame-ancestors \'none\'',
  'Referrer-Policy: no-referrer',
  'X-Content-Type-Options: nosniff',
  'X-Frame-Options: DENY',
  'X-XSS-Protection: 1; mode=block',
];
const CORS = ['Access-Control-Allow-Origin: *', 'Access-Control-Expose-Headers: X-RateLimit-Remaining,Retry-After'];

/** The head's lines of a raw answer, without the status line and Date. */
function head(raw: string): string[] {
  return raw.split('\r\n\r\n')[0]!.split('\r\n').slice(1).filter((l) => !l.startsWith('Date: '));
}

describe('the one answer writer (api/http/answer.ts)', () => {
  let api: TestApi;
  let host: string;
  const ask = (lines: string[]): Promise<string> => rawSocket(api.base, `${[...lines, `Host: ${host}`, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  before(async () => {
    api = await startApi();
    host = new URL(api.base).host;
    await api.store.upsertVideos(...withTranscripts([video(1)]));
  });
  after(() => api.close());

  it('starts every answer with the security headers, then CORS, then no-store, from either dispatcher', async () => {
    const body = '{"status":"ok","service":"YouTube Transcript Feed"}';
    const fields = [...SECURITY, ...CORS, 'Cache-Control: no-store', 'Content-Type: application/json; charset=utf-8', `Content-Length: ${body.length}`, 'Connection: close'];
    expect(head(await ask(['GET /health HTTP/1.1']))).to.deep.equal(fields);
    // /health/ is not the direct row's exact path: Express serves it, a 404 with the same fixed fields first.
    expect(head(await ask(['GET /health/ HTTP/1.1'])).slice(0, 8)).to.deep.equal([...SECURITY, ...CORS, 'Cache-Control: no-store']);
  });

  it('keeps only CORS of the fixed fields on a 304, on both dispatchers', async () => {
    for (const p of [`/?channel_id=${CHANNEL}`, `/search/?q=video`]) {
      const first = await ask([`GET ${p} HTTP/1.1`, `X-API-Key: ${KEY}`]);
      expect(first.split('\r\n')[0], p).to.equal('HTTP/1.1 200 OK');
      const etag = head(first).find((l) => l.startsWith('ETag: '))!.slice(6);
      const raw = await ask([`GET ${p} HTTP/1.1`, `X-API-Key: ${KEY}`, `If-None-Match: ${etag}`]);
      expect(raw.split('\r\n')[0], p).to.equal('HTTP/1.1 304 Not Modified');
      const lines = head(raw);
      expect(lines.slice(0, 2), p).to.deep.equal(CORS);
      for (const s of SECURITY) expect(lines, p).not.to.include(s);
    }
  });

  it('answers the CORS preflight with 204, the fixed fields and the preflight\'s own', async () => {
    const raw = await ask(['OPTIONS / HTTP/1.1', 'Origin: https://reader.example', 'Access-Control-Request-Method: GET']);
    expect(raw.split('\r\n')[0]).to.equal('HTTP/1.1 204 No Content');
    expect(head(raw)).to.deep.equal([
      ...SECURITY,
      ...CORS,
      'Cache-Control: no-store',
      'Access-Control-Allow-Methods: GET,OPTIONS',
      'Access-Control-Allow-Headers: Content-Type,X-API-Key',
      'Access-Control-Max-Age: 600',
      'Content-Length: 0',
      'Connection: close',
    ]);
  });

  it('writes a request that never parsed the same fixed fields as raw bytes', async () => {
    const raw = await rawSocket(api.base, 'NOT HTTP\r\n\r\n');
    expect(raw.split('\r\n')[0]).to.equal('HTTP/1.1 400 Bad Request');
    expect(head(raw).slice(0, 8)).to.deep.equal([...SECURITY, ...CORS, 'Cache-Control: no-store']);
  });

  it('fits on one screen', () => {
    const lines = readFileSync(path.join(__dirname, '../../api/http/answer.ts'), 'utf8').split('\n').length;
    expect(lines).to.be.at.most(90);
  });
});
