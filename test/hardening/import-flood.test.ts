// One key's import of 5,000 junk lines (half channel ids the platform does not know, half handles it
// does not know) stopped the crawler for everyone: 500 resolve_url requests spent the hourly budget
// in seconds, the junk ids (stored with no creator) were listed in order before another key's real
// imported channel, and every junk handle was asked again the next day. Now an import is work its
// key asks for: its new channels count against the key's hourly allowance (the rest wait in the
// key's queue, shown in the answer and on the status page) and are awaited round-robin with every
// other key's work; its handles get the key's own hourly share of platform requests; a channel
// the platform never showed is retired at its first "does not exist". The real API and crawler
// processes on one SQLite file, the crawler against the fake platform over HTTP, at a budget of 60
// requests an hour; /health is asked all along.

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { startFakePlatform, type FakePlatform } from '../fake-platform';
import { makeChannel } from '../fake-platform/data';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { waitFor } from '../support/poll';
import { runsStarted, startCrawlerProcess, type CrawlerProcess } from '../crawler/support/crawler-process';

const ATTACKER = 'flood-attacker-key-000001';
const READER = 'flood-reader-key-0000002';
const IMPORTER = 'flood-importer-key-00003';
const ADMIN = 'flood-admin-key-000000004';
const CHANNELS_PER_HOUR = 10;
const HANDLES_PER_HOUR = 5;
const JUNK = 2_500;
const SHARES = { CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR: String(CHANNELS_PER_HOUR), CRAWL_IMPORT_HANDLES_PER_KEY_HOUR: String(HANDLES_PER_HOUR) };
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** A channel id in the spec's form that names no channel on the platform. */
const junkId = (i: number): string => `UCjunk${String(i).padStart(18, '0')}`;

describe('an import flood from one key', function () {
  this.timeout(240_000);
  let fake: FakePlatform;
  let api: ApiProcess;
  let crawler: CrawlerProcess | null = null;

  beforeEach(async () => {
    fake = await startFakePlatform({ channels: [] });
    api = await startApiProcess({
      keys: {
        [ATTACKER]: { name: 'attacker', rate_limit: 1000 }, [READER]: { name: 'reader', rate_limit: 1000 },
        [IMPORTER]: { name: 'importer', rate_limit: 1000 }, [ADMIN]: { name: 'operator', rate_limit: 1000, role: 'admin' },
      },
      env: { ...SHARES, PLATFORM_BASE_URL: fake.url },
    });
  });
  afterEach(async () => {
    await crawler?.kill('SIGKILL');
    crawler = null;
    await api?.stop();
    await fake?.close();
  });

  const feedStatus = async (query: string, key: string): Promise<number> => {
    const res = await fetch(`${api.base}/?${query}`, { headers: { 'X-API-Key': key } });
    await res.arrayBuffer();
    return res.status;
  };
  const importList = async (key: string, body: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${api.base}/subscriptions`, { method: 'POST', body, headers: { 'X-API-Key': key } });
    const answer = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(answer).slice(0, 300)).to.equal(200);
    return answer;
  };

  it('the other keys\' new and imported channels are fetched in their turn, the junk costs its key\'s allowance and share only, /health answers throughout', async () => {
    const readers = fake.addChannel(makeChannel({ handle: 'readerschannel', count: 3, captionsMix: { manual: 1 } }));
    const imported = fake.addChannel(makeChannel({ handle: 'importedchannel', count: 3, captionsMix: { manual: 1 } }));
    crawler = startCrawlerProcess(api.dir, { ...SHARES, DATABASE_URL: `sqlite:${api.dir}/feeds.db`, PLATFORM_BASE_URL: fake.url, CRAWL_REQUESTS_PER_HOUR: '60', CRAWL_BATCH_SIZE: '5' });
    const c = crawler;

    // /health all along, each answer awaited before the next question.
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const res = await fetch(`${api.base}/health`, { headers: { Connection: 'close' } });
        await res.arrayBuffer();
        health.push(res.status);
        await new Promise((r) => setImmediate(r));
      }
    })();

    const lines = [...Array.from({ length: JUNK }, (_, i) => junkId(i)), ...Array.from({ length: JUNK }, (_, i) => `@junkhandle${i}`)];
    const flood = await importList(ATTACKER, `${lines.join('\n')}\n`);
    expect(flood).to.deep.include({ imported: 2 * JUNK, queued: JUNK - CHANNELS_PER_HOUR, handles_to_resolve: JUNK, new_channels_per_hour: CHANNELS_PER_HOUR });

    // The crawler is at work on the junk when the other keys come.
    await waitFor('the crawler at the junk', () => (fake.counters.browse + fake.counters.resolve > 0 ? true : undefined), 60_000, 50);
    expect(await feedStatus(`channel_id=${readers.channelId}`, READER)).to.equal(404);
    const theirs = await importList(IMPORTER, `https://www.youtube.com/channel/${imported.channelId}/videos\n`);
    expect(theirs).to.deep.include({ imported: 1, queued: 0 });

    await waitFor('the reader\'s new channel served', async () => ((await feedStatus(`channel_id=${readers.channelId}`, READER)) === 200 ? true : undefined), 120_000, 250);
    await waitFor('the other key\'s imported channel served', async () => ((await feedStatus(`channel_id=${imported.channelId}`, IMPORTER)) === 200 ? true : undefined), 120_000, 250);
    polling = false;
    await poller;

    // Round-robin: each of the other keys' channels ran among the first runs after they came, not after the junk.
    const started = runsStarted(c);
    const junkBefore = (id: string): number => started.slice(0, started.indexOf(id)).filter((s) => s.startsWith('UCjunk')).length;
    expect(junkBefore(readers.channelId), 'junk runs before the reader\'s channel').to.be.at.most(CHANNELS_PER_HOUR);
    expect(junkBefore(imported.channelId), 'junk runs before the other key\'s import').to.be.at.most(CHANNELS_PER_HOUR);
    // The junk's cost: its key's allowance of new channels (one browse each) and its share of handle resolves.
    expect((await api.store.newChannelsOfKey(keyIdOf(ATTACKER), new Date(Date.now() - 3_600_000))).count, 'the attacker\'s new channels this hour').to.equal(CHANNELS_PER_HOUR);
    expect(started.filter((s) => s.startsWith('UCjunk')).length).to.be.at.most(CHANNELS_PER_HOUR);
    expect(fake.counters.resolve, 'resolve_url requests for the junk handles').to.be.at.most(HANDLES_PER_HOUR);
    expect(health.length).to.be.above(0);
    expect(health.every((s) => s === 200), '/health answered 200 throughout').to.equal(true);

    // Junk ids the platform never showed are retired at their first "does not exist" (not asked daily).
    const now = Date.now();
    for (let i = 0; i < CHANNELS_PER_HOUR; i++) {
      const junk = await api.store.getChannel(junkId(i));
      if (junk?.lastOutcome !== 'not_found') continue;
      expect(junk.dueAt.getTime() - now, junkId(i)).to.be.above(29 * 24 * 3_600_000);
    }

    // The status page shows the attacker's queue by its label.
    const status = await fetch(`${api.base}/status`, { headers: { 'X-API-Key': ADMIN } });
    const page = await status.text();
    expect(status.status).to.equal(200);
    expect(page).to.match(new RegExp(`<td>attacker</td><td>${JUNK - CHANNELS_PER_HOUR}</td><td>\\d+</td>`));
    expect(page).to.not.contain(ATTACKER);
  });
});
