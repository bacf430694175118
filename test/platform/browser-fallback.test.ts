// The browser fallback with a real Chromium against the fake platform's JavaScript challenge:
// plain requests stay blocked, the browser passes, and plain requests then go through on the
// browser's cookie and user agent without meeting the challenge again. Chromium does not stay
// behind after its use (closed at once, or after an idle period), comes back on the next block, and
// runs as the few processes its launch flags leave.

import { expect } from 'chai';
import { BrowserFallback, createBrowserFallback } from '../../crawler/browser-fallback';
import { findChromium } from '../../crawler/chromium';
import { crawlerMetrics } from '../../crawler/metrics';
import { histogramSeries, parseMetrics, sample } from '../support/prometheus';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, PlatformError, watchPath, type PlatformSession } from '../../shared/platform';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { chromiumPath, chromiumProcesses, type ChromiumProcess } from '../support/process-tree';
import { platformConfig } from './support';
import { runChannel } from '../../crawler/channel-run';
import { RequestBudget } from '../../crawler/request-budget';
import { realTiming } from '../../crawler/timing';
import { PROFILES } from '../../shared/config/crawl-profile';
import type { Logger } from '../../shared/logger';
import type { SessionSink } from '../../shared/platform/cookie-jar';
import { FakeTiming } from '../crawler/support/fake-timing';
import { tempStore, type TempStore } from '../support/temp-store';
import { ProxyRotation } from '../../shared/platform/proxies';
import { startProxy } from './local-proxy';
import { mainTranscripts, textOf } from '../support/factories';
import { captureLogs } from '../support/logs';
import { until } from '../support/poll';

/** Found where the crawler looks for it (or BROWSER_EXECUTABLE_PATH); null when absent. */
const CHROMIUM = chromiumPath();

/** Polls until no Chromium process is left below this test process; false after `ms`. */
function chromiumGone(ms: number): Promise<boolean> {
  return until('no Chromium process left', () => chromiumProcesses().length === 0, ms).then(() => true, () => false);
}

const mainPid = (): number | undefined => chromiumProcesses().find((p) => p.type === 'browser')?.pid;

/** Every feature named by any --enable-features (or --disable-features) switch of a command line. */
const featuresOf = (cmdline: string, kind: 'enable' | 'disable'): string[] =>
  [...cmdline.matchAll(new RegExp(`--${kind}-features=(\\S+)`, 'g'))].flatMap((m) => m[1]!.split(','));

