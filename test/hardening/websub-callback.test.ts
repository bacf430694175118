// Issue 27 items 8 and 9 on the real API over loopback: the hub's callback looks its token up before
// it reads a body (an unknown token's body is never read), and no hub.lease_seconds gives a 500 or a
// lease outside the documented range (docs/api.md, 3600–864000 s). And from the held list: a forged
// signature, in any form, is acknowledged (a hub must not learn which guess came close) and costs
// nothing: no pushed video recorded, so no crawler work and no platform request.

import { createHmac } from 'node:crypto';
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

  it('acknowledges every forged or missing signature with 204 and records nothing; the signed body is recorded once', async () => {
    const secret = record().secret;
    await api.store.putWebSub(record({ status: 'verified', verifiedAt: api.now }));
    const body = `<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><entry><yt:videoId>forgedvid01</yt:videoId><yt:channelId>${CH}</yt:channelId><title>t</title><published>2026-11-20T10:00:00+00:00</published></entry></feed>`;
    const sha1 = (key: string, text: string): string => createHmac('sha1', key).update(text).digest('hex');
    const right = sha1(secret, body);
    const forgeries: [string, string | null][] = [
      ['no header', null],
      ['empty', ''],
      ['sha1= with nothing', 'sha1='],
      ['another secret', `sha1=${sha1('not-the-secret', body)}`],
      ['the secret of another subscription', `sha1=${sha1('secret-of-the-subscription-0001', body)}`],
      ['the right HMAC of another body', `sha1=${sha1(secret, `${body} `)}`],
      ['the right HMAC, truncated', `sha1=${right.slice(0, 39)}`],
      ['the right HMAC, one digit more', `sha1=${right}0`],
      ['the right HMAC, last digit changed', `sha1=${right.slice(0, 39)}${right.endsWith('0') ? '1' : '0'}`],
      ['the right HMAC under sha256=', `sha256=${right}`],
      ['an sha256 HMAC', `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`],
      ['the right HMAC in base64', `sha1=${Buffer.from(right, 'hex').toString('base64')}`],
      ['the right HMAC without its algorithm', right],
      ['the secret itself', `sha1=${secret}`],
      ['all zeros', `sha1=${'0'.repeat(40)}`],
      ['two signatures', `sha1=${'0'.repeat(40)}, sha1=${right}`],
    ];
    for (const [name, signature] of forgeries) {
      const headers: Record<string, string> = { 'content-type': 'application/atom+xml' };
      if (signature !== null) headers['x-hub-signature'] = signature;
      const res = await fetch(`${api.base}/websub/${TOKEN}`, { method: 'POST', headers, body });
      expect(res.status, name).to.equal(204);
      expect(await api.store.claimPushedVideo('test', 1000, api.now), `${name}: recorded a pushed video`).to.equal(null);
    }
    expect(api.logLines.filter((l) => l.msg === 'push notification with a missing or wrong signature ignored')).to.have.length(forgeries.length);
    const signed = await fetch(`${api.base}/websub/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': `sha1=${right}` }, body });
    expect(signed.status).to.equal(204);
    expect(await api.store.claimPushedVideo('test', 1000, api.now)).to.deep.include({ videoId: 'forgedvid01', channelId: CH });
  });
});
