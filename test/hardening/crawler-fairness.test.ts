// One key spent the crawler's hourly budget for everyone: a first crawl of max_items=100 ran to its
// end (or to the end of the budget) before anything else, each junk channel id cost two platform
// requests, and with the budget at 60 an hour, 60 junk ids from one key left another key's new
// channel at 404 for the rest of the hour. Now awaited work is served round-robin by key, a long
// first crawl gives way between batches, a key adds at most CRAWL_NEW_CHANNELS_PER_KEY_HOUR new
// channels an hour (429 beyond), and a junk id costs one request. The real API and crawler
// processes on one SQLite file, the crawler against the fake platform over HTTP, at a small budget.

import { expect } from 'chai';
import { startFakePlatform, type FakePlatform } from '../fake-platform';
import { makeChannel } from '../fake-platform/data';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { waitFor } from '../support/poll';
import { runsStarted, startCrawlerProcess, type CrawlerProcess } from '../crawler/support/crawler-process';

const ATTACKER = 'fairness-attacker-key-0001';
const READER = 'fairness-reader-key-00002';
const NEW_PER_HOUR = 20;

/** A channel id in the spec's form that names no channel on the platform. */
const junkId = (i: number): string => `UCjunk${String(i).padStart(18, '0')}`;

describe('the crawler\'s budget shared fairly between keys', function () {
  this.timeout(180_000);
  let fake: FakePlatform;
  let api: ApiProcess;
  let crawler: CrawlerProcess | null = null;

  const feedStatus = async (channelId: string, key: string, extra = ''): Promise<number> => {
    const res = await fetch(`${api.base}/?channel_id=${channelId}${extra}`, { headers: { 'X-API-Key': key } });
    await res.arrayBuffer();
    return res.status;
  };
  const startCrawler = (): CrawlerProcess =>
    (crawler = startCrawlerProcess(api.dir, {
      DATABASE_URL: `sqlite:${api.dir}/feeds.db`, PLATFORM_BASE_URL: fake.url, CRAWL_REQUESTS_PER_HOUR: '60', CRAWL_BATCH_SIZE: '5',
    }));
  const ended = (c: CrawlerProcess, channelId: string): Record<string, unknown>[] =>
    c.logs.filter((l) => l.msg === 'run ended' && l.channelId === channelId);

  beforeEach(async () => {
    fake = await startFakePlatform({ channels: [] });
    api = await startApiProcess({
      keys: { [ATTACKER]: { name: 'attacker', rate_limit: 1000 }, [READER]: { name: 'reader', rate_limit: 1000 } },
      env: { CRAWL_NEW_CHANNELS_PER_KEY_HOUR: String(NEW_PER_HOUR) },
    });
  });
  afterEach(async () => {
    await crawler?.kill('SIGKILL');
    crawler = null;
    await api?.stop();
    await fake?.close();
  });

  it('junk ids from one key beside another key\'s new channel: the other is served second, each junk id costs one request, the key\'s share ends in 429', async () => {
    const reader = fake.addChannel(makeChannel({ handle: 'readerschannel', count: 3, captionsMix: { manual: 1 } }));
    const junk: number[] = [];
    for (let i = 0; i < NEW_PER_HOUR + 5; i++) junk.push(await feedStatus(junkId(i), ATTACKER));
    expect(junk).to.deep.equal([...Array(NEW_PER_HOUR).fill(404), ...Array(5).fill(429)]);
    const refused = await fetch(`${api.base}/?channel_id=${junkId(99)}`, { headers: { 'X-API-Key': ATTACKER } });
    const body = (await refused.json()) as { error: string; retry_after: number };
    expect(body.error).to.equal('Yeni kanal limiti aşıldı');
    expect(body.retry_after).to.be.within(3500, 3600);
    expect(refused.headers.get('retry-after')).to.equal(String(body.retry_after));
    // Nothing was registered beyond the share; a channel already known costs the key nothing.
    expect(await api.store.getChannel(junkId(NEW_PER_HOUR))).to.equal(null);
    expect(await feedStatus(junkId(0), ATTACKER, '&max_items=20')).to.equal(404);
    // The other key is not held back by the first one's share.
    expect(await feedStatus(reader.channelId, READER)).to.equal(404);

    const c = startCrawler();
    await waitFor('the reader\'s channel served', async () => ((await feedStatus(reader.channelId, READER)) === 200 ? true : undefined), 90_000, 250);
    expect(runsStarted(c).indexOf(reader.channelId), 'the reader\'s channel runs in the first round, after one junk id').to.equal(1);
    await waitFor('every junk run ended', () => (Array.from({ length: NEW_PER_HOUR }, (_, i) => ended(c, junkId(i)).length > 0).every(Boolean) ? true : undefined), 90_000, 100);
    for (let i = 0; i < NEW_PER_HOUR; i++) expect(ended(c, junkId(i))[0], junkId(i)).to.deep.include({ outcome: 'not_found' });
    // One browse request per junk id, and the feed never asked for one: the reader's channel took
    // the one feed request and one browse page.
    expect(fake.counters.browse).to.equal(NEW_PER_HOUR + 1);
    expect(fake.counters.feed).to.equal(1);
  });

  it('one key\'s long first crawl (max_items=100) gives way between batches to another key\'s new channel', async () => {
    const big = fake.addChannel(makeChannel({ handle: 'bigchannel', count: 100, captionsMix: { manual: 1 } }));
    const small = fake.addChannel(makeChannel({ handle: 'smallchannel', count: 3, captionsMix: { manual: 1 } }));
    expect(await feedStatus(big.channelId, ATTACKER, '&max_items=100')).to.equal(404);
    expect(await feedStatus(small.channelId, READER)).to.equal(404);

    const c = startCrawler();
    await waitFor('the reader\'s channel served', async () => ((await feedStatus(small.channelId, READER)) === 200 ? true : undefined), 90_000, 250);
    expect(runsStarted(c).slice(0, 3)).to.deep.equal([big.channelId, small.channelId, big.channelId]);
    const firstBig = ended(c, big.channelId)[0];
    expect(firstBig, 'the long first crawl stopped after its first batch').to.deep.include({ outcome: 'ok', yielded: true, stored: 5 });
    // At 60 requests an hour the big channel could never have finished first: it goes on afterwards.
    const smallDone = c.logs.indexOf(ended(c, small.channelId)[0]!);
    await waitFor('the big channel goes on', () => (c.logs.some((l, i) => i > smallDone && l.msg === 'batch stored' && l.channelId === big.channelId) ? true : undefined), 60_000, 100);
  });
});
