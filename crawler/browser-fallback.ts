// The last way past a block: a real headless Chromium (Playwright) opens the blocked page, lets its
// JavaScript challenge run, and hands the cookies it earned plus its user agent to the plain client,
// which then retries. A watch page counts as cleared only when its embedded player answer does not
// refuse (browser-player.ts): the bot check lives there, not in the HTML. And when every app client
// is refused for a video, the browser fetches that video's transcript itself: the embed page's web
// player requests the timed text with its own token (docs/crawler.md §4). One lazily started browser, a fresh context per use, heavy resources blocked,
// everything closed in `finally`, one page at a time. The browser does not outlive its use: once no
// other use is queued it is closed (at once by default, see `idleCloseMs`) and the next block
// launches it again. Only the crawler loads this module; Playwright itself is imported on first use.
// No Chromium → not available (one WARNING), never a crash.

import PQueue from 'p-queue';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';
import type { Config } from '../shared/config/load';
import { categoryLogger, type Logger } from '../shared/logger';
import { classifyAnswer } from '../shared/platform/classify';
import type { SessionSink } from '../shared/platform/cookie-jar';
import type { ProxyRotation } from '../shared/platform/proxies';
import type { Unblocker } from '../shared/platform/types';
import type { Transcript } from '../shared/transcript/types';
import { findChromium, LAUNCH_ARGS } from './chromium';
import { embeddedPlayerVerdict, embedPath, isTimedText, transcriptFromPlayerAnswer, watchedVideo } from './browser-player';
import { realTiming, type Timing } from './timing';
import { crawlerMetrics } from './metrics';

/** What a challenge page never needs and a video site has plenty of. */
const BLOCKED_RESOURCES = new Set(['image', 'media', 'font', 'stylesheet']);

export interface BrowserFallbackOptions {
  /** PLATFORM_BASE_URL. */
  baseUrl: string;
  /** BROWSER_EXECUTABLE_PATH: a path, "off", or null to auto-detect. */
  executablePath: string | null;
  sink: SessionSink;
  logger: Logger;
  /** Upper bound for the challenge to clear after the page opened. */
  challengeWaitMs?: number;
  /** Upper bound for the web player's timed-text request after the embed page opened. */
  captionWaitMs?: number;
  /**
   * Upper bound for the answer to that request (PLATFORM_TIMED_TEXT_TIMEOUT_MS). Since late August
   * 2026 the platform answers the web player's token-bound timed text with an empty 200 after
   * stalling about 8 s: a request still unanswered at this bound is that stall.
   */
  timedTextWaitMs?: number;
  /** After a stall, how long browser transcripts are not tried at all (default STALL_PAUSE_MS). */
  stallPauseMs?: number;
  /** Clock and sleeps of the polling (the crawler's injected timing; real by default). */
  timing?: Timing;
  /** The outbound proxy (PLATFORM_PROXY_URLS) each use goes through, asked afresh per use. */
  proxy?: () => BrowserContextOptions['proxy'];
  /** Timeout of the first navigation. */
  navigationTimeoutMs?: number;
  /** Where to look when auto-detecting (tests point it at nothing). */
  candidates?: readonly string[];
  /**
   * How long the browser stays up after its last use when nothing else is queued; 0 (the default)
   * closes it as part of that use. At once, because a crawler only escalates to the browser after
   * the profile's blocked wait (30–60 s), so a browser kept for the next block would sit idle,
   * holding ~0.5 GB, for at least that long, while launching again costs under a second. Uses that
   * queue up behind each other (several channels blocked at once) still share one launch.
   */
  idleCloseMs?: number;
}

/** A running browser and the user agent its sessions are tied to. */
interface Started {
  browser: Browser;
  userAgent: string;
}

/**
 * How long one timed-text stall of the web player stops browser transcripts: the stall is the
 * platform's answer to every token-bound request, not to one video, so trying the next video would
 * only wait it out again.
 */
export const STALL_PAUSE_MS = 30 * 60_000;

