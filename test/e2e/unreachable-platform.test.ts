// The quick start's own curl on a machine without internet (issue 26 item 1): `/?channel=@handle`
// answered 500 "kanal adı çözümlenemedi (platform: transient)". Now the compiled API, its platform
// a loopback port that refuses connections, answers as the channel_id form does: 404 "no processed
// video yet" saying the platform could not be reached and when the handle is asked again, and the
// handle is queued for the crawler as an import queues it. A crawler that reaches the (fake)
// platform resolves it, and the same URL gives the feed. A handle the platform says does not exist
// stays a 400.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { sha256 } from '../../shared/config/security';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { waitFor } from '../support/poll';
import { REFUSED_PORT, ensureBuilt, listeningPort, startEntry, type Started } from '../support/processes';
import { tempStore, type TempStore } from '../support/temp-store';

const KEY = 'offline-reader-key-0123456789';
const KEY_ID = sha256(KEY).toString('hex');
const OFFLINE = `http://127.0.0.1:${REFUSED_PORT}`;
const MESSAGE = /^Platforma ulaşılamadı \(ağ bağlantısı yok ya da platform yanıt vermiyor\), bu yüzden '@offlinetalks' kanal adı çözümlenemedi; kanal tarayıcının sırasına alındı ve adı (\d{4}-\d\d-\d\d \d\d:\d\d) UTC'de yeniden sorulacak, lütfen sonra tekrar deneyin$/;

interface ErrorAnswer {
  error: string;
  message: string;
  channel_id: string;
}

describe('a handle while the platform cannot be reached', function () {
  this.timeout(180_000);
  const channel = makeChannel({ handle: 'offlinetalks', title: 'Offline Talks', count: 6, seed: 26, captionsMix: { manual: 1 } });
  let ts: TempStore;
  let fake: FakePlatform;
  const procs: Started[] = [];
  let base: string;

  /** The compiled API or crawler on the test's store, asking the platform at `platformUrl`. */
  const start = (entry: 'api' | 'crawler', platformUrl: string): Started => {
    const proc = startEntry(entry, {
      PORT: '0', HOST: '127.0.0.1', CONFIG_FILE: path.join(ts.dir, 'settings.yaml'), DATABASE_URL: ts.url,
      SECURITY_CONFIG: path.join(ts.dir, 'security.yaml'), PLATFORM_BASE_URL: platformUrl,
      CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0.05', CRAWL_BLOCKED_WAIT: '0.05-0.1', CRAWL_POLL_SECONDS: '1', BROWSER_EXECUTABLE_PATH: 'off',
    }, ts.dir);
    procs.push(proc);
    return proc;
  };
  const feed = (query: string, at = base) => fetch(`${at}/?${query}`, { headers: { 'X-API-Key': KEY } });

  before(async () => {
    ensureBuilt();
    ts = await tempStore('tf-offline-', { file: 'feeds.db' });
    writeFileSync(path.join(ts.dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: offline reader\n      rate_limit: 1000\n      enabled: true\n`);
    writeFileSync(path.join(ts.dir, 'settings.yaml'), '');
    fake = await startFakePlatform({ channels: [channel] });
    base = `http://127.0.0.1:${await listeningPort(start('api', OFFLINE))}`;
  });

  after(async () => {
    for (const p of procs) await p.stop('SIGKILL');
    await fake?.close();
    await ts?.cleanup();
  });

  it('answers the channel_id form\'s 404, saying the platform could not be reached and when the handle is asked again; the handle waits for the crawler', async () => {
    const asked = Math.floor(Date.now() / 60_000) * 60_000;
    const res = await feed('channel=@offlinetalks');
    expect(res.status).to.equal(404);
    const body = (await res.json()) as ErrorAnswer;
    expect(Object.keys(body)).to.deep.equal(['error', 'message', 'channel_id']);
    expect(body.error).to.equal('Henüz işlenmiş video yok');
    expect(body.channel_id).to.equal('');
    const next = MESSAGE.exec(body.message);
    expect(next, body.message).to.not.equal(null);
    // The next try: the API's own in a minute (the crawler's round of queued handles is as often).
    const nextAt = Date.parse(`${next![1]!.replace(' ', 'T')}:00Z`);
    expect(nextAt).to.be.within(asked, Date.now() + 61_000);

    // Queued as an import queues a handle: the key follows it until the crawler resolves it.
    const subs = await ts.store.listSubscriptions(KEY_ID);
    expect(subs.map((s) => ({ handle: s.handle, channelId: s.channelId, source: s.source }))).to.deep.equal([{ handle: 'offlinetalks', channelId: null, source: 'feed' }]);

    // Asked again at once: the same answer, and the dead platform is not asked again.
    const again = await feed('channel=@offlinetalks');
    expect(again.status).to.equal(404);
    expect(((await again.json()) as ErrorAnswer).message).to.match(MESSAGE);
    expect(await ts.store.platformRequestsInHour(new Date(), 'api'), 'lookups sent to the platform').to.equal(1);

    // The channel_id form, for comparison: its 404 too.
    const byId = await feed(`channel_id=${channel.channelId}`);
    expect(byId.status).to.equal(404);
    expect(((await byId.json()) as ErrorAnswer).channel_id).to.equal(channel.channelId);
    expect(procs[0]!.logs.some((l) => l.category === 'api.feed' && String(l.msg).startsWith('handle not resolved (platform unreachable or blocking); queued for the crawler'))).to.equal(true);
  });

  it('a crawler that reaches the platform resolves the queued handle, and the same URL gives the feed', async () => {
    start('crawler', fake.url);
    const ok = await waitFor('the feed by handle', async () => {
      const res = await feed('channel=@offlinetalks');
      return res.status === 200 ? res : undefined;
    }, 120_000, 500);
    expect(await ok.text()).to.contain(`<id>${channel.channelId}</id>`);
    const subs = await ts.store.listSubscriptions(KEY_ID);
    expect(subs.map((s) => s.channelId)).to.deep.equal([channel.channelId]);
  });

  it('a handle the platform says does not exist stays a 400', async () => {
    const reachable = `http://127.0.0.1:${await listeningPort(start('api', fake.url))}`;
    const res = await feed('channel=@nosuchtalks', reachable);
    expect(res.status).to.equal(400);
    const body = (await res.json()) as ErrorAnswer;
    expect(body.error).to.equal('Channel ID bulunamadı');
    expect(body.message).to.equal("Platformda '@nosuchtalks' adlı bir kanal yok; adı kontrol edin ya da channel_id kullanın");
    expect(await ts.store.listSubscriptions(KEY_ID), 'nothing queued for a handle that does not exist').to.have.length(1);
  });
});
