// The browser fallback with a real Chromium against the fake platform's JavaScript challenge:
// plain requests stay blocked, the browser passes, and plain requests then go through on the
// browser's cookie and user agent without meeting the challenge again.

import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { BrowserFallback, createBrowserFallback, findChromium } from '../../crawler/browser-fallback';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, PlatformError, watchPath, type PlatformSession } from '../../shared/platform';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { captureLogger, platformConfig } from './support';

const CHROMIUM = '/usr/bin/chromium';

describe('browser fallback (real Chromium)', function () {
  this.timeout(60_000);

  describe('without a browser', () => {
    it('"off" and a missing path are unavailable with one WARNING, never a crash', async () => {
      const { logger, lines } = captureLogger();
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
      const warnings = lines().filter((l) => l.level === 'WARNING');
      expect(warnings.map((w) => w.msg)).to.have.length(3);
      expect(warnings[0]!.msg).to.include('disabled');
      expect(warnings[1]!.msg).to.include('/nonexistent/chromium');
      expect(warnings[2]!.msg).to.include('no Chromium found');
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
      if (!existsSync(CHROMIUM)) {
        console.log(`    browser fallback test skipped: ${CHROMIUM} is absent (CI installs it)`);
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
      expect(await browser.unblock(watchPath(videoId))).to.equal(true);
      expect(platform.jar.get('fake_clearance')).to.match(/^[0-9a-f]+\.[0-9a-f]+$/);

      fake.resetCounters();
      const t = await platform.fetchTranscript(videoId);
      expect(t).to.include({ language: 'en', kind: 'manual' });
      expect(t.html).to.match(/^<p>/);
      // No challenge met: exactly the two requests of a transcript.
      expect(fake.counters).to.include({ player: 1, timedtext: 1, total: 2 });

      const listing = await platform.listVideos(channel.channelId, 5);
      expect(listing.videos.map((v) => v.videoId)).to.deep.equal(channel.videos.map((v) => v.videoId));
      for (const v of channel.videos.slice(1, 3)) expect((await platform.fetchTranscript(v.videoId)).cueCount).to.be.greaterThan(0);
      expect(fake.counters.total).to.equal(2 + 1 + 4);
    });

    it('closing twice is harmless', async () => {
      await browser.close();
      await browser.close();
    });
  });
});