export class BrowserFallback implements Unblocker {
  readonly name = 'browser';
  private readonly log: Logger;
  private readonly found: { path: string } | { why: string };
  private warned = false;
  private launchFailed = false;
  private browser: Promise<Started> | null = null;
  /** Serializes uses, and the closing after them: one page at a time in one browser. */
  private readonly queue = new PQueue({ concurrency: 1 });
  /** Aborts the idle period's wait when a use comes first (or at shutdown). */
  private idleWait: AbortController | null = null;
  private closed = false;
  private pages = 0;
  /** Until when (ms since the epoch, on the injected clock) the web player's timed text is known to stall. */
  private stalledUntil = 0;

  constructor(private readonly opts: BrowserFallbackOptions) {
    this.log = opts.logger;
    this.found = findChromium(opts.executablePath, opts.candidates);
  }

  available(): Promise<boolean> {
    if ('why' in this.found) {
      this.warnOnce(`browser fallback unavailable: ${this.found.why}`);
      return Promise.resolve(false);
    }
    return Promise.resolve(!this.launchFailed && !this.closed);
  }

  /** Pages the fallback opened in Chromium since the start (unblocks and transcripts). */
  get runs(): number {
    return this.pages;
  }

  unblock(path: string): Promise<boolean> {
    return crawlerMetrics.browserRun('unblock', this.use(() => this.unblockNow(path)), (cleared) => (cleared ? 'cleared' : 'not_cleared'));
  }

  /**
   * The video's transcript as the platform's own web player gets it, for when every app client is
   * refused; null when the browser is not available or the player got no captions.
   */
  fetchTranscript(videoId: string, languages: readonly string[]): Promise<Transcript | null> {
    // Known to stall: no page, no launch, no wait; the video keeps its "no transcript for now".
    if (this.stalling()) {
      this.log.debug({ videoId, until: new Date(this.stalledUntil).toISOString() }, 'browser fallback: the web player\'s timed text stalls; not tried');
      return Promise.resolve(null);
    }
    return crawlerMetrics.browserRun('transcript', this.use(() => this.transcriptNow(videoId, languages[0] ?? 'en')), (t) => (t === null ? 'none' : 'fetched'));
  }

  private stalling(): boolean {
    return (this.opts.timing ?? realTiming).now().getTime() < this.stalledUntil;
  }

