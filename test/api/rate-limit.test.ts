import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { withTranscripts } from '../support/factories';
import { CHANNEL, KEY, LIMIT, LIMITED_KEY, startApi, video, type TestApi } from './support';
import { createApp } from '../../api/create-app';
import { listen } from '../../api/server';
import { openStore } from '../../shared/store';
import { silentLogger } from '../../shared/logger';

describe('per-key rate limit over HTTP', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi();
    await api.store.upsertVideos(...withTranscripts([video(1)]));
  });
  afterEach(() => api.close());

  const feed = () => api.get(`/?channel_id=${CHANNEL}`, { key: LIMITED_KEY });

  it('counts down N-1 … 0, then answers 429 with retry_after 60 and Retry-After: 60', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await feed();
      expect(res.status).to.equal(200);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).to.deep.equal(['2', '1', '0']);

    for (let i = 0; i < 2; i++) {
      const res = await feed();
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('60');
      expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(res.headers.get('x-frame-options')).to.equal('DENY');
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).to.have.keys('error', 'message', 'retry_after');
      expect(body.error).to.equal('İstek limiti aşıldı');
      expect(body.message).to.match(new RegExp(`\\b${LIMIT}\\b`));
      expect(body.retry_after).to.equal(60);
    }
  });

  it('answers concurrent requests of one key exactly: N allowed counting N-1 … 0, every other one 429', async () => {
    const answers = await Promise.all(Array.from({ length: LIMIT + 3 }, () => feed()));
    const allowed = answers.filter((r) => r.status === 200).map((r) => r.headers.get('x-ratelimit-remaining'));
    expect(allowed.sort()).to.deep.equal(['0', '1', '2']);
    expect(answers.filter((r) => r.status === 429).map((r) => r.headers.get('x-ratelimit-remaining'))).to.deep.equal(['0', '0', '0']);
    const keyId = api.ring.keys.find((k) => k.name === 'limited')!.id;
    expect((await api.store.hitRateLimit(keyId, LIMIT, api.now)).count, 'every request counted once').to.equal(LIMIT + 4);
  });

  it('starts afresh in the next minute', async () => {
    for (let i = 0; i <= LIMIT; i++) await feed();
    expect((await feed()).status).to.equal(429);
    api.now = new Date(api.now.getTime() + 60_000);
    const res = await feed();
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
  });

  it('counts every keyed answer (errors and /info too), and is per key', async () => {
    expect((await api.get('/info', { key: LIMITED_KEY })).headers.get('x-ratelimit-remaining')).to.equal('2');
    const bad = await api.get('/?channel_id=nope', { key: LIMITED_KEY });
    expect(bad.status).to.equal(400);
    expect(bad.headers.get('x-ratelimit-remaining')).to.equal('1');
    const missing = await api.get('/?channel_id=UCzzzzzzzzzzzzzzzzzzzzzz', { key: LIMITED_KEY });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('x-ratelimit-remaining')).to.equal('0');
    expect((await api.get('/info', { key: LIMITED_KEY })).status).to.equal(429);
    // Another key is untouched, and so is /health (no key).
    expect((await api.get('/info', { key: KEY })).status).to.equal(200);
    expect((await api.get('/health', { key: null })).status).to.equal(200);
  });

  it('conditional requests count too', async () => {
    const etag = (await feed()).headers.get('etag')!;
    const res = await api.get(`/?channel_id=${CHANNEL}`, { key: LIMITED_KEY, headers: { 'If-None-Match': etag } });
    expect(res.status).to.equal(304);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('1');
  });

  it('holds across two API instances sharing one store', async () => {
    const store2 = await openStore(`sqlite:${path.join(api.dir, 'api.db')}`, { logger: silentLogger() });
    const app2 = createApp({ store: store2, keys: api.ring, platform: api.platform, logger: silentLogger(), clock: () => api.now });
    const server2 = await listen(app2, 0, '127.0.0.1');
    try {
      const other = (n: number) => fetch(`http://127.0.0.1:${server2.port}/?channel_id=${CHANNEL}`, { headers: { 'X-API-Key': LIMITED_KEY } }).then((r) => [n, r.status, r.headers.get('x-ratelimit-remaining')]);
      const here = (n: number) => feed().then((r) => [n, r.status, r.headers.get('x-ratelimit-remaining')]);
      expect(await here(1)).to.deep.equal([1, 200, '2']);
      expect(await other(2)).to.deep.equal([2, 200, '1']);
      expect(await here(3)).to.deep.equal([3, 200, '0']);
      expect(await other(4)).to.deep.equal([4, 429, '0']);
    } finally {
      await server2.close();
      await store2.close();
    }
  });

  it('holds exactly for concurrent 304s split across two API instances sharing one store', async () => {
    const store2 = await openStore(`sqlite:${path.join(api.dir, 'api.db')}`, { logger: silentLogger() });
    const app2 = createApp({ store: store2, keys: api.ring, platform: api.platform, logger: silentLogger(), clock: () => api.now });
    const server2 = await listen(app2, 0, '127.0.0.1');
    try {
      const bases = [api.base, `http://127.0.0.1:${server2.port}`];
      // Each instance's own ETag (the self link names its port), fetched with another key so the
      // limited key's count starts at zero.
      const etags = await Promise.all(bases.map(async (base) => (await fetch(`${base}/?channel_id=${CHANNEL}`, { headers: { 'X-API-Key': KEY } })).headers.get('etag')!));
      const conditional = (i: number) => fetch(`${bases[i]}/?channel_id=${CHANNEL}`, { headers: { 'X-API-Key': LIMITED_KEY, 'If-None-Match': etags[i]! } }).then((r) => ({ status: r.status, remaining: r.headers.get('x-ratelimit-remaining') }));
      const answers = await Promise.all(Array.from({ length: 4 * LIMIT }, (_, i) => conditional(i % 2)));
      const allowed = answers.filter((a) => a.status === 304);
      expect(allowed.map((a) => a.remaining).sort(), JSON.stringify(answers)).to.deep.equal(Array.from({ length: LIMIT }, (_, i) => String(i)));
      expect(answers.filter((a) => a.status === 429)).to.have.length(3 * LIMIT);
    } finally {
      await server2.close();
      await store2.close();
    }
  });

  it('never sends the raw key to the store: counters are keyed by an opaque id', async () => {
    await feed();
    const db = new Database(path.join(api.dir, 'api.db'), { readonly: true });
    try {
      const dump = JSON.stringify(db.prepare('SELECT * FROM rate_limits').all());
      expect(dump).not.to.contain(LIMITED_KEY);
      expect(dump).to.contain(api.ring.keys.find((k) => k.name === 'limited')!.id);
    } finally {
      db.close();
    }
  });
});
