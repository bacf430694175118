import zlib from 'node:zlib';
import { expect } from 'chai';
import { categoryLogger, silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { CookieJar } from '../../shared/platform/cookie-jar';
import { buildHeaders } from '../../shared/platform/headers';
import { PlatformHttp, type HttpRequest } from '../../shared/platform/http-client';
import { PlatformError } from '../../shared/platform/types';
import { BROWSER_IDENTITIES, identityOf } from '../../shared/platform/user-agents';
import { RecordingServer, useRecordingServer } from './recording-server';
import { capture, platformConfig, stepping } from './support';
import { captureLogs } from '../support/logs';
import { REFUSED_PORT } from '../support/processes';

// The scripted platform every test of this file talks to over real loopback HTTP: what the tests
// see is what the wire carried, headers exactly as they arrived.
const platformServer = new RecordingServer();
let BASE = '';
type Headers = Record<string, string | string[] | undefined>;

function client(opts: { random?: () => number; jar?: CookieJar; timeoutMs?: number; maxBodyBytes?: number; base?: string; logger?: ReturnType<typeof silentLogger> } = {}): PlatformHttp {
  const base = opts.base ?? BASE;
  const jar = opts.jar ?? new CookieJar(new URL(base).hostname);
  return new PlatformHttp({ baseUrl: base, timeoutMs: opts.timeoutMs ?? 5000, jar, logger: opts.logger ?? silentLogger(), random: opts.random, maxBodyBytes: opts.maxBodyBytes });
}

const page = (target: string): HttpRequest => ({ method: 'GET', target, kind: 'page', what: 'page' });

/** Records the headers of every request the scripted platform answers on `path` (any query). */
function recordHeaders(method: 'GET' | 'POST', path: string | RegExp, times: number, body = '{}'): Headers[] {
  const seen: Headers[] = [];
  platformServer.on(method, path, (req) => {
    seen.push(req.headers);
    return { body, headers: { 'content-type': 'application/json' } };
  }, times);
  return seen;
}

describe('platform HTTP client', () => {
  useRecordingServer(platformServer);
  before(() => {
    BASE = platformServer.base;
  });

  describe('browser identities', () => {
    it('has exactly 7 distinct current desktop agents of Chrome, Edge, Firefox and Safari on 3 systems', () => {
      expect(BROWSER_IDENTITIES).to.have.length(7);
      expect(new Set(BROWSER_IDENTITIES.map((b) => b.userAgent)).size).to.equal(7);
      expect(new Set(BROWSER_IDENTITIES.map((b) => b.family))).to.deep.equal(new Set(['chrome', 'edge', 'firefox', 'safari']));
      expect(new Set(BROWSER_IDENTITIES.map((b) => b.platform))).to.deep.equal(new Set(['Windows', 'macOS', 'Linux']));
      for (const b of BROWSER_IDENTITIES) {
        expect(b.userAgent).to.match(/^Mozilla\/5\.0 \(/);
        expect(b.userAgent).not.to.match(/Mobile|Android|iPhone|Headless/);
        const chrome = /Chrome\/(\d+)/.exec(b.userAgent);
        if (chrome) expect(Number(chrome[1])).to.be.at.least(140);
        const firefox = /Firefox\/(\d+)/.exec(b.userAgent);
        if (firefox) expect(Number(firefox[1])).to.be.at.least(140);
      }
    });

    it('chooses one at random per request and uses all 7 over many requests', async () => {
      const seen = recordHeaders('GET', '/watch', 70);
      const c = client({ random: stepping(7) });
      for (let i = 0; i < 70; i++) await c.send(page(`/watch?v=${i}`));
      const agents = seen.map((h) => h['user-agent']);
      expect(new Set(agents).size).to.equal(7);
      // Consecutive requests do not share one agent: the choice is per request.
      expect(agents[0]).not.to.equal(agents[1]);
    });

    it('with the default random source all 7 still come up', async () => {
      const seen = recordHeaders('GET', '/watch', 200);
      const c = client();
      for (let i = 0; i < 200; i++) await c.send(page('/watch?v=x'));
      expect(new Set(seen.map((h) => h['user-agent'])).size).to.equal(7);
    });
  });

  describe('header sets (docs/crawler.md §6)', () => {
    const only = (family: string) => () => BROWSER_IDENTITIES.findIndex((b) => b.family === family) / 7 + 0.01;

    it('navigation from a Chrome-family agent: HTML accept, Sec-Fetch navigate, client hints, consent cookie', async () => {
      const seen = recordHeaders('GET', '/@somehandle', 1);
      const jar = new CookieJar('127.0.0.1');
      jar.set('SOCS', 'CAI');
      await client({ random: only('chrome'), jar }).send(page('/@somehandle'));
      const h = seen[0]!;
      expect(h['user-agent']).to.include('Chrome/');
      expect(h.accept).to.equal('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
      expect(h['accept-language']).to.equal('en-US,en;q=0.9');
      expect(h['accept-encoding']).to.equal('gzip, deflate, br');
      expect(h.referer).to.equal(`${BASE}/`);
      expect(h).to.include({ 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin', 'sec-fetch-user': '?1', 'upgrade-insecure-requests': '1' });
      expect(h['sec-ch-ua']).to.match(/"Google Chrome";v="\d+"/);
      expect(h['sec-ch-ua-mobile']).to.equal('?0');
      expect(h['sec-ch-ua-platform']).to.match(/^"(Windows|macOS|Linux)"$/);
      expect(h.cookie).to.equal('SOCS=CAI');
      expect(h).not.to.have.property('origin');
      expect(h).not.to.have.property('x-youtube-client-name');
    });

    it('Edge names itself in sec-ch-ua; Firefox and Safari send no client hints', async () => {
      for (const family of ['edge', 'firefox', 'safari']) {
        const seen = recordHeaders('GET', '/watch', 1);
        await client({ random: only(family) }).send(page('/watch?v=abc'));
        const h = seen[0]!;
        if (family === 'edge') expect(h['sec-ch-ua']).to.include('"Microsoft Edge"');
        else {
          expect(h, family).not.to.have.property('sec-ch-ua');
          expect(h, family).not.to.have.property('sec-ch-ua-platform');
          expect(h, family).not.to.have.property('sec-ch-ua-mobile');
        }
        expect(h['sec-fetch-mode']).to.equal('navigate');
      }
    });

    it('WEB InnerTube POST (resolve_url): JSON, Origin, client name and version matching the body, no navigation headers', async () => {
      const asked = platformServer.on('POST', '/youtubei/v1/navigation/resolve_url', { body: capture('resolve_url-handle.json') });
      const platform = createPlatformClient(platformConfig(BASE), silentLogger(), { random: only('chrome') });
      expect(await platform.resolveHandle('@gronkh')).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
      expect(asked[0]!.query.toString(), 'the query is exactly prettyPrint=false').to.equal('prettyPrint=false');
      const h = asked[0]!.headers;
      const body = JSON.parse(asked[0]!.body) as unknown;
      expect(h).to.include({ 'content-type': 'application/json', origin: BASE, accept: '*/*', 'x-youtube-client-name': '1' });
      expect(h['x-youtube-client-version']).to.match(/^2\.2026/);
      expect(h).to.include({ 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'same-origin' });
      expect(h).to.have.property('sec-ch-ua');
      expect(h).not.to.have.property('upgrade-insecure-requests');
      expect(h).not.to.have.property('sec-fetch-user');
      expect(h).not.to.have.property('x-goog-api-format-version');
      expect((body as { context: { client: unknown } }).context.client).to.include({ clientName: 'WEB', clientVersion: h['x-youtube-client-version'] });
    });
  });

  describe('on the wire: every header exactly as set, nothing added (docs/crawler.md §6)', () => {
    const only = (family: string) => () => BROWSER_IDENTITIES.findIndex((b) => b.family === family) / 7 + 0.01;
    /** What arrived, minus the two headers HTTP/1.1 itself needs (Host, Connection) and a POST's length. */
    const arrived = (h: Headers, post: boolean): Record<string, string> => {
      const transport = new Set(['host', 'connection', ...(post ? ['content-length'] : [])]);
      return Object.fromEntries(Object.entries(h).filter(([k]) => !transport.has(k)).map(([k, v]) => [k, String(v)]));
    };
    const lower = (h: Record<string, string>): Record<string, string> =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

    for (const family of ['chrome', 'firefox']) {
      it(`a ${family} navigation (handle page) arrives with Sec-Fetch-Mode: navigate, Dest document, User ?1, Upgrade-Insecure-Requests 1`, async () => {
        const seen = recordHeaders('GET', '/@somehandle', 1);
        await client({ random: only(family) }).send(page('/@somehandle'));
        const h = seen[0]!;
        expect(h).to.include({ 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'same-origin', 'sec-fetch-user': '?1', 'upgrade-insecure-requests': '1' });
        const identity = identityOf(String(h['user-agent']));
        expect(arrived(h, false)).to.deep.equal(lower(buildHeaders({ kind: 'page', identity, base: BASE })));
      });
    }

    it('a WEB InnerTube POST (resolve_url) arrives with its own set: Dest empty, Mode same-origin, no navigation headers', async () => {
      const asked = platformServer.on('POST', '/youtubei/v1/navigation/resolve_url', { body: capture('resolve_url-handle.json') });
      const platform = createPlatformClient(platformConfig(BASE), silentLogger(), { random: only('chrome'), consentUpFront: false });
      expect(await platform.resolveHandle('@gronkh')).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
      const h = asked[0]!.headers;
      expect(h).to.include({ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'same-origin', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', origin: BASE });
      expect(h).not.to.have.any.keys('sec-fetch-user', 'upgrade-insecure-requests');
      const client = (JSON.parse(asked[0]!.body) as { context: { client: { clientVersion: string } } }).context.client;
      const identity = identityOf(String(h['user-agent']));
      expect(arrived(h, true)).to.deep.equal(lower(buildHeaders({ kind: 'innertube', identity, base: BASE, client: { id: 1, version: client.clientVersion } })));
    });

    it('timed text (an XHR of the player) arrives with Sec-Fetch-Dest empty and Mode cors', async () => {
      const seen = recordHeaders('GET', '/api/timedtext', 1, '<transcript></transcript>');
      await client({ random: only('edge') }).send({ method: 'GET', target: '/api/timedtext?v=abc&lang=en', kind: 'xhr', what: 'timed text' });
      const h = seen[0]!;
      expect(h).to.include({ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors', 'sec-fetch-site': 'same-origin', accept: '*/*' });
      expect(arrived(h, false)).to.deep.equal(lower(buildHeaders({ kind: 'xhr', identity: identityOf(String(h['user-agent'])), base: BASE })));
    });
  });

  describe('session', () => {
    it('a harvested user agent overrides rotation while it is pinned, with headers that fit it', async () => {
      let now = 1_000_000;
      const platform = createPlatformClient(platformConfig(BASE), silentLogger(), { random: stepping(7), now: () => now, userAgentPinMs: 60_000 });
      const harvested = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';
      platform.adoptSession({ cookies: [{ name: 'fake_clearance', value: 'n.p', domain: '127.0.0.1' }, { name: 'other', value: 'x', domain: '.google.com' }], userAgent: harvested });
      const seen = recordHeaders('GET', '/feeds/videos.xml', 6);
      const CHANNEL = 'UCYJ61XIK64sp6ZFFS8sctxw';
      for (let i = 0; i < 5; i++) await platform.listFeed(CHANNEL);
      expect(new Set(seen.map((h) => h['user-agent']))).to.deep.equal(new Set([harvested]));
      expect(seen[0]!['sec-ch-ua']).to.include('v="139"');
      expect(seen[0]!.cookie).to.equal('SOCS=CAI; fake_clearance=n.p');
      now += 61_000;
      await platform.listFeed(CHANNEL);
      expect(seen[5]!['user-agent']).not.to.equal(harvested);
    });
  });

  describe('consent wall', () => {
    it('consent form → sets CONSENT=YES+<v> (and SOCS) and retries once', async () => {
      platformServer.on('GET', '/feeds/videos.xml', { body: capture('consent-page.html'), headers: { 'content-type': 'text/html' } });
      const seen = recordHeaders('GET', '/feeds/videos.xml', 1, '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>');
      const platform = createPlatformClient(platformConfig(BASE), silentLogger(), { consentUpFront: false });
      expect(await platform.listFeed('UCYJ61XIK64sp6ZFFS8sctxw')).to.include({ title: 'T', complete: true });
      expect(seen[0]!.cookie).to.equal('SOCS=CAI; CONSENT=YES+cb.20210328-17-p0.de+FX+119');
    });

    it('redirect to consent.youtube.com/m → sets SOCS=CAI and retries once; never follows off the host', async () => {
      platformServer.on('POST', '/youtubei/v1/navigation/resolve_url', { status: 302, body: '', headers: { location: 'https://consent.youtube.com/m?continue=x' } });
      platformServer.on('POST', '/youtubei/v1/navigation/resolve_url', { body: capture('resolve_url-handle.json') });
      const platform = createPlatformClient(platformConfig(BASE), silentLogger(), { consentUpFront: false });
      expect(await platform.resolveHandle('gronkh')).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
      expect(platform.jar.get('SOCS')).to.equal('CAI');
    });

    it('a wall that stays after the retry is a consent error', async () => {
      platformServer.on('GET', '/feeds/videos.xml', { body: capture('consent-page.html'), headers: { 'content-type': 'text/html' } }, 2);
      const platform = createPlatformClient(platformConfig(BASE), silentLogger());
      const err = await platform.listFeed('UCYJ61XIK64sp6ZFFS8sctxw').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'consent');
    });
  });

  describe('host', () => {
    it('maps platform URLs onto the base URL and refuses every other host', async () => {
      const local = client({ base: 'http://127.0.0.1:9' });
      expect(local.platformUrl('https://www.youtube.com/api/timedtext?v=x&lang=en').href).to.equal('http://127.0.0.1:9/api/timedtext?v=x&lang=en');
      expect(local.platformUrl('/watch?v=x').href).to.equal('http://127.0.0.1:9/watch?v=x');
      expect(() => local.platformUrl('https://evil.example/api/timedtext')).to.throw(PlatformError);
      expect(() => local.platformUrl('https://www.youtube.com.evil.example/x')).to.throw(PlatformError);
      expect(() => local.platformUrl('file:///etc/passwd')).to.throw(PlatformError);
      const err = await client().send(page('https://evil.example/x')).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'transient');
    });
  });

  describe('over real HTTP (loopback)', () => {
    it('decompresses gzip, deflate and br', async () => {
      const text = 'Zürich & Köln '.repeat(100);
      const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };
      for (const [enc, fn] of Object.entries(encoders)) {
        platformServer.on('GET', `/${enc}`, { headers: { 'content-encoding': enc, 'content-type': 'text/plain; charset=utf-8' }, body: fn(Buffer.from(text)) });
        expect((await client().send(page(`/${enc}`))).body, enc).to.equal(text);
      }
    });

    it('times out a slow answer as transient', async () => {
      platformServer.on('GET', '/slow', { body: 'late', holdMs: 5000 });
      const err = await client({ timeoutMs: 150 }).send(page('/slow')).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'transient');
      expect((err as PlatformError).reason).to.include('timed out');
    });

    it('caps the body size, also for compressed answers', async () => {
      platformServer.on('GET', '/big', { headers: { 'content-type': 'text/html' }, body: 'x'.repeat(50_000) });
      platformServer.on('GET', '/bomb', { headers: { 'content-encoding': 'gzip' }, body: zlib.gzipSync(Buffer.alloc(200_000, 'a')) });
      for (const p of ['/big', '/bomb']) {
        const err = await client({ maxBodyBytes: 10_000 }).send(page(p)).catch((e: unknown) => e);
        expect(err, p).to.be.instanceOf(PlatformError).with.property('outcome', 'transient');
        expect((err as PlatformError).reason).to.include('larger than');
      }
    });

    it('keeps cookies from Set-Cookie and sends them back; expired ones are dropped', async () => {
      platformServer.on('GET', '/a', { headers: { 'set-cookie': ['VISITOR_INFO1_LIVE=abc; Path=/; Secure', 'YSC=1; Max-Age=0'] }, body: 'x' });
      const b = platformServer.on('GET', '/b', { body: 'y' });
      const jar = new CookieJar('127.0.0.1');
      jar.set('SOCS', 'CAI');
      const c = client({ jar });
      await c.send(page('/a'));
      await c.send(page('/b'));
      expect(b[0]!.headers.cookie).to.equal('SOCS=CAI; VISITOR_INFO1_LIVE=abc');
    });

    it('a refused connection is transient', async () => {
      const err = await client({ base: `http://127.0.0.1:${REFUSED_PORT}` }).send(page('/x')).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(PlatformError).with.property('outcome', 'transient');
      expect((err as PlatformError).reason).to.include('network error');
    });

    it('follows same-host redirects', async () => {
      platformServer.on('GET', '/from', { status: 303, headers: { location: '/to' } });
      platformServer.on('GET', '/to', { body: 'arrived' });
      const a = await client().send(page('/from'));
      expect(a.body).to.equal('arrived');
      expect(a.url).to.equal(`${BASE}/to`);
    });

    it('logs every request at DEBUG under platform.http: method, path without secrets, status, ms — never cookies', async () => {
      platformServer.on('GET', '/api/timedtext', { headers: { 'set-cookie': 'SECRET_COOKIE=s3cr3t' }, body: '<transcript></transcript>' });
      const { logger, lines, raw } = captureLogs();
      const platform = createPlatformClient(platformConfig(BASE), logger);
      platform.adoptSession({ cookies: [{ name: 'fake_clearance', value: 'topsecretvalue' }], userAgent: null });
      const jarHttp = new PlatformHttp({ baseUrl: BASE, timeoutMs: 5000, jar: platform.jar, logger: categoryLogger(logger, 'platform.http') });
      await jarHttp.send({ method: 'GET', target: 'https://www.youtube.com/api/timedtext?v=abc&signature=SIGSIG&key=yt8&lang=en', kind: 'xhr', what: 'timed text' });
      const line = lines.find((l) => l.category === 'platform.http')!;
      expect(line).to.include({ level: 'DEBUG', method: 'GET', path: '/api/timedtext?v=abc&lang=en', status: 200 });
      expect(line.ms).to.be.a('number');
      expect(raw.join('')).not.to.match(/topsecretvalue|s3cr3t|SIGSIG|SOCS/);
    });
  });
});