  /** One use of the browser, queued behind the others; the browser is closed after the last. */
  private use<T>(work: () => Promise<T>): Promise<T> {
    this.cancelIdleClose();
    return this.queue.add(async () => {
      try {
        return await work();
      } finally {
        // Nothing waiting behind this use: the browser is not needed any more.
        if (this.queue.size === 0) await this.afterLastUse();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelIdleClose();
    await this.closeBrowser();
  }

  /** Nothing else queued: close the browser now, or after `idleCloseMs` unless a use comes first. */
  private async afterLastUse(): Promise<void> {
    const idleMs = this.opts.idleCloseMs ?? 0;
    if (idleMs <= 0) {
      // Awaited, so the use returns with Chromium's memory already given back.
      await this.closeBrowser();
      return;
    }
    // On the injected timing like every other wait of the crawler; shutdown aborts it (close()).
    const wait = new AbortController();
    this.idleWait = wait;
    void (this.opts.timing ?? realTiming).sleep(idleMs, wait.signal).then(() => {
      if (wait.signal.aborted) return;
      this.idleWait = null;
      // Through the queue, so the close never overlaps a use that started in the meantime.
      void this.queue.add(async () => {
        if (this.queue.size === 0) await this.closeBrowser();
      });
    });
  }

  private cancelIdleClose(): void {
    this.idleWait?.abort();
    this.idleWait = null;
  }

  private async closeBrowser(): Promise<void> {
    const started = this.browser;
    this.browser = null;
    if (!started) return;
    let browser: Browser;
    try {
      ({ browser } = await started);
    } catch {
      // The launch failed (logged where it failed): there is no browser to close.
      return;
    }
    try {
      await browser.close();
      this.log.info({}, 'browser fallback closed Chromium');
    } catch (err) {
      // Chromium's processes may live on, holding their memory: the operator must hear of it.
      this.log.warning({ err }, 'browser fallback could not close Chromium; its processes may still be running');
    }
  }

  /** A fresh context (consent cookie, heavy resources blocked) and page for `work`, closed after it. */
  private async inPage<T>(failed: T, what: Record<string, unknown>, work: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    if (!(await this.available())) return failed;
    const started = await this.start();
    if (!started) return failed;
    let context: BrowserContext | null = null;
    this.pages += 1;
    try {
      context = await started.browser.newContext({ userAgent: started.userAgent, locale: 'en-US', proxy: this.opts.proxy?.() });
      await context.addCookies([{ name: 'SOCS', value: 'CAI', url: this.opts.baseUrl }]);
      await context.route('**/*', (route) =>
        BLOCKED_RESOURCES.has(route.request().resourceType()) ? route.abort() : route.continue());
      return await work(await context.newPage(), context);
    } catch (err) {
      this.log.warning({ ...what, err }, 'browser fallback failed');
      return failed;
    } finally {
      await context?.close().catch(() => undefined);
    }
  }

  private async transcriptNow(videoId: string, language: string): Promise<Transcript | null> {
    // A use queued behind the one that met the stall.
    if (this.stalling()) return null;
    const path = embedPath(videoId, language);
    return this.inPage<Transcript | null>(null, { videoId }, async (page) => {
      const timing = this.opts.timing ?? realTiming;
      const t0 = timing.now().getTime();
      // Listening before the navigation: the player may ask as soon as its script runs.
      const asked = page.waitForRequest((r) => isTimedText(r, videoId), { timeout: this.opts.captionWaitMs ?? 30_000 });
      asked.catch(() => undefined);
      // The JS challenge, if any, reloads the page itself; an interrupted first navigation is expected.
      await page.goto(new URL(path, this.opts.baseUrl).href, { waitUntil: 'domcontentloaded', timeout: this.opts.navigationTimeoutMs ?? 30_000 }).catch(() => undefined);
      const request = await asked.catch(() => null);
      if (request === null) {
        this.log.warning({ videoId, ms: timing.now().getTime() - t0 }, 'browser fallback: the web player requested no captions in time');
        return null;
      }
      const waitMs = this.opts.timedTextWaitMs ?? 5000;
      const stop = new AbortController();
      const res = await Promise.race([
        request.response().catch(() => null),
        timing.sleep(waitMs, stop.signal).then(() => 'stalled' as const, () => null),
      ]);
      stop.abort();
      const ms = timing.now().getTime() - t0;
      if (res === 'stalled') {
        this.stalledUntil = timing.now().getTime() + (this.opts.stallPauseMs ?? STALL_PAUSE_MS);
        this.log.warning({ videoId, ms, waitMs, until: new Date(this.stalledUntil).toISOString() },
          `browser fallback: the web player's timed text stalls (no answer within ${waitMs} ms); no browser transcripts until then`);
        return null;
      }
      if (res === null) {
        this.log.warning({ videoId, ms }, 'browser fallback: the web player requested no captions in time');
        return null;
      }
      const transcript = transcriptFromPlayerAnswer(res.url(), res.status() === 200 ? await res.text() : '');
      if (transcript === null) {
        this.log.warning({ videoId, ms, status: res.status() }, 'browser fallback: the web player got no captions (refused or empty)');
        return null;
      }
      this.log.info({ videoId, ms, language: transcript.language, cues: transcript.cueCount }, 'browser fallback fetched the transcript through the web player');
      return transcript;
    });
  }

  private async unblockNow(path: string): Promise<boolean> {
    return this.inPage(false, { path }, async (page, context) => {
      const timing = this.opts.timing ?? realTiming;
      const t0 = timing.now().getTime();
      const url = new URL(path, this.opts.baseUrl).href;
      const cleared = await this.waitForClearance(page, url, watchedVideo(path));
      const ms = timing.now().getTime() - t0;
      if (!cleared) {
        this.log.warning({ path, ms }, 'browser fallback: the block did not clear in time');
        return false;
      }
      const cookies = await context.cookies(this.opts.baseUrl);
      const userAgent = await page.evaluate<string>('navigator.userAgent');
      this.opts.sink.adoptSession({
        cookies: cookies.map((c) => ({ name: c.name, value: c.value, domain: c.domain, expires: c.expires })),
        userAgent,
      });
      this.log.info({ path, ms, cookies: cookies.length }, 'browser fallback cleared the block; its session is reused');
      return true;
    });
  }

  /**
   * Opens the page, then polls (bounded) until the main frame is no longer a wall and, on a watch
   * page, its player answer no longer refuses. A player that says "bot check" ends the wait at
   * once: waiting does not lift it. Other pages hold no player answer; there the retried request
   * itself is the judge.
   */
  private async waitForClearance(page: Page, url: string, videoId: string | null): Promise<boolean> {
    const timing = this.opts.timing ?? realTiming;
    let status = 0;
    page.on('response', (r) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) status = r.status();
    });
    const waitMs = this.opts.challengeWaitMs ?? 30_000;
    // The challenge reloads the page itself; an interrupted first navigation is expected.
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.opts.navigationTimeoutMs ?? 30_000 }).catch(() => undefined);
    const deadline = timing.now().getTime() + waitMs;
    for (;;) {
      const html = await page.content().catch(() => null); // throws while a navigation is under way
      if (html !== null && status !== 0) {
        const wall = classifyAnswer({ status, contentType: 'text/html', body: html, location: null });
        if (wall.outcome === 'ok') {
          if (videoId === null) return true;
          const player = await embeddedPlayerVerdict(page, videoId);
          if (player !== null && player.outcome !== 'blocked') return true;
          if (player !== null) {
            this.log.info({ videoId, reason: player.reason }, 'browser fallback: page open, but its player answer still refuses');
            return false;
          }
        }
      }
      if (timing.now().getTime() >= deadline) return false;
      await page.waitForLoadState('domcontentloaded', { timeout: 500 }).catch(() => undefined);
      await timing.sleep(200);
    }
  }

  private async start(): Promise<Started | null> {
    if (!this.browser) {
      const launching: Promise<Started> = this.launch().then((started) => {
        // A browser that crashed is launched again on the next use. Only the current browser's end
        // empties the slot: the late 'disconnected' of one closed earlier must not drop its successor.
        started.browser.on('disconnected', () => {
          if (this.browser === launching) this.browser = null;
        });
        return started;
      });
      this.browser = launching;
    }
    const launching = this.browser;
    try {
      return await launching;
    } catch (err) {
      if (this.browser === launching) this.browser = null;
      this.launchFailed = true;
      this.warnOnce(`browser fallback unavailable: Chromium did not start (${(err as Error).message.split('\n')[0]})`);
      return null;
    }
  }

  private async launch(): Promise<Started> {
    const executablePath = (this.found as { path: string }).path;
    const { chromium } = await import('playwright');
    const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
    try {
      // Headless Chromium says "HeadlessChrome" in its user agent, a plain bot signal; the rest of its
      // user agent is the real one, and the session's cookies are tied to it.
      const probe = await browser.newContext();
      try {
        const page = await probe.newPage();
        const real = await page.evaluate<string>('navigator.userAgent');
        const userAgent = real.replace('HeadlessChrome/', 'Chrome/');
        this.log.info({ executablePath, version: browser.version() }, 'browser fallback started Chromium');
        return { browser, userAgent };
      } finally {
        await probe.close();
      }
    } catch (err) {
      // Nobody else holds this browser yet: a launch that fails halfway must not leave it running.
      await browser.close().catch((closeErr: unknown) => this.log.warning({ err: closeErr }, 'browser fallback could not close the Chromium it failed to set up'));
      throw err;
    }
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.log.warning({ unblocker: this.name }, message);
  }
}

/** The browser unblocker for the crawler, reading BROWSER_EXECUTABLE_PATH. */
export function createBrowserFallback(
  config: Pick<Config, 'platformBaseUrl' | 'browserExecutablePath' | 'platformTimeoutMs'> & Partial<Pick<Config, 'platformTimedTextTimeoutMs'>>,
  sink: SessionSink,
  logger: Logger,
  egress: ProxyRotation | null = null,
): BrowserFallback {
  return new BrowserFallback({
    proxy: egress === null ? undefined : () => egress.currentForBrowser(),
    baseUrl: config.platformBaseUrl,
    executablePath: config.browserExecutablePath,
    sink,
    logger: categoryLogger(logger, 'platform.browser'),
    navigationTimeoutMs: Math.max(config.platformTimeoutMs, 10_000),
    timedTextWaitMs: Math.min(config.platformTimedTextTimeoutMs ?? config.platformTimeoutMs, config.platformTimeoutMs),
  });
}
