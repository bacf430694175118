// A MongoDB outage under the running service: the compiled API and crawler processes on
// DATABASE_URL=mongodb://…, the server stopped while they run and started again (its data kept, as
// a real server's would be). Meanwhile the API answers every request that needs the store with a
// 500 at once (the driver alone would wait 5 s per request for a server) and /health keeps
// answering; the crawler pauses without counting a failure against the channel, and both carry on
// by themselves once the server is back. This case owns its emulator even when MONGODB_URI names a
// real server: a test cannot stop that one.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { MongoEmulator } from '../support/mongo-emulator';
import type { Started } from '../support/processes';
import { startServicePair, type ServicePair } from '../support/service-pair';
import { waitFor } from '../support/poll';

const KEY = 'outage-key-0123456789abcdef';
const xml = new XMLParser({ ignoreAttributes: false });

describe('mongodb outage under a running API and crawler', function () {
  this.timeout(180_000);
  let pair: ServicePair | undefined;
  let emulator: MongoEmulator;
  let fake: FakePlatform;
  let api: Started;
  let crawler: Started;
  let base: string;
  const channel = makeChannel({ handle: 'outagetalks', count: 12, seed: 11, captionsMix: { manual: 1 } });
  const other = makeChannel({ handle: 'outageother', count: 3, seed: 12, captionsMix: { manual: 1 } });

  before(async () => {
    emulator = await new MongoEmulator({ persist: true }).start();
    fake = await startFakePlatform({ channels: [channel, other] });
    pair = await startServicePair({
      prefix: 'tf-mongo-outage-', key: KEY, keyName: 'outage', platformUrl: fake.url, databaseUrl: emulator.url('tf_outage'),
      env: { API_STORE_BUSY_TIMEOUT_MS: '300' },
    });
    ({ api, crawler, base } = pair);
  });

  after(async () => {
    await pair?.kill();
    await fake?.close();
    await emulator?.dispose();
  });

  // Each request gives up after 4 s: less than the 5 s the driver would wait for a server.
  const get = (query: string) => fetch(`${base}/?${query}`, { headers: { 'X-API-Key': KEY }, signal: AbortSignal.timeout(4000) });
  const entryIds = async (res: Response): Promise<string[]> => {
    const doc = xml.parse(await res.text()) as { feed: { entry?: { id: string } | { id: string }[] } };
    return [doc.feed.entry ?? []].flat().map((e) => e.id);
  };

  it('serves the channel before the outage', async () => {
    expect((await get(`channel_id=${channel.channelId}`)).status).to.equal(404);
    await waitFor('a 200 feed', async () => ((await get(`channel_id=${channel.channelId}`)).status === 200 ? true : undefined), 60_000, 300);
  });

  it('while the server is down: every request needing the store is a 500 at once, /health answers, the crawler pauses', async () => {
    await emulator.stop();
    const answers = await Promise.all(
      [`channel_id=${other.channelId}`, `channel_id=${other.channelId}&format=Rss`, `channel_id=${other.channelId}&max_items=3`].map(get),
    );
    for (const res of answers) {
      expect(res.status).to.equal(500);
      expect(await res.json()).to.have.property('error');
    }
    expect((await fetch(`${base}/health`, { signal: AbortSignal.timeout(4000) })).status).to.equal(200);
    // A crawler caught in a run first tries to hand its channel back (each try waits for a server).
    await waitFor('the crawler to pause', () => (crawler.logs.some((l) => l.msg === 'store unavailable; pausing') ? true : undefined), 90_000);
    expect(api.child.exitCode, 'the API is still running').to.equal(null);
    expect(crawler.child.exitCode, 'the crawler is still running').to.equal(null);
  });

  it('once the server is back both carry on: a new upload is crawled and served, the channel counts no failure', async () => {
    const upload = fake.addUpload(channel.channelId, { title: 'After the outage' });
    await emulator.start();
    await waitFor('the crawler to resume', () => (crawler.logs.some((l) => l.msg === 'store is back; resuming') ? true : undefined), 90_000);
    await waitFor('the new upload in the feed', async () => {
      const res = await get(`channel_id=${channel.channelId}`);
      return res.status === 200 && (await entryIds(res))[0] === upload.videoId ? true : undefined;
    }, 60_000, 300);
    const store = await openStore(emulator.url('tf_outage'), { logger: silentLogger() });
    try {
      expect(await store.getChannel(channel.channelId)).to.deep.include({ consecutiveFailures: 0, lastOutcome: 'ok' });
    } finally {
      await store.close();
    }
    const [a, c] = await Promise.all([api.stop('SIGTERM'), crawler.stop('SIGTERM')]);
    expect(a, api.stderr.join('')).to.deep.equal({ code: 0, signal: null });
    expect(c, crawler.stderr.join('')).to.deep.equal({ code: 0, signal: null });
  });
});
