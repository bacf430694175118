// The hub's callback on the real API, without a crawler: which verifications are echoed, the 1 MB
// bound, and the route's place in the table (no key, no platform request).

import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import type { WebSubRecord } from '../../shared/store/types';
import { startApi, type TestApi } from './support';

const CH = 'UCwebsubapitest000000001';
const TOPIC = `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${CH}`;
const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const SECRET = 'secret-of-the-subscription-0001';

describe('API: /websub/<token> (the platform hub\'s callback)', () => {
  let api: TestApi;
  const record = (overrides: Partial<WebSubRecord> = {}): WebSubRecord => ({
    channelId: CH, topic: TOPIC, token: TOKEN, secret: SECRET, status: 'requested', requestedAt: api.now, verifiedAt: null,
    leaseSeconds: null, leaseExpiresAt: null, nextActionAt: new Date(api.now.getTime() + 900_000), failures: 0, lastError: null, updatedAt: api.now, ...overrides,
  });
  beforeEach(async () => {
    api = await startApi();
  });
  afterEach(async () => api.close());

  const verify = (q: Record<string, string>, token = TOKEN) =>
    api.get(`/websub/${token}?${new URLSearchParams(q).toString()}`, { key: null });

  it('echoes the challenge only for a token, topic and mode it asked for, and records the lease', async () => {
    await api.store.putWebSub(record());
    const ok = { 'hub.mode': 'subscribe', 'hub.topic': TOPIC, 'hub.challenge': 'chal-123', 'hub.lease_seconds': '432000' };
    for (const [q, token] of [
      [{ ...ok, 'hub.topic': TOPIC.replace(CH, 'UCsomeotherchannel000001') }, TOKEN],
      [{ ...ok, 'hub.mode': 'unsubscribe' }, TOKEN],
      [ok, 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'],
      [{ 'hub.mode': 'subscribe', 'hub.topic': TOPIC }, TOKEN],
    ] as const) {
      const res = await verify(q, token);
      expect(res.status, JSON.stringify(q)).to.equal(404);
      expect(await res.text()).to.not.contain('chal-123');
    }
    expect((await api.store.webSubByToken(TOKEN))!.status, 'nothing recorded').to.equal('requested');
    // The topic without /xml is the same topic.
    const res = await verify({ ...ok, 'hub.topic': `https://www.youtube.com/feeds/videos.xml?channel_id=${CH}` });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('chal-123');
    const saved = (await api.store.webSubByToken(TOKEN))!;
    expect(saved).to.deep.include({ status: 'verified', leaseSeconds: 432000, verifiedAt: api.now });
    expect(saved.leaseExpiresAt!.getTime() - api.now.getTime()).to.equal(432_000_000);
    expect(saved.nextActionAt.getTime() - api.now.getTime(), 'renewed before 80 % of the lease').to.be.below(0.8 * 432_000_000);
  });

  it('never echoes for a subscription it did not ask for', async () => {
    await api.store.putWebSub(record({ requestedAt: null }));
    expect((await verify({ 'hub.mode': 'subscribe', 'hub.topic': TOPIC, 'hub.challenge': 'x' })).status).to.equal(404);
  });

  it('refuses a notification over 1 MB with 413, takes one under it, and answers an unknown token 404', async () => {
    await api.store.putWebSub(record({ status: 'verified' }));
    const big = Buffer.alloc(1024 * 1024 + 1, 'a');
    const tooBig = await fetch(`${api.base}/websub/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/atom+xml' }, body: big });
    expect(tooBig.status).to.equal(413);
    expect(((await tooBig.json()) as { error: string }).error).to.equal('Bildirim çok büyük');
    const body = `<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><entry><yt:videoId>abcdefghijk</yt:videoId><yt:channelId>${CH}</yt:channelId><title>t</title><published>2026-11-20T10:00:00+00:00</published></entry></feed>`;
    const signature = `sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}`;
    const ok = await fetch(`${api.base}/websub/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': signature }, body });
    expect(ok.status).to.equal(204);
    expect(await api.store.claimPushedVideo('t', 1000, api.now)).to.deep.include({ videoId: 'abcdefghijk', channelId: CH });
    const unknown = await fetch(`${api.base}/websub/yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy`, { method: 'POST', body });
    expect(unknown.status).to.equal(404);
    // A document with declarations is never expanded: acknowledged and ignored.
    const hostile = `<!DOCTYPE feed [<!ENTITY x "boom">]>${body}`;
    const sig2 = `sha1=${createHmac('sha1', SECRET).update(hostile).digest('hex')}`;
    expect((await fetch(`${api.base}/websub/${TOKEN}`, { method: 'POST', headers: { 'x-hub-signature': sig2 }, body: hostile })).status).to.equal(204);
    expect(api.logLines.some((l) => l.msg === 'push notification that is not the hub\'s feed ignored')).to.equal(true);
  });
});
