// Issue 27 items 8 and 9 on the real API over loopback: the hub's callback looks its token up before
// it reads a body (an unknown token's body is never read), and no hub.lease_seconds gives a 500 or a
// lease outside the documented range (docs/api.md, 3600–864000 s).

import { request } from 'node:http';
import { expect } from 'chai';
import type { WebSubRecord } from '../../shared/store/types';
import { startApi, type TestApi } from '../api/support';

const CH = 'UCwebsubhardening0000001';
const TOPIC = `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${CH}`;
const TOKEN = 'hardeningtokenabcdefghijklmnop01';

describe('hardening: the WebSub callback (issue 27.8, 27.9)', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi();
  });
  afterEach(async () => api.close());

  const record = (overrides: Partial<WebSubRecord> = {}): WebSubRecord => ({
    channelId: CH, topic: TOPIC, token: TOKEN, secret: 'hardening-secret-000000001', status: 'requested', requestedAt: api.now, verifiedAt: null,
    leaseSeconds: null, leaseExpiresAt: null, nextActionAt: new Date(api.now.getTime() + 900_000), failures: 0, lastError: null, updatedAt: api.now, ...overrides,
  });

  it('answers an unknown token 404 before its body is sent (the body is never read)', async () => {
    const url = new URL(`${api.base}/websub/unknownunknownunknownunknown0001`);
    // Announces 1 MB and sends 16 bytes: only an answer that does not wait for the body arrives.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/atom+xml', 'content-length': String(1024 * 1024) } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('<feed>0123456..');
    });
    expect(status).to.equal(404);
  });

  it('clamps hub.lease_seconds to 3600–864000 and never answers 500 to any value', async () => {
    const cases: [string | null, number][] = [
      ['99999999999999999', 864_000], ['1e400', 432_000], ['1', 3600], ['0', 432_000], ['-5', 432_000], ['abc', 432_000], ['', 432_000], [null, 432_000], ['86400', 86_400],
    ];
    for (const [asked, expected] of cases) {
      await api.store.putWebSub(record());
      const q: Record<string, string> = { 'hub.mode': 'subscribe', 'hub.topic': TOPIC, 'hub.challenge': 'c' };
      if (asked !== null) q['hub.lease_seconds'] = asked;
      const res = await api.get(`/websub/${TOKEN}?${new URLSearchParams(q).toString()}`, { key: null });
      expect(res.status, String(asked)).to.equal(200);
      const saved = (await api.store.webSubByToken(TOKEN))!;
      expect(saved.leaseSeconds, String(asked)).to.equal(expected);
      expect(saved.leaseExpiresAt!.getTime() - api.now.getTime(), String(asked)).to.equal(expected * 1000);
    }
  });
});
