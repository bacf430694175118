// The crawler's own /metrics (CRAWLER_METRICS_PORT) as Prometheus would scrape it from the compiled
// crawler process: parsed by a real exposition-format parser, the counters follow what happened on
// the fake platform (requests by endpoint and client, videos stored, runs, blocks and the cool-down),
// no label carries a channel or video id, and nothing but GET /metrics is served.

import { expect } from 'chai';
import type { Store } from '../../shared/store/types';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { ensureBuilt, listeningPort } from '../support/processes';
import { hasFamily, labelValues, parseMetrics, sample, type Families } from '../support/prometheus';
import { startCrawlerProcess, type CrawlerProcess } from './support/crawler-process';
import { waitFor } from '../support/poll';
import { tempStore, type TempStore } from '../support/temp-store';

describe('crawler metrics (CRAWLER_METRICS_PORT)', function () {
  this.timeout(90_000);
  let dir: string;
  let fake: FakePlatform;
  let ts: TempStore;
  let store: Store;
  let databaseUrl: string;
  let crawler: CrawlerProcess | undefined;
  let port: number;

  before(() => ensureBuilt());
  beforeEach(async () => {
    ts = await tempStore('tf-crawler-metrics-');
    ({ dir, url: databaseUrl, store } = ts);
    fake = await startFakePlatform();
    port = 0;
    crawler = undefined;
  });
  afterEach(async () => {
    await crawler?.kill('SIGKILL');
    await fake.close();
    await ts.cleanup();
  });

  const start = (env: Record<string, string> = {}): CrawlerProcess =>
    (crawler = startCrawlerProcess(dir, { DATABASE_URL: databaseUrl, PLATFORM_BASE_URL: fake.url, CRAWLER_METRICS_PORT: '0', ...env }));
  const scrape = async (): Promise<Families> => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(await res.text());
  };
  /** Waits for "crawler started"; the metrics port is the one its "crawler metrics at" line names. */
  const up = async (p: CrawlerProcess): Promise<void> => {
    port = await listeningPort(p, 'crawler metrics at');
    await waitFor('crawler started', () => (p.logs.some((l) => l.msg === 'crawler started') ? true : undefined), 30_000);
  };

  it('counts platform requests by endpoint and client, videos stored and runs, as the fake platform saw them', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'metricscrawl', count: 12, seed: 31, captionsMix: { manual: 1 } }));
    const p = start();
    await up(p);
    const before = await scrape();
    expect(sample(before, 'transcript_feed_channel_runs_total')).to.equal(0);
    expect(hasFamily(before, 'process_resident_memory_bytes', 'GAUGE')).to.equal(true);

    await store.registerChannel({ channelId: ch.channelId, wanted: 12 }, new Date());
    await waitFor('the run ended', async () => ((await store.getChannel(ch.channelId))?.lastOutcome === 'ok' ? true : undefined), 60_000);
    const after = await waitFor('the run counted', async () => {
      const m = await scrape();
      return sample(m, 'transcript_feed_channel_runs_total', { outcome: 'ok' }) === 1 ? m : undefined;
    });

    expect(sample(after, 'transcript_feed_platform_requests_total', { endpoint: 'player', outcome: 'ok' })).to.equal(fake.counters.player);
    expect(sample(after, 'transcript_feed_platform_requests_total', { endpoint: 'player', client: 'VISIONOS' })).to.equal(fake.counters.player);
    expect(sample(after, 'transcript_feed_platform_requests_total', { endpoint: 'timedtext' })).to.equal(fake.counters.timedtext);
    expect(sample(after, 'transcript_feed_platform_requests_total', { endpoint: 'visitor_id' })).to.equal(fake.counters.visitorId);
    expect(sample(after, 'transcript_feed_platform_response_bytes_total', { endpoint: 'player' })).to.be.greaterThan(0);
    expect(sample(after, 'transcript_feed_videos_stored_total', { state: 'ready' })).to.equal(12);
    const total = sample(after, 'transcript_feed_platform_requests_total');
    expect(sample(after, 'transcript_feed_crawler_budget_used_requests')).to.equal(total);
    expect(sample(after, 'transcript_feed_crawler_budget_limit_requests')).to.equal(500);
    expect(sample(after, 'transcript_feed_crawler_cool_down_until_seconds')).to.equal(0);
    // Bounded labels: endpoints and clients from fixed sets, never an id.
    for (const v of labelValues(after, 'transcript_feed_platform_requests_total', 'endpoint')) expect(v).to.match(/^[a-z_/]+$/);
    const text = JSON.stringify(after);
    expect(text).not.to.include(ch.channelId);
    for (const v of ch.videos) expect(text).not.to.include(v.videoId);
  });

  it('counts blocks by kind and the cool-down "try again later" starts, and shows when it ends', async () => {
    const ch = fake.addChannel(makeChannel({ handle: 'metricsblock', count: 3, seed: 32, captionsMix: { manual: 1 } }));
    fake.scenario.tryAgainLaterWindow(true);
    const p = start({ CRAWL_COOL_DOWN: '3600' });
    await up(p);
    await store.registerChannel({ channelId: ch.channelId, wanted: 3 }, new Date());
    const m = await waitFor('a cool-down counted', async () => {
      const s = await scrape();
      return sample(s, 'transcript_feed_crawler_cool_downs_total') === 1 ? s : undefined;
    }, 60_000);
    expect(sample(m, 'transcript_feed_platform_blocks_total', { kind: 'session_rate_limit' })).to.be.greaterThan(0);
    const until = sample(m, 'transcript_feed_crawler_cool_down_until_seconds') * 1000;
    expect(until).to.be.greaterThan(Date.now() + 50 * 60_000);
    expect(until).to.be.at.most(Date.now() + 61 * 60_000);
  });

  it('serves nothing but GET /metrics, on 127.0.0.1 by default', async () => {
    const p = start();
    await up(p);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).to.equal(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).to.equal(404);
    expect(p.logs.some((l) => l.msg === `crawler metrics at http://127.0.0.1:${port}/metrics`)).to.equal(true);
  });
});
