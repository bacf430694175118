// The fake hub on its own, with a small subscriber on loopback: subscription with verification of
// intent, leases, signatures, notifications, and each switch.

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { HUB_MAX_LEASE_SECONDS, startFakeHub, topicOf, type FakeHub } from './hub';

const CH_ID = 'UCfakehubtest00000000001';

interface Seen {
  method: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('fake platform: WebSub hub', () => {
  let hub: FakeHub;
  let subscriber: Server;
  let callback: string;
  let seen: Seen[];
  /** What the subscriber answers a verification: echo the challenge unless told otherwise. */
  let echo: boolean;

  beforeEach(async () => {
    hub = await startFakeHub();
    seen = [];
    echo = true;
    subscriber = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://sub');
        seen.push({ method: req.method ?? '', query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const challenge = url.searchParams.get('hub.challenge');
        res.writeHead(req.method === 'GET' && challenge && !echo ? 404 : 200);
        res.end(req.method === 'GET' && echo ? (challenge ?? '') : '');
      });
    });
    await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', () => resolve()));
    callback = `http://127.0.0.1:${(subscriber.address() as AddressInfo).port}/websub/tok`;
  });
  afterEach(async () => {
    await hub.close();
    await new Promise<void>((resolve) => subscriber.close(() => resolve()));
  });

  const subscribe = (fields: Record<string, string> = {}, mode = 'subscribe') =>
    fetch(hub.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'hub.mode': mode, 'hub.topic': topicOf(CH_ID), 'hub.callback': callback, 'hub.verify': 'async', 'hub.lease_seconds': '432000', 'hub.secret': 'a-secret-of-24-characters', ...fields }).toString(),
    });

  it('answers 202, verifies intent with a challenge, and grants the lease asked (at most its maximum)', async () => {
    expect((await subscribe()).status).to.equal(202);
    await hub.settle();
    const verification = seen.find((s) => s.method === 'GET')!;
    expect(verification.query.get('hub.mode')).to.equal('subscribe');
    expect(verification.query.get('hub.topic')).to.equal(topicOf(CH_ID));
    expect(verification.query.get('hub.lease_seconds')).to.equal('432000');
    expect(verification.query.get('hub.challenge')).to.match(/^[0-9a-f]{24}$/);
    expect(hub.subscriptions()).to.have.length(1);
    expect(hub.subscriptions()[0]).to.deep.include({ channelId: CH_ID, leaseSeconds: 432000, secret: 'a-secret-of-24-characters' });
    await subscribe({ 'hub.lease_seconds': String(HUB_MAX_LEASE_SECONDS * 2) });
    await hub.settle();
    expect(hub.subscriptions()[0]!.leaseSeconds).to.equal(HUB_MAX_LEASE_SECONDS);
    // The topic without /xml is accepted too.
    expect((await subscribe({ 'hub.topic': `https://www.youtube.com/feeds/videos.xml?channel_id=${CH_ID}` })).status).to.equal(202);
  });

  it('does not subscribe a callback that does not echo the challenge; refuses bad requests', async () => {
    echo = false;
    await subscribe();
    await hub.settle();
    expect(hub.subscriptions()).to.have.length(0);
    expect(hub.counters.verifyFailed).to.equal(1);
    expect((await subscribe({ 'hub.topic': 'https://example.org/feed' })).status).to.equal(400);
    const notForm = await fetch(hub.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(notForm.status).to.equal(400);
  });

  it('notifies uploads, edits and deletions, signed with the subscriber\'s secret; a lapsed lease gets nothing', async () => {
    await subscribe();
    await hub.settle();
    const publishedAt = new Date('2026-11-20T10:00:00Z');
    expect(await hub.notifyUpload({ videoId: 'abcdefghijk', channelId: CH_ID, title: 'A & B', publishedAt })).to.equal(1);
    const post = seen.find((s) => s.method === 'POST')!;
    expect(post.headers['content-type']).to.equal('application/atom+xml');
    const expected = createHmac('sha1', 'a-secret-of-24-characters').update(post.body).digest('hex');
    expect(post.headers['x-hub-signature']).to.equal(`sha1=${expected}`);
    expect(post.body).to.contain('<yt:videoId>abcdefghijk</yt:videoId>').and.contain('A &amp; B').and.contain(`<link rel="self" href="${topicOf(CH_ID)}"/>`);
    await hub.notifyEdit({ videoId: 'abcdefghijk', channelId: CH_ID, title: 'A & B (edited)', publishedAt });
    expect(seen.filter((s) => s.method === 'POST')[1]!.body).to.match(/<updated>2026-1[1-9]-\d\dT/).and.contain('<published>2026-11-20T10:00:00+00:00</published>');
    await hub.notifyDeletion(CH_ID, 'abcdefghijk');
    expect(seen.filter((s) => s.method === 'POST')[2]!.body).to.contain('<at:deleted-entry ref="yt:video:abcdefghijk"');
    hub.lapse(CH_ID);
    expect(await hub.notifyUpload({ videoId: 'bbcdefghijk', channelId: CH_ID, title: 'x', publishedAt })).to.equal(0);
  });

  it('switches: deny, 503 with Retry-After, a share of notifications dropped, a short lease', async () => {
    hub.deny(1);
    expect((await subscribe()).status).to.equal(202);
    await hub.settle();
    const denial = seen.find((s) => s.query.get('hub.mode') === 'denied')!;
    expect(denial.query.get('hub.topic')).to.equal(topicOf(CH_ID));
    expect(denial.query.get('hub.reason')).to.be.a('string');
    expect(hub.subscriptions()).to.have.length(0);

    hub.unavailable(1, 90);
    const refused = await subscribe();
    expect(refused.status).to.equal(503);
    expect(refused.headers.get('retry-after')).to.equal('90');

    hub.grantLease(2);
    await subscribe();
    await hub.settle();
    expect(hub.subscriptions()[0]!.leaseSeconds).to.equal(2);

    hub.dropShare(0.5);
    const publishedAt = new Date();
    let delivered = 0;
    for (let i = 0; i < 4; i++) delivered += await hub.notifyUpload({ videoId: `vid${i}aaaaaaa`, channelId: CH_ID, title: 't', publishedAt });
    expect(delivered).to.equal(2);
    expect(hub.counters.dropped).to.equal(2);
    expect(hub.requests.map((r) => r.status)).to.deep.equal([202, 503, 202]);
  });
});
