// Outbound proxies over real HTTP: two real local HTTP proxies (the `proxy` package, Basic proxy
// auth) in front of the fake platform, the real platform client, a channel run on injected time.
// A block moves the next attempt to the second proxy before any blocked wait; an unreachable proxy
// or one that refuses the credentials is a WARNING and the next is used; no credential is logged.

import { expect } from 'chai';
import { runChannel } from '../../crawler/channel-run';
import { RequestBudget } from '../../crawler/request-budget';
import { PROFILES } from '../../shared/config/crawl-profile';
import { ConfigError, describeConfig, loadConfig } from '../../shared/config/load';
import { createPlatformClient, type PlatformSession } from '../../shared/platform';
import { proxyFailure, proxyLabel } from '../../shared/platform/proxies';
import { FakeTiming } from '../crawler/support/fake-timing';
import { captureLogs } from '../support/logs';
import { tempStore, type TempStore } from '../support/temp-store';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../fake-platform';
import { REFUSED_PORT } from '../support/processes';
import { PASSWORD, startProxy, USER, type LocalProxy } from './local-proxy';

describe('outbound proxies (PLATFORM_PROXY_URLS)', function () {
  this.timeout(30_000);
  let fake: FakePlatform;
  let channel: FakeChannelSpec;
  let first: LocalProxy;
  let second: LocalProxy;
  let ts: TempStore;
  let timing: FakeTiming;
  let logs: ReturnType<typeof captureLogs>;
  let platform: PlatformSession | null;

  beforeEach(async () => {
    channel = makeChannel({ handle: 'proxied', count: 4, captionsMix: { manual: 1 } });
    fake = await startFakePlatform({ channels: [channel] });
    fake.scenario.strictIdentity(true);
    [first, second] = await Promise.all([startProxy(), startProxy()]);
    ts = await tempStore('tf-proxies-');
    timing = new FakeTiming();
    logs = captureLogs();
    platform = null;
  });
  afterEach(async () => {
    await platform?.egress?.close();
    await Promise.all([first.close(), second.close(), fake.close()]);
    await ts.cleanup();
  });

  function client(proxyUrls: string[]): PlatformSession {
    const config = loadConfig({ PLATFORM_BASE_URL: fake.url, PLATFORM_PROXY_URLS: proxyUrls.join(', '), PLATFORM_TIMEOUT_MS: '5000' }, ts.dir);
    platform = createPlatformClient(config, logs.logger);
    return platform;
  }

  async function crawl(p: PlatformSession) {
    const budget = new RequestBudget({ perHour: 0, coolDownMs: [1_800_000, 1_800_000], timing, sent: () => p.requestCount(), logger: logs.logger });
    const record = await ts.store.registerChannel({ channelId: channel.channelId, wanted: channel.videos.length }, timing.now());
    return runChannel(
      { store: ts.store, platform: p, unblockers: [], profile: PROFILES.fast, timing, logger: logs.logger, budget, egress: p.egress ?? undefined },
      record, new AbortController().signal,
    );
  }

  /** Every captured log line, as written, must hold no spelling of the credentials. */
  function expectNoCredentialLogged(): void {
    const text = JSON.stringify(logs.lines);
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString('base64'), USER]) {
      expect(text, 'a credential in the logs').to.not.include(secret);
    }
  }

  it('sends every request through the first proxy, with proxy auth', async () => {
    const p = client([first.url(), second.url()]);
    const result = await crawl(p);
    expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
    expect(first.tunnels).to.be.greaterThan(0);
    expect(first.refused).to.equal(0);
    expect(second.tunnels).to.equal(0);
    expect(fake.counters.total).to.equal(p.requestCount());
    expectNoCredentialLogged();
  });

  it('a block moves the next attempt to the second proxy before any blocked wait', async () => {
    const p = client([first.url(), second.url()]);
    fake.scenario.block429({ requests: 1 }); // the channel feed, the run's first request
    const result = await crawl(p);
    expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
    expect(first.tunnels).to.equal(1);
    expect(second.tunnels).to.be.greaterThan(0);
    // No blocked wait, no cool-down: the retry went out through the other exit at once.
    expect(timing.sleeps).to.deep.equal([]);
    const moved = logs.lines.find((l) => l.msg === 'blocked through this proxy; the next attempt goes through the next one');
    expect(moved).to.deep.include({ from: proxyLabel(first.url()), to: proxyLabel(second.url()), retryNow: true });
    expectNoCredentialLogged();
  });

  it('with one (rotating) proxy URL a block is retried once on a fresh tunnel, then the blocked wait', async () => {
    const p = client([first.url()]);
    fake.scenario.block429({ requests: 2 });
    const result = await crawl(p);
    expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
    // First tunnel blocked, a fresh one (a new exit IP on a rotating proxy) blocked, then after the
    // blocked wait a third.
    expect(first.tunnels).to.be.at.least(3);
    expect(timing.sleeps).to.have.length(1);
    expectNoCredentialLogged();
  });

  it('an unreachable proxy and one that refuses the credentials are WARNINGs, and the next one is used', async () => {
    const dead = REFUSED_PORT;
    const deadUrl = `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${dead}`;
    const p = client([deadUrl, first.url(USER, 'wrong-password'), second.url()]);
    const result = await crawl(p);
    expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
    expect(first.refused).to.be.greaterThan(0);
    expect(second.tunnels).to.be.greaterThan(0);
    const warnings = logs.lines.filter((l) => l.level === 'WARNING' && l.msg === 'outbound proxy unreachable; using the next one');
    expect(warnings.map((w) => w.proxy)).to.deep.equal([`http://127.0.0.1:${dead}`, `http://127.0.0.1:${first.port}`]);
    expect(warnings.map((w) => w.reason)).to.deep.equal(['ECONNREFUSED', 'HTTP 407 (proxy refused the credentials)']);
    expectNoCredentialLogged();
  });

  it('no reachable proxy is a transient failure, never a silent direct request', async () => {
    const p = client([`http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${REFUSED_PORT}`]);
    const err = await p.fetchTranscript(channel.videos[0]!.videoId).catch((e: unknown) => e);
    expect(err).to.have.property('outcome', 'transient');
    expect(String((err as Error).message)).to.match(/no outbound proxy could be used/).and.not.include(PASSWORD);
    expect(fake.counters.total).to.equal(0);
    expectNoCredentialLogged();
  });

  it('a bad PLATFORM_PROXY_URLS entry is refused at start without echoing its credentials', () => {
    for (const bad of [`socks5://${USER}:${PASSWORD}@127.0.0.1:1080`, `http://${USER}:${PASSWORD}@127.0.0.1:8080/path`]) {
      let err: unknown = null;
      try {
        loadConfig({ PLATFORM_PROXY_URLS: `http://127.0.0.1:3128,${bad}` }, ts.dir);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as Error).message).to.match(/^PLATFORM_PROXY_URLS: entry 2 \(127\.0\.0\.1\)/).and.not.include(PASSWORD);
    }
  });

  it('the start-up line of the effective configuration holds no proxy credential', () => {
    const urls = [`http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:3128`, `https://${USER}2:${encodeURIComponent(PASSWORD)}@proxy.example:8443`];
    const shown = JSON.stringify(describeConfig(loadConfig({ PLATFORM_PROXY_URLS: urls.join(',') }, ts.dir)));
    expect(shown).to.include('PLATFORM_PROXY_URLS');
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), USER]) expect(shown).to.not.include(secret);
  });

  it('tells a proxy failure from a platform failure', () => {
    expect(proxyFailure(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }))).to.equal('ECONNREFUSED');
    expect(proxyFailure(new TypeError('fetch failed', { cause: new Error('Proxy response (502) !== 200 when HTTP Tunneling') }))).to.equal('HTTP 502 from the proxy');
    expect(proxyFailure(new TypeError('fetch failed', { cause: new Error('other side closed') }))).to.equal(null);
    expect(proxyLabel('https://a:b@proxy.example:8443')).to.equal('https://proxy.example:8443');
    expect(proxyLabel('http://a:b@proxy.example')).to.equal('http://proxy.example:80');
  });
});
