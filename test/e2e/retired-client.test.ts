// A retired player client as an operator meets it: both compiled processes against the fake platform,
// PLAYER_CLIENTS naming ANDROID at a version the platform refuses (HTTP 400 FAILED_PRECONDITION)
// before VISIONOS. A reader's feed fills with every video; ANDROID is asked at most twice; the
// crawler says so once (a WARNING naming client, version and what to change); the status page,
// /admin/crawlers, /admin/platform-check and the crawler's metrics name it.

import { expect } from 'chai';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { listeningPort } from '../support/processes';
import { parseMetrics, sample } from '../support/prometheus';
import { startServicePair, type ServicePair } from '../support/service-pair';
import { waitFor } from '../support/poll';

const KEY = 'e2e-admin-key-0123456789abcdef';

describe('end to end: a retired player client is left out and shown to the operator', function () {
  this.timeout(180_000);
  let pair: ServicePair | undefined;
  let fake: FakePlatform;
  const channel = makeChannel({ handle: 'retiredclient', count: 10, seed: 81, captionsMix: { manual: 1 } });

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
    fake.scenario.strictIdentity(true);
    pair = await startServicePair({
      prefix: 'tf-e2e-retired-', key: KEY, keyName: 'operator', keyRole: 'admin', platformUrl: fake.url,
      env: { PLAYER_CLIENTS: 'ANDROID:19.44.38,VISIONOS:1.02', CRAWLER_METRICS_PORT: '0', PLATFORM_CHECK_VIDEO: channel.videos[0]!.videoId },
    });
  });
  after(async () => {
    await pair?.kill();
    await fake?.close();
  });

  const get = (path: string, init: RequestInit = {}) => fetch(`${pair!.base}${path}`, { ...init, headers: { 'X-API-Key': KEY } });

  it('every video reaches the feed through the next client; ANDROID asked at most twice; one WARNING says what to change', async () => {
    expect((await get('/?channel=@retiredclient&format=json')).status).to.equal(404);
    const items = await waitFor('all ten entries', async () => {
      const res = await get('/?channel=@retiredclient&format=json&max_items=10');
      if (res.status !== 200) return undefined;
      const body = (await res.json()) as { items: unknown[] };
      return body.items.length === 10 ? body.items : undefined;
    }, 90_000, 500);
    expect(items).to.have.length(10);
    expect(fake.playerCalls.filter((c) => c.client === 'ANDROID').length).to.be.within(1, 2);
    const warnings = pair!.crawler.logs.filter((l) => l.level === 'WARNING' && l.client === 'ANDROID');
    expect(warnings).to.have.length(1);
    expect(String(warnings[0]!.msg)).to.match(/ANDROID 19\.44\.38 is a retired version.*PLAYER_CLIENTS/);
  });

  it('the status page and /admin/crawlers name it, with what to change', async () => {
    const html = await waitFor('the status page to list the client', async () => {
      const page = await (await fetch(`${pair!.base}/status`, { headers: { Authorization: `Basic ${Buffer.from(`:${KEY}`).toString('base64')}` } })).text();
      return page.includes('Player clients left out') ? page : undefined;
    }, 30_000, 500);
    expect(html).to.match(/data-figure="client-left-out:[^"]+:ANDROID">ANDROID 19\.44\.38</);
    expect(html).to.include('retired version');
    expect(html).to.include('set a newer ANDROID version in PLAYER_CLIENTS');
    const crawlers = (await (await get('/admin/crawlers')).json()) as { crawlers: { player_clients_left_out: Record<string, unknown>[] }[] };
    expect(crawlers.crawlers[0]!.player_clients_left_out).to.have.length(1);
    expect(crawlers.crawlers[0]!.player_clients_left_out[0]).to.deep.include({ client: 'ANDROID', version: '19.44.38', why: 'retired' });
  });

  it('the crawler\'s metric and the platform check name it', async () => {
    const port = await listeningPort(pair!.crawler, 'crawler metrics at');
    const metrics = parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    expect(sample(metrics, 'transcript_feed_player_client_left_out', { client: 'ANDROID', version: '19.44.38', why: 'retired' })).to.equal(1);
    const check = (await waitFor('a platform check report', async () => {
      const res = await get('/admin/platform-check?wait=30', { method: 'POST' });
      return res.status === 200 ? res.json() : undefined;
    }, 90_000, 1000)) as { report: { leftOut: Record<string, unknown>[]; clients: { client: string; verdict: string }[]; verdict: string } };
    expect(check.report.leftOut.map((c) => [c.client, c.version, c.why])).to.deep.equal([['ANDROID', '19.44.38', 'retired']]);
    expect(check.report.clients.find((c) => c.client === 'ANDROID')!.verdict).to.match(/^retired version: /);
    expect(check.report.verdict).to.match(/^configured player clients the crawler leaves out: ANDROID 19\.44\.38/);
  });
});
