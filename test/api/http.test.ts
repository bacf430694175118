import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import { withTranscripts } from '../support/factories';
import { CHANNEL, DISABLED_KEY, KEY, LIMITED_KEY, outsideTranscriptLinks, rawSocket, startApi, video, type TestApi } from './support';
import { VERSION } from '../../api/service-info';
import pkg from '../../package.json';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
};

function expectSecurityHeaders(res: Response): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), name).to.equal(value);
  expect(res.headers.get('x-powered-by')).to.equal(null);
}

async function json(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * A raw request line Node's fetch would refuse to send (bad percent-encoding in the path), and an
 * answer as it came over the wire (no decompression).
 */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string; headers: IncomingHttpHeaders; bytes: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: bytes.toString('utf8'), type: String(res.headers['content-type']), headers: res.headers, bytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API over HTTP: endpoints, errors, headers, auth', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi({ known: { veritasium: CHANNEL } });
    await api.store.upsertVideos(...withTranscripts([video(1), video(2)]));
  });
  after(() => api.close());

  describe('GET /health', () => {
    it('answers without a key: status ok and the service name', async () => {
      const res = await api.get('/health', { key: null });
      expect(res.status).to.equal(200);
      expect(await json(res)).to.deep.equal({ status: 'ok', service: 'YouTube Transcript Feed' });
      expectSecurityHeaders(res);
    });
  });

  describe('GET /info', () => {
    it('requires a key', async () => {
      const res = await api.get('/info', { key: null });
      expect(res.status).to.equal(401);
    });

    it('describes the service: version from package.json, endpoints, usage, examples', async () => {
      const res = await api.get('/info');
      expect(res.status).to.equal(200);
      const body = await json(res);
      expect(body.service).to.equal('YouTube Transcript Feed');
      expect(body.version).to.equal(pkg.version).and.equal(VERSION).and.match(/^\d+\.\d+\.\d+$/);
      expect(Object.keys(body.endpoints as object)).to.deep.equal(['/', '/health', '/info', '/search', '/transcripts/<video_id>.<vtt|srt|txt>']);
      expect(Object.keys(body.usage as object)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
      const examples = body.examples as string[];
      expect(examples.length).to.be.greaterThan(0);
      for (const e of examples) expect(e).to.match(/^\/\?/);
      expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
      expectSecurityHeaders(res);
    });

    it('has examples that really work (channel_id ones, against stored videos)', async () => {
      const examples = ((await json(await api.get('/info'))).examples as string[]).filter((e) => e.includes(`channel_id=${CHANNEL}`));
      expect(examples.length).to.be.greaterThan(0);
      for (const e of examples) {
        const res = e.includes('YOUR_KEY') ? await api.get(e.replace('YOUR_KEY', KEY), { key: null }) : await api.get(e);
        expect(res.status, e).to.equal(200);
      }
    });
  });

  describe('the spec error table, row by row', () => {
    it('400 when no channel parameter is given: error + usage', async () => {
      const res = await api.get('/');
      expect(res.status).to.equal(400);
      const body = await json(res);
      expect(body.error).to.equal('Channel ID bulunamadı');
      expect(Object.keys(body.usage as object)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
    });

    it('400 when the channel cannot be determined (unknown handle): same body', async () => {
      const res = await api.get('/?channel=@nobody_knows_me');
      expect(res.status).to.equal(400);
      const body = await json(res);
      expect(body.error).to.equal('Channel ID bulunamadı');
      expect(body.usage).to.be.an('object');
    });

    it('400 for a malformed channel_id: error + message', async () => {
      const res = await api.get('/?channel_id=UC123');
      expect(res.status).to.equal(400);
      expect(await json(res)).to.deep.equal({ error: 'Geçersiz channel_id formatı', message: "Channel ID 'UC' ile başlamalı ve 24 karakter olmalıdır" });
    });

    it('401 without a key, with a wrong key, with a disabled key (in the header or the query)', async () => {
      const asked = [null, 'wrong-key-000000', DISABLED_KEY, ''].map((key) => ({ path: `/?channel_id=${CHANNEL}`, key }));
      asked.push({ path: `/?channel_id=${CHANNEL}&api_key=${DISABLED_KEY}`, key: null });
      for (const { path, key } of asked) {
        const res = await api.get(path, { key });
        expect(res.status, `${path} ${String(key)}`).to.equal(401);
        expect(await json(res)).to.deep.equal({
          error: 'Geçersiz veya eksik API anahtarı',
          message: 'X-API-Key header veya api_key query parametresi gerekli',
        });
        expect(res.headers.get('x-ratelimit-remaining')).to.equal(null);
        expectSecurityHeaders(res);
      }
    });

    it('404 when nothing is stored yet for the channel: error + channel_id + message', async () => {
      const other = 'UCzzzzzzzzzzzzzzzzzzzzzz';
      const res = await api.get(`/?channel_id=${other}`);
      expect(res.status).to.equal(404);
      const body = await json(res);
      expect(body).to.have.keys('error', 'channel_id', 'message');
      expect(body.error).to.equal('Henüz işlenmiş video yok');
      expect(body.channel_id).to.equal(other);
      expect(res.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
    });

    it('500 when resolving a handle fails at the platform: prefixed error + channel_id, detail only in the log', async () => {
      api.platform.failWith = new Error('socket hang up at 10.0.0.1 with secret token');
      try {
        const res = await api.get('/?channel=@brand_new_handle');
        expect(res.status).to.equal(500);
        const body = await json(res);
        expect(body).to.have.keys('error', 'channel_id');
        expect(body.error).to.match(/^Feed oluşturucu hatası: /);
        expect(JSON.stringify(body)).not.to.contain('secret token');
        expect(api.logs.some((l) => l.includes('"level":"ERROR"') && l.includes('secret token'))).to.equal(true);
      } finally {
        api.platform.failWith = null;
      }
    });
  });

  describe('answers the spec leaves open', () => {
    const cases: [string, string][] = [
      ['/?channel=has%20space', 'Geçersiz channel formatı'],
      ['/?channel_url=https%3A%2F%2Fevil.example%2F%40name', 'Geçersiz channel_url'],
      [`/?channel_id=${CHANNEL}&format=xml`, 'Geçersiz format değeri'],
      [`/?channel_id=${CHANNEL}&max_items=0`, 'Geçersiz max_items değeri'],
      [`/?channel_id=${CHANNEL}&max_items=101`, 'Geçersiz max_items değeri'],
      [`/?channel_id=${CHANNEL}&max_items=2.5`, 'Geçersiz max_items değeri'],
      [`/?channel_id=${CHANNEL}&channel_id=${CHANNEL}`, 'Parametre birden fazla kez verildi'],
    ];
    for (const [p, error] of cases) {
      it(`400 "${error}" for ${p}, with message and usage`, async () => {
        const res = await api.get(p);
        expect(res.status).to.equal(400);
        const body = await json(res);
        expect(body.error).to.equal(error);
        expect(body.message).to.be.a('string');
        expect(body.usage).to.be.an('object');
      });
    }

    it('JSON 404 for unknown paths, never HTML', async () => {
      for (const p of ['/nope', '/infos', '/x/', '/health/x', '/%zz', '/%', '/a%00b']) {
        const res = await rawGet(api.base, p);
        expect(res.status, p).to.equal(404);
        expect(res.type, p).to.match(/^application\/json/);
        expect((JSON.parse(res.body) as { error: string }).error).to.equal('Bulunamadı');
      }
    });

    it('a 404 names the paths of the route table', async () => {
      const body = (await json(await api.get('/nope'))) as { message: string };
      for (const p of ['/', '/health', '/info', '/search', '/subscriptions', '/subscriptions/feed', '/transcripts/<file>', '/status', '/metrics', '/admin/channels']) {
        expect(body.message.split(': ')[1]!.split(', '), p).to.include(p);
      }
      expect(body.message).not.to.contain('websub');
    });

    it('a 405 names the methods its path is served with', async () => {
      const allow = async (method: string, p: string) => (await api.get(p, { method })).headers.get('allow');
      expect(await allow('PUT', '/subscriptions')).to.equal('GET, HEAD, POST, OPTIONS');
      expect(await allow('PUT', '/subscriptions/feed')).to.equal('GET, HEAD, OPTIONS');
      expect(await allow('PUT', '/search')).to.equal('GET, HEAD, OPTIONS');
      expect(await allow('GET', `/subscriptions/${CHANNEL}`)).to.equal('DELETE, OPTIONS');
      // The body says the same methods, and those of the paths beneath (PUT /subscriptions once said "only GET").
      const message = async (method: string, p: string) => ((await json(await api.get(p, { method }))) as { message: string }).message;
      expect(await message('PUT', '/subscriptions')).to.equal('Bu yolda yalnızca GET, HEAD, POST, OPTIONS desteklenir; altındaki yollarda: DELETE /subscriptions/<ref>');
      expect(await message('PUT', '/admin/channels')).to.equal('Bu yolda yalnızca GET, HEAD, OPTIONS desteklenir; altındaki yollarda: DELETE /admin/channels/<id>, POST /admin/channels/<id>/refresh');
      expect(await message('POST', '/info')).to.equal('Bu yolda yalnızca GET, HEAD, OPTIONS desteklenir');
      expect(await message('POST', '/')).to.equal('Bu yolda yalnızca GET, HEAD, OPTIONS desteklenir');
      // What Allow names is served: POST /subscriptions and the preflight are not 405.
      expect((await api.get('/subscriptions', { method: 'POST', body: `https://www.youtube.com/channel/${CHANNEL}\n` })).status).not.to.equal(405);
      expect((await fetch(`${api.base}/subscriptions`, { method: 'OPTIONS', headers: { Origin: 'https://r.example', 'Access-Control-Request-Method': 'GET' } })).status).to.equal(204);
    });

    it('GET and HEAD of the direct rows never enter Express; every other request does', async () => {
      const express = api.app.express as unknown as { handle: (...args: unknown[]) => unknown };
      const handle = express.handle;
      const entered: string[] = [];
      express.handle = function (this: unknown, ...args: unknown[]) {
        const req = args[0] as { method: string; url: string };
        entered.push(`${req.method} ${req.url}`);
        return handle.apply(this, args);
      };
      try {
        for (const method of ['GET', 'HEAD']) {
          for (const p of [`/?channel_id=${CHANNEL}`, `/?playlist_id=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf`, '/health', '/search?q=x', '/subscriptions/feed']) {
            expect((await api.get(p, { method })).status, `${method} ${p}`).to.be.below(500);
          }
        }
        expect(entered).to.deep.equal([]);
        for (const p of ['/info', '/search/?q=x', '/subscriptions', `/transcripts/${'a'.repeat(11)}.vtt`]) await api.get(p);
        await api.get('/', { method: 'POST' });
        expect(entered).to.deep.equal(['GET /info', 'GET /search/?q=x', 'GET /subscriptions', `GET /transcripts/${'a'.repeat(11)}.vtt`, 'POST /']);
      } finally {
        express.handle = handle;
      }
    });

    it('JSON 405 with an Allow header for other methods on known paths', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        for (const p of ['/', '/health', '/info']) {
          const res = await fetch(`${api.base}${p}`, { method, headers: { 'X-API-Key': KEY } });
          expect(res.status, `${method} ${p}`).to.equal(405);
          expect(res.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
          expect((await json(res)).error).to.equal('İzin verilmeyen HTTP metodu');
        }
      }
    });

    it('JSON 400 for requests Node cannot even parse', async () => {
      for (const head of ['GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 'GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n', 'NONSENSE\r\n\r\n']) {
        const answer = await rawSocket(api.base, head);
        expect(answer, JSON.stringify(head)).to.match(/^HTTP\/1\.1 400 /);
        expect(answer).to.contain('Content-Type: application/json');
        expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).to.deep.equal({ error: 'Geçersiz istek', message: 'İstek çözümlenemedi' });
      }
    });

    it('serves HEAD like GET without a body', async () => {
      const res = await fetch(`${api.base}/?channel_id=${CHANNEL}`, { method: 'HEAD', headers: { 'X-API-Key': KEY } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/atom+xml');
      expect(await res.text()).to.equal('');
    });
  });

  describe('response headers', () => {
    it('a feed response carries every header of the spec table, plus validators and caching', async () => {
      const atom = await api.get(`/?channel_id=${CHANNEL}`);
      expect(atom.status).to.equal(200);
      expectSecurityHeaders(atom);
      expect(atom.headers.get('content-type')).to.equal('application/atom+xml');
      expect(atom.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
      expect(atom.headers.get('etag')).to.match(/^"[A-Za-z0-9_-]+"$/);
      expect(new Date(atom.headers.get('last-modified')!).getTime()).to.equal(Math.floor(video(2).fetchedAt.getTime() / 1000) * 1000);
      expect(atom.headers.get('cache-control')).to.equal('private, max-age=60');
      expect(atom.headers.get('access-control-allow-origin')).to.equal('*');
      expect(atom.headers.get('content-security-policy')).to.equal("default-src 'none';frame-ancestors 'none'");
      expect(atom.headers.get('referrer-policy')).to.equal('no-referrer');
      // Dropped on purpose (README "Decisions"): HSTS belongs to the TLS proxy; CORP would stop web readers.
      for (const h of ['strict-transport-security', 'cross-origin-resource-policy', 'x-powered-by']) expect(atom.headers.get(h), h).to.equal(null);

      const rss = await api.get(`/?channel_id=${CHANNEL}&format=Rss`);
      expect(rss.headers.get('content-type')).to.equal('application/rss+xml');
      expectSecurityHeaders(rss);
    });

    it('GET / and HEAD / answer with the same status and headers, raw and compressed', async () => {
      const cases: { path: string; key: string | null }[] = [
        { path: `/?channel_id=${CHANNEL}`, key: KEY }, // 200
        { path: `/?channel_id=${CHANNEL}&format=Rss&max_items=1`, key: KEY }, // 200, another representation
        { path: `/?channel_id=${CHANNEL}`, key: null }, // 401
        { path: '/?channel_id=UCnope', key: KEY }, // 400
        { path: '/?channel_id=UC0123456789abcdefghijkl', key: KEY }, // 404
      ];
      const shape = (res: Response) => {
        const headers = [...res.headers].filter(([name]) => !['date', 'x-ratelimit-remaining', 'connection', 'keep-alive'].includes(name));
        return { status: res.status, headers };
      };
      for (const c of cases) {
        for (const coding of ['identity', 'gzip']) {
          const headers: Record<string, string> = { 'Accept-Encoding': coding, ...(c.key === null ? {} : { 'X-API-Key': c.key }) };
          const get = await rawGet(api.base, c.path, headers);
          const head = await fetch(`${api.base}${c.path}`, { method: 'HEAD', headers });
          const getHeaders = Object.entries(get.headers).filter(([name]) => !['date', 'x-ratelimit-remaining', 'connection', 'keep-alive'].includes(name));
          expect(shape(head), `${coding} ${c.path}`).to.deep.equal({ status: get.status, headers: getHeaders.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) });
          expect(Number(get.headers['content-length'])).to.equal(get.bytes.length);
          expect(get.headers['x-ratelimit-remaining'] !== undefined).to.equal(head.headers.has('x-ratelimit-remaining'));
        }
      }
    });

    it('a 304 carries the 200\'s validators, caching, Vary and CORS, the rate limit, and no security or body headers, from either dispatcher', async () => {
      // RFC 9110 §15.4.5: the fields a 200 would carry among ETag, Cache-Control, Vary, Date (and
      // Last-Modified); a cache keeps the stored 200's other fields (RFC 9111 §4.3.4).
      const expected = ['access-control-allow-origin', 'access-control-expose-headers', 'cache-control', 'connection', 'date', 'etag', 'keep-alive', 'last-modified', 'vary', 'x-ratelimit-remaining'];
      // GET /search takes node:http's direct path, GET /search/ Express's (test above).
      for (const path of [`/?channel_id=${CHANNEL}`, '/search?q=transcript', '/search/?q=transcript']) {
        for (const coding of ['identity', 'gzip']) {
          const full = await rawGet(api.base, path, { 'X-API-Key': KEY, 'Accept-Encoding': coding });
          expect(full.status, path).to.equal(200);
          for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(full.headers[name], `${name} on the 200 of ${path}`).to.equal(value);
          const again = await rawGet(api.base, path, { 'X-API-Key': KEY, 'Accept-Encoding': coding, 'If-None-Match': String(full.headers.etag) });
          expect(again.status, `${coding} ${path}`).to.equal(304);
          expect(Object.keys(again.headers).sort(), `${coding} ${path}`).to.deep.equal(expected);
          expect(again.bytes.length).to.equal(0);
          for (const name of ['etag', 'last-modified', 'cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers']) expect(again.headers[name], name).to.equal(full.headers[name]);
          expect(again.headers['x-ratelimit-remaining']).to.match(/^\d+$/);
        }
      }
    });

    it('errors are not cached', async () => {
      expect((await api.get('/')).headers.get('cache-control')).to.equal('no-store');
    });
  });

  describe('CORS', () => {
    it('answers a preflight without a key: GET, OPTIONS and the two request headers', async () => {
      for (const p of ['/', '/info', '/health']) {
        const res = await fetch(`${api.base}${p}?channel_id=${CHANNEL}`, {
          method: 'OPTIONS',
          headers: { Origin: 'https://reader.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key,content-type' },
        });
        expect(res.status, p).to.equal(204);
        expect(res.headers.get('access-control-allow-origin')).to.equal('*');
        expect(res.headers.get('access-control-allow-methods')).to.equal('GET,OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).to.equal('Content-Type,X-API-Key');
        expect(res.headers.get('x-ratelimit-remaining')).to.equal(null);
        expectSecurityHeaders(res);
      }
    });

    it('lets browser code read the rate-limit header', async () => {
      const res = await api.get(`/?channel_id=${CHANNEL}`, { headers: { Origin: 'https://reader.example' } });
      expect(res.headers.get('access-control-expose-headers')).to.contain('X-RateLimit-Remaining');
    });
  });

  describe('key transports', () => {
    it('accepts the key in the X-API-Key header', async () => {
      expect((await api.get(`/?channel_id=${CHANNEL}`, { key: KEY })).status).to.equal(200);
    });

    it('accepts the key in the api_key query parameter (feed readers cannot set headers)', async () => {
      expect((await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}`, { key: null })).status).to.equal(200);
      expect((await api.get(`/info?api_key=${encodeURIComponent(KEY)}`, { key: null })).status).to.equal(200);
    });

    it('the header wins when both are sent and differ', async () => {
      expect((await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}`, { key: 'wrong-key-000000' })).status).to.equal(401);
      expect((await api.get(`/?channel_id=${CHANNEL}&api_key=wrong-key-000000`, { key: KEY })).status).to.equal(200);
      expect((await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}`, { key: DISABLED_KEY })).status).to.equal(401);
    });

    it('a repeated api_key parameter presents no key', async () => {
      expect((await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}&api_key=${KEY}`, { key: null })).status).to.equal(401);
    });

    it('believes X-Forwarded-Proto/Host only from a trusted proxy (TRUST_PROXY)', async () => {
      const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'feeds.example.org' };
      const untrusted = await (await api.get(`/?channel_id=${CHANNEL}`, { headers: forwarded })).text();
      expect(untrusted).not.to.contain('https://feeds.example.org/');
      const behindProxy = await startApi({ trustProxy: 'loopback' });
      try {
        await behindProxy.store.upsertVideos(...withTranscripts([video(1)]));
        const body = await (await behindProxy.get(`/?channel_id=${CHANNEL}`, { headers: forwarded })).text();
        expect(body).to.contain(`href="https://feeds.example.org/?channel_id=${CHANNEL}"`);
      } finally {
        await behindProxy.close();
      }
    });

    it('the key is never in the self link of the feed', async () => {
      const body = await (await api.get(`/?channel_id=${CHANNEL}&api_key=${KEY}&format=Rss`, { key: null })).text();
      expect(outsideTranscriptLinks(body, KEY)).not.to.contain(KEY);
      expect(body, 'the transcript-file link carries the reader\'s key').to.match(new RegExp(`/transcripts/\\w{3}\\d{8}\\.vtt\\?api_key=${KEY}"`));
      expect(body).to.contain(`/?channel_id=${CHANNEL}&amp;format=Rss`);
      const limitedBody = await (await api.get(`/?api_key=${LIMITED_KEY}&channel_id=${CHANNEL}`, { key: null })).text();
      expect(limitedBody).not.to.contain(LIMITED_KEY);
    });
  });
});
