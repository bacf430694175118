// GET /metrics and /admin/platform-check over real HTTP. /metrics: admin key only (or loopback
// without a key when METRICS_LOOPBACK_ONLY=true), Prometheus text read back by a real
// exposition-format parser, and counters that move with the traffic: requests by route and status,
// feed cache hits and misses, 304s, 429s, with no key or id in any label. /admin/platform-check: on
// POST the API records the request, an in-process crawler worker answers it through the store.

import { expect } from 'chai';
import { startPlatformCheckWorker, type Worker } from '../../crawler/platform-check-worker';
import { realTiming } from '../../crawler/timing';
import { isLoopback } from '../../api/routes/metrics';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { platformConfig } from '../platform/support';
import { hasFamily, histogramSeries, labelValues, parseMetrics, sample, type Families } from '../support/prometheus';
import { ADMIN_KEY, CHANNEL, KEY, LIMITED_KEY, LIMIT, startApi, video, type TestApi } from './support';

describe('GET /metrics (API)', function () {
  this.timeout(30_000);
  let api: TestApi;
  afterEach(() => api.close());

  const scrapeText = async (key: string | null = ADMIN_KEY): Promise<string> => {
    const res = await api.get('/metrics', { key });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const scrape = async (key: string | null = ADMIN_KEY): Promise<Families> => parseMetrics(await scrapeText(key));

  it('needs an admin key: 401 without one, 403 with a reader key', async () => {
    api = await startApi();
    expect((await api.get('/metrics', { key: null })).status).to.equal(401);
    expect((await api.get('/metrics', { key: KEY })).status).to.equal(403);
    expect((await api.get('/metrics', { key: ADMIN_KEY })).status).to.equal(200);
  });

  it('counts requests by route and status, feed cache hits and misses, 304s and 429s, with bounded labels', async () => {
    api = await startApi();
    await api.store.upsertVideos([video(1), video(2)]);
    const feed = `/?channel_id=${CHANNEL}`;
    const first = await api.get(feed);
    expect(first.status).to.equal(200);
    const etag = first.headers.get('etag')!;
    expect((await api.get(feed)).status).to.equal(200);
    expect((await api.get(feed, { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    expect((await api.get('/no-such-path/UCsecretlookingid000000')).status).to.equal(404);
    for (let i = 0; i <= LIMIT; i++) await api.get('/info', { key: LIMITED_KEY });

    const exposition = await scrapeText();
    const m = parseMetrics(exposition);
    expect(sample(m, 'transcript_feed_http_requests_total', { route: '/', method: 'GET', status: '200' })).to.equal(2);
    expect(sample(m, 'transcript_feed_http_requests_total', { route: '/', status: '304' })).to.equal(1);
    expect(sample(m, 'transcript_feed_http_requests_total', { route: 'other', status: '404' })).to.equal(1);
    expect(sample(m, 'transcript_feed_http_requests_total', { route: '/info', status: '429' })).to.equal(1);
    expect(sample(m, 'transcript_feed_feed_cache_total', { result: 'miss' })).to.equal(1);
    expect(sample(m, 'transcript_feed_feed_cache_total', { result: 'hit' })).to.equal(1);
    expect(sample(m, 'transcript_feed_not_modified_total', { route: '/' })).to.equal(1);
    expect(sample(m, 'transcript_feed_rate_limit_refusals_total')).to.equal(1);
    // The latency histogram: one series per route, each counting that route's requests.
    expect(hasFamily(m, 'transcript_feed_http_request_duration_seconds', 'HISTOGRAM')).to.equal(true);
    const latency = histogramSeries(exposition, 'transcript_feed_http_request_duration_seconds');
    const latencyName = 'transcript_feed_http_request_duration_seconds';
    expect(sample(latency, `${latencyName}_count`, { route: '/' })).to.equal(3);
    expect(sample(latency, `${latencyName}_bucket`, { route: '/', le: '+Inf' })).to.equal(3);
    expect(sample(latency, `${latencyName}_count`, { route: '/info' })).to.equal(LIMIT + 1);
    expect(sample(latency, `${latencyName}_count`, { route: 'other' })).to.equal(1);
    expect(labelValues(latency, `${latencyName}_count`, 'route').sort()).to.deep.equal(['/', '/info', 'other']);
    expect(labelValues(m, 'transcript_feed_http_requests_total', 'route').sort()).to.deep.equal(['/', '/info', 'other']);
    const text = JSON.stringify(m);
    for (const secret of [KEY, LIMITED_KEY, ADMIN_KEY, CHANNEL, 'UCsecretlookingid000000']) expect(text).not.to.include(secret);

    // The scrape itself is counted once it has been answered.
    const again = await scrape();
    expect(sample(again, 'transcript_feed_http_requests_total', { route: '/metrics', status: '200' })).to.equal(1);
  });

  it('with METRICS_LOOPBACK_ONLY it answers a loopback client without a key', async () => {
    api = await startApi({ metricsLoopbackOnly: true });
    const m = await scrape(null);
    expect(m.some((f) => f.name === 'process_cpu_seconds_total')).to.equal(true);
    expect(isLoopback('127.0.0.1')).to.equal(true);
    expect(isLoopback('::ffff:127.0.0.2')).to.equal(true);
    expect(isLoopback('::1')).to.equal(true);
    expect(isLoopback('10.0.0.1')).to.equal(false);
    expect(isLoopback('::ffff:192.168.1.5')).to.equal(false);
    expect(isLoopback(undefined)).to.equal(false);
  });
});

describe('/admin/platform-check (POST asks, GET answers the last report)', function () {
  this.timeout(30_000);
  let api: TestApi;
  let fake: FakePlatform;
  let worker: Worker | undefined;
  beforeEach(async () => {
    api = await startApi();
    fake = await startFakePlatform();
    worker = undefined;
  });
  afterEach(async () => {
    await worker?.stop();
    await fake.close();
    await api.close();
  });

  it('POST asks the crawler through the store and answers its report; GET answers it again without a check', async () => {
    const videoId = fake.addChannel(makeChannel({ handle: 'apicheck', count: 1, seed: 4, captionsMix: { manual: 1 } })).videos[0]!.videoId;
    const platform = createPlatformClient(platformConfig(fake.url), silentLogger());
    worker = startPlatformCheckWorker({ store: api.store, check: () => platform.checkPlatform(videoId), owner: 'crawler-test', pollMs: 20, timing: realTiming, logger: silentLogger() });
    // The API's clock is fixed in these tests; the crawler's is real: the report is new either way.
    api.now = new Date();
    const res = await api.get('/admin/platform-check', { key: ADMIN_KEY, method: 'POST' });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { status: string; report: { videoId: string; ok: boolean; clients: unknown[] } };
    expect(body.status).to.equal('done');
    expect(body.report.videoId).to.equal(videoId);
    expect(body.report.ok).to.equal(true);
    const players = fake.counters.player;
    expect((await api.get('/admin/platform-check', { key: ADMIN_KEY })).status).to.equal(200);
    expect(fake.counters.player, 'the last report is answered without a new check').to.equal(players);
  });

  it('no crawler: 202 pending with wait=0; bad wait 400; reader key 403', async () => {
    const res = await api.get('/admin/platform-check?wait=0', { key: ADMIN_KEY, method: 'POST' });
    expect(res.status).to.equal(202);
    expect(await res.json()).to.include({ status: 'pending', claimed_by: null });
    expect((await api.get('/admin/platform-check?wait=99', { key: ADMIN_KEY, method: 'POST' })).status).to.equal(400);
    expect((await api.get('/admin/platform-check?wait=99', { key: ADMIN_KEY })).status).to.equal(400);
    expect((await api.get('/admin/platform-check', { key: KEY })).status).to.equal(403);
    expect((await api.get('/admin/platform-check', { key: KEY, method: 'POST' })).status).to.equal(403);
  });
});