describe('browser fallback (real Chromium)', function () {
  this.timeout(60_000);

  describe('without a browser', () => {
    it('"off" and a missing path are unavailable with one WARNING, never a crash', async () => {
      const { logger, lines } = captureLogs();
      const sink = { adoptSession: () => undefined };
      const off = new BrowserFallback({ baseUrl: 'http://127.0.0.1:9', executablePath: 'off', sink, logger });
      expect(await off.available()).to.equal(false);
      expect(await off.available()).to.equal(false);
      expect(await off.unblock('/watch?v=x')).to.equal(false);
      const missing = new BrowserFallback({ baseUrl: 'http://127.0.0.1:9', executablePath: '/nonexistent/chromium', sink, logger });
      expect(await missing.available()).to.equal(false);
      const none = new BrowserFallback({ baseUrl: 'http://127.0.0.1:9', executablePath: null, sink, logger, candidates: ['/nonexistent/a', '/nonexistent/b'] });
      expect(await none.available()).to.equal(false);
      await Promise.all([off.close(), missing.close(), none.close(), none.close()]);
      const warnings = lines.filter((l) => l.level === 'WARNING');
      expect(warnings.map((w) => w.msg)).to.have.length(3);
      expect(warnings[0]!.msg).to.include('disabled');
      expect(warnings[1]!.msg).to.include('/nonexistent/chromium');
      expect(warnings[2]!.msg).to.include('no Chromium found');
    });

    it('a Chromium that fails to close is a WARNING with the error, not dropped', async () => {
      const { logger, lines } = captureLogs();
      const b = new BrowserFallback({ baseUrl: 'http://127.0.0.1:9', executablePath: '/bin/sh', sink: { adoptSession: () => undefined }, logger });
      // A browser whose close fails (its connection broke while it was closing, say).
      const browser = { close: () => Promise.reject(new Error('Target page, context or browser has been closed')) };
      (b as unknown as { browser: Promise<unknown> }).browser = Promise.resolve({ browser, userAgent: 'x' });
      await b.close();
      const warning = lines.find((l) => l.level === 'WARNING')!;
      expect(warning.msg).to.equal('browser fallback could not close Chromium; its processes may still be running');
      expect(warning.err).to.deep.include({ type: 'Error', message: 'Target page, context or browser has been closed' });
      // A launch that failed leaves nothing to close and nothing to say here.
      const failed = new BrowserFallback({ baseUrl: 'http://127.0.0.1:9', executablePath: '/bin/sh', sink: { adoptSession: () => undefined }, logger });
      const launch = Promise.reject(new Error('launch failed'));
      launch.catch(() => undefined);
      (failed as unknown as { browser: Promise<unknown> }).browser = launch;
      await failed.close();
      expect(lines.filter((l) => l.level === 'WARNING')).to.have.length(1);
    });

    it('auto-detects a Chromium from the usual paths', () => {
      expect(findChromium(null, ['/nonexistent/x', '/bin/sh'])).to.deep.equal({ path: '/bin/sh' });
    });
  });

  describe('against the JavaScript challenge', function () {
    let fake: FakePlatform;
    let platform: PlatformSession;
    let browser: BrowserFallback;
    const channel = makeChannel({ handle: 'challenged', count: 5, seed: 3, captionsMix: { manual: 1 } });
    const videoId = channel.videos[0]!.videoId;

    before(async function () {
      if (CHROMIUM === null) {
        console.log('    browser fallback test skipped: no Chromium found (CI installs Debian\'s chromium)');
        this.skip();
      }
      fake = await startFakePlatform({ channels: [channel] });
      platform = createPlatformClient(platformConfig(fake.url), silentLogger());
      browser = createBrowserFallback({ platformBaseUrl: fake.url, browserExecutablePath: CHROMIUM, platformTimeoutMs: 20_000 }, platform, silentLogger());
    });
    after(async () => {
      await browser?.close();
      await fake?.close();
    });

    it('plain requests are blocked, the browser passes, the transcript arrives, and later plain requests reuse its session', async () => {
      fake.scenario.jsChallenge(true);
      const blocked = await platform.fetchTranscript(videoId).catch((e: unknown) => e);
      expect(blocked).to.be.instanceOf(PlatformError).with.property('outcome', 'blocked');

      expect(await browser.available()).to.equal(true);
      const runs = async () => {
        const text = await crawlerMetrics.registry.metrics();
        const series = histogramSeries(text, 'transcript_feed_browser_run_duration_seconds');
        return {
          cleared: sample(parseMetrics(text), 'transcript_feed_browser_runs_total', { kind: 'unblock', outcome: 'cleared' }),
          timed: sample(series, 'transcript_feed_browser_run_duration_seconds_count', { kind: 'unblock' }),
          seconds: sample(series, 'transcript_feed_browser_run_duration_seconds_sum', { kind: 'unblock' }),
        };
      };
      const before = await runs();
      expect(await browser.unblock(watchPath(videoId))).to.equal(true);
      // The crawler's metrics count the run and time it, under its kind.
      const after = await runs();
      expect([after.cleared - before.cleared, after.timed - before.timed]).to.deep.equal([1, 1]);
      expect(after.seconds).to.be.greaterThan(before.seconds);
      expect(platform.jar.get('fake_clearance')).to.match(/^[0-9a-f]+\.[0-9a-f]+$/);
      // By default the browser is closed as part of its use: nothing of it is left running.
      expect(chromiumProcesses().map((p) => p.type)).to.deep.equal([]);

      fake.resetCounters();
      const t = await platform.fetchTranscript(videoId);
      expect(t).to.include({ language: 'en', kind: 'manual' });
      expect(t.paragraphs.length).to.be.greaterThan(0);
      // No challenge met: the two requests of a transcript, and a new visitor session (the block
      // retired the old one).
      expect(fake.counters).to.include({ visitorId: 1, player: 1, timedtext: 1, total: 3 });

      const listing = await platform.listVideos(channel.channelId, 5);
      expect(listing.videos.map((v) => v.videoId)).to.deep.equal(channel.videos.map((v) => v.videoId));
      for (const v of channel.videos.slice(1, 3)) expect((await platform.fetchTranscript(v.videoId)).cueCount).to.be.greaterThan(0);
      expect(fake.counters.total).to.equal(3 + 1 + 4);
    });

    it('closing twice is harmless: both resolve, nothing is left running, and the fallback is off', async () => {
      expect(await browser.unblock(watchPath(videoId))).to.equal(true);
      expect(await Promise.all([browser.close(), browser.close()])).to.deep.equal([undefined, undefined]);
      expect(await browser.close()).to.equal(undefined);
      expect(await chromiumGone(5000)).to.equal(true);
      expect(await browser.available()).to.equal(false);
      expect(await browser.unblock(watchPath(videoId))).to.equal(false);
    });
  });

  describe('closing the browser after use', function () {
    let fake: FakePlatform;
    const channel = makeChannel({ handle: 'idleclose', count: 2, seed: 4, captionsMix: { manual: 1 } });
    const path = watchPath(channel.videos[0]!.videoId);
    const fallbacks: BrowserFallback[] = [];
    /** A fallback closed in after() at the latest; `onSession` runs while the cleared page is open. */
    const fallback = (idleCloseMs: number | undefined, onSession: () => void = () => undefined): BrowserFallback => {
      const b = new BrowserFallback({ baseUrl: fake.url, executablePath: CHROMIUM, sink: { adoptSession: onSession }, logger: silentLogger(), idleCloseMs });
      fallbacks.push(b);
      return b;
    };

    before(async function () {
      if (CHROMIUM === null) this.skip();
      fake = await startFakePlatform({ channels: [channel] });
      // The challenge stays on: each use meets it anew in its fresh context and must clear it.
      fake.scenario.jsChallenge(true);
    });
    after(async () => {
      for (const b of fallbacks) await b.close();
      await fake?.close();
    });

    it('runs Chromium as few processes: no GPU, network or zygote processes, no spare or WebUI renderer', async () => {
      let open: ChromiumProcess[] = [];
      const b = fallback(undefined, () => (open = chromiumProcesses()));
      expect(await b.unblock(path)).to.equal(true);
      // With the cleared page open: the browser (GPU thread and network service inside), the page's
      // renderer, the storage service.
      expect(open.map((p) => p.type).sort()).to.deep.equal(['browser', 'renderer', 'utility']);
      expect(open.find((p) => p.type === 'utility')!.cmdline).to.include('StorageService');
      // Chromium honours only the last --enable-features and --disable-features: ours must repeat
      // every feature Playwright names in its own, or a Playwright upgrade would silently lose one.
      const main = open.find((p) => p.type === 'browser')!.cmdline;
      const renderer = open.find((p) => p.type === 'renderer')!.cmdline;
      expect(featuresOf(renderer, 'enable')).to.include.members([...featuresOf(main, 'enable'), 'NetworkServiceInProcess2']);
      expect(featuresOf(renderer, 'disable')).to.include.members([...featuresOf(main, 'disable'), 'WebUIOmniboxPopup']);
    });

    it('closes after the idle period, reuses the browser within it, and launches again on the next block', async () => {
      const b = fallback(1500);
      expect(await b.unblock(path)).to.equal(true);
      const first = mainPid();
      expect(first, 'Chromium is kept for the idle period').to.be.a('number');
      // A use within the idle period takes the same browser and starts the idle period again.
      expect(await b.unblock(path)).to.equal(true);
      expect(mainPid()).to.equal(first);
      expect(await chromiumGone(10_000), 'closed after the idle period').to.equal(true);

      expect(await b.available()).to.equal(true);
      expect(await b.unblock(path)).to.equal(true);
      const second = mainPid();
      expect(second, 'launched again').to.be.a('number').and.not.equal(first);
      expect(await chromiumGone(10_000)).to.equal(true);
    });

    it('uses queued behind each other share one launch, and the browser is closed when the last ends', async () => {
      const seen: (number | undefined)[] = [];
      // Default idle close (at once); each use notes which browser it ran in.
      const sink = { adoptSession: () => void seen.push(mainPid()) };
      const shared = new BrowserFallback({ baseUrl: fake.url, executablePath: CHROMIUM, sink, logger: silentLogger() });
      fallbacks.push(shared);
      expect(await Promise.all([shared.unblock(path), shared.unblock(path), shared.unblock(path)])).to.deep.equal([true, true, true]);
      expect(seen).to.have.length(3);
      expect(new Set(seen).size).to.equal(1);
      expect(chromiumProcesses()).to.deep.equal([]);
    });

    it('waits out its idle period on the injected timing, like the rest of the crawler', async () => {
      const timing = new FakeTiming();
      // The challenge clears in real time: the fake clock's polling deadline must not run out first.
      const b = new BrowserFallback({
        baseUrl: fake.url, executablePath: CHROMIUM, sink: { adoptSession: () => undefined }, logger: silentLogger(),
        idleCloseMs: 3_600_000, challengeWaitMs: 10 * 3_600_000, timing,
      });
      fallbacks.push(b);
      expect(await b.unblock(path)).to.equal(true);
      // An idle hour on the fake clock passes at once: Chromium is closed without a real wait.
      expect(await chromiumGone(10_000)).to.equal(true);
      expect(timing.sleeps).to.include(3_600_000);
    });

    it('shutdown closes a browser waiting out its idle period at once', async () => {
      const b = fallback(60_000);
      expect(await b.unblock(path)).to.equal(true);
      expect(mainPid()).to.be.a('number');
      await b.close();
      expect(await chromiumGone(5000)).to.equal(true);
      expect(await b.available()).to.equal(false);
    });
  });

  describe('the web player: judging by the player, and transcripts when every app client is refused', function () {
    let fake: FakePlatform;
    let ts: TempStore;
    const channel = makeChannel({ handle: 'webplayer', count: 2, seed: 5, captionsMix: { manual: 1 } });
    const videoId = channel.videos[0]!.videoId;

    before(async function () {
      if (CHROMIUM === null) this.skip();
      fake = await startFakePlatform({ channels: [channel] });
    });
    beforeEach(async () => {
      fake.scenario.clearScenarios();
      fake.scenario.strictIdentity(true);
      fake.resetCounters();
      ts = await tempStore('tf-webplayer-');
    });
    afterEach(async () => ts.cleanup());
    after(async () => fake?.close());

    const fallback = (sink: SessionSink, logger: Logger = silentLogger()): BrowserFallback =>
      new BrowserFallback({ baseUrl: fake.url, executablePath: CHROMIUM, sink, logger, timing: realTiming });

    it('a page past the challenge whose player still answers the bot check is not cleared', async () => {
      fake.scenario.jsChallenge(true);
      fake.scenario.playersRefused(true);
      let adopted = 0;
      const { logger, lines } = captureLogs();
      const b = fallback({ adoptSession: () => void (adopted += 1) }, logger);
      try {
        expect(await b.unblock(watchPath(videoId))).to.equal(false);
        expect(adopted, 'no session handed over').to.equal(0);
        expect(lines.map((l) => l.msg)).to.include('browser fallback: page open, but its player answer still refuses');
        // The same page with a player that plays: cleared.
        fake.scenario.playersRefused(false);
        expect(await b.unblock(watchPath(videoId))).to.equal(true);
        expect(adopted).to.equal(1);
      } finally {
        await b.close();
      }
    });

    it('fetches the transcript the web player itself requests, with its own token, then closes Chromium', async () => {
      const platform = createPlatformClient(platformConfig(fake.url), silentLogger());
      const plain = await platform.fetchTranscript(videoId);
      fake.scenario.playersRefused(true);
      const refused = await platform.fetchTranscript(videoId).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(PlatformError).with.property('outcome', 'blocked');

      fake.resetCounters();
      const b = fallback({ adoptSession: () => undefined });
      try {
        const t = await b.fetchTranscript(videoId, ['en']);
        // The same transcript; the web player's timed-text answer comes without the player's
        // videoDetails (duration, description), which only the app clients' answer carried, and
        // without other languages (none were asked for: `others` is empty), and without the list of
        // languages the player offered, which only the player's own answer carries (the crawler keeps
        // the list it stored before).
        const { details, others, offered, ...sameText } = plain;
        expect(details).to.be.an('object');
        expect(others).to.deep.equal([]);
        expect(offered).to.include('en');
        expect(t).to.deep.equal(sameText);
        // The embed page and the player's own timed-text request; no app-client player call.
        expect(fake.counters).to.include({ embed: 1, timedtext: 1, player: 0 });
        expect(await chromiumGone(5000), 'Chromium closed right after').to.equal(true);
      } finally {
        await b.close();
      }
    });

    it('the web player\'s timed text stalling (late August 2026): one bounded wait, then no page at all for the next videos until the pause ends', async () => {
      fake.scenario.timedTextStall(60_000);
      const { logger, lines } = captureLogs();
      let now = Date.parse('2026-09-01T10:00:00Z');
      // The real clock for the page's own waits; an injected one only for the pause.
      const timing = { ...realTiming, now: () => new Date(now) };
      const b = new BrowserFallback({ baseUrl: fake.url, executablePath: CHROMIUM, sink: { adoptSession: () => undefined }, logger, timing, timedTextWaitMs: 300, stallPauseMs: 60_000 });
      try {
        expect(await b.fetchTranscript(videoId, ['en'])).to.equal(null);
        expect(lines.filter((l) => l.level === 'WARNING').map((l) => l.msg)).to.deep.equal([
          "browser fallback: the web player's timed text stalls (no answer within 300 ms); no browser transcripts until then",
        ]);
        expect(fake.counters).to.include({ embed: 1, timedtext: 1 });
        // The next videos: no page, no request, no wait.
        const other = channel.videos[1]!.videoId;
        expect(await b.fetchTranscript(other, ['en'])).to.equal(null);
        expect(await b.fetchTranscript(videoId, ['en'])).to.equal(null);
        expect(fake.counters).to.include({ embed: 1, timedtext: 1 });
        expect(b.runs).to.equal(1);
        // The pause over and the platform answering again: the web player is asked again.
        fake.scenario.timedTextStall(null);
        now += 60_001;
        expect((await b.fetchTranscript(other, ['en']))?.cueCount).to.be.greaterThan(0);
        expect(fake.counters).to.include({ embed: 2, timedtext: 2 });
      } finally {
        await b.close();
      }
    });

    it('goes through the current outbound proxy, with proxy auth, when PLATFORM_PROXY_URLS is set', async () => {
      const proxy = await startProxy();
      const egress = new ProxyRotation([proxy.url()], silentLogger());
      fake.scenario.playersRefused(true);
      const b = createBrowserFallback(
        { platformBaseUrl: fake.url, browserExecutablePath: CHROMIUM, platformTimeoutMs: 20_000 }, { adoptSession: () => undefined }, silentLogger(), egress,
      );
      try {
        const t = await b.fetchTranscript(videoId, ['en']);
        expect(t).to.include({ language: 'en', kind: 'manual' });
        // The embed page and the player's timed-text request, both through the proxy, authenticated
        // (the proxy lets nothing through without the credentials).
        expect(proxy.requests).to.be.at.least(2);
      } finally {
        await b.close();
        await egress.close();
        await proxy.close();
      }
    });

    it('a crawl where every app client is refused stores every transcript through the browser', async () => {
      fake.scenario.playersRefused(true);
      const { logger, lines } = captureLogs();
      const platform = createPlatformClient(platformConfig(fake.url), logger);
      const b = fallback(platform, logger);
      const timing = new FakeTiming();
      try {
        const record = await ts.store.registerChannel({ channelId: channel.channelId, wanted: channel.videos.length }, timing.now());
        const budget = new RequestBudget({ perHour: 0, coolDownMs: [1_800_000, 1_800_000], timing, sent: () => platform.requestCount(), logger });
        const result = await runChannel({
          store: ts.store, platform, unblockers: [b], profile: PROFILES.fast, timing, logger, budget,
          browserTranscript: (id) => b.fetchTranscript(id, ['en']),
        }, record, new AbortController().signal);
        expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
        const rows = await ts.store.getVideos(channel.videos.map((v) => v.videoId));
        expect(rows.map((r) => r.state)).to.deep.equal(['ready', 'ready']);
        const texts = await mainTranscripts(ts.store, rows.map((r) => r.videoId));
        for (const r of rows) expect(textOf(texts.get(r.videoId)), r.videoId).not.to.equal('');
        expect(lines.filter((l) => l.msg === 'every app client refused; the transcript came through the browser')).to.have.length(2);
        expect(fake.counters.embed).to.equal(2);
        expect(await chromiumGone(5000)).to.equal(true);
      } finally {
        await b.close();
      }
    });
  });
});
