// GET /status in a real Chromium (Debian's, through Playwright with executablePath): the page loads
// under its own CSP with no console error and no CSP violation, shows the store's figures, escapes
// stored text, never shows a key, and asks a browser for the key with a Basic challenge.

import { expect } from 'chai';
import type { Browser } from 'playwright';
import { statusCsp } from '../../api/routes/admin-status';
import { heartbeat } from '../store/contract-operators';
import { chromiumPath } from '../support/process-tree';
import { defaultSummaryKey } from '../../api/feed/summaries';
import { withTranscripts } from '../support/factories';
import { ADMIN_KEY, CHANNEL, KEY, NASTY_TITLE, OTHER_CHANNEL, startApi, T0, video, type TestApi } from './support';

const CHROMIUM = chromiumPath();
const MIN = 60_000;
const HOUR = 3_600_000;

describe('GET /status', function () {
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi();
    api.now = new Date(T0.getTime() + 30 * MIN);
  });
  afterEach(async () => api.close());

  /** A store with a crawler at work, one silent for long, a failing channel and some history. */
  async function fill(): Promise<void> {
    const s = api.store;
    await s.registerChannel({ channelId: CHANNEL, wanted: 4, title: NASTY_TITLE }, T0);
    await s.registerChannel({ channelId: OTHER_CHANNEL, wanted: 10, title: '<script>alert(1)</script>' }, new Date(T0.getTime() + 1000));
    await s.upsertVideos([video(1), video(2), video(3, { state: 'failed', nextAttemptAt: T0 })]);
    const claimed = await s.claimDueChannel('host:crawler-0', MIN, T0);
    await s.releaseChannel(claimed!.channelId, 'host:crawler-0', { nextDueAt: new Date(T0.getTime() + HOUR), outcome: 'blocked', error: 'HTTP 429 <b>', consecutiveFailures: 2 }, new Date(T0.getTime() + 1000));
    await s.recordRun({ channelId: claimed!.channelId, owner: 'host:crawler-0', startedAt: T0, endedAt: new Date(T0.getTime() + 1000), outcome: 'blocked', error: 'HTTP 429 <b>', stored: 3 });
    await s.putHeartbeat(heartbeat('host:crawler-0', { state: 'cooling_down', until: new Date(T0.getTime() + 55 * MIN), channelId: CHANNEL, batch: null, requestsLastHour: 123, at: new Date(api.now.getTime() - 5000) }));
    await s.putHeartbeat(heartbeat('host:crawler-1', {
      state: 'fetching', at: new Date(api.now.getTime() - 5 * MIN),
      playerClientsLeftOut: [{ client: 'ANDROID', version: '19.44.38', why: 'retired', reason: 'HTTP 400 <FAILED_PRECONDITION>', since: T0, retryAt: new Date(T0.getTime() + HOUR), advice: 'set a newer ANDROID version in PLAYER_CLIENTS' }],
    }));
    await s.addHourlyCounts({ videosStored: 7, platformRequests: 40 }, new Date(T0.getTime() - 2 * HOUR));
    await s.addHourlyCounts({ videosStored: 3, platformRequests: 12 }, T0);
    await s.addHourlyCounts({ videosStored: 99, platformRequests: 99 }, new Date(T0.getTime() - 30 * HOUR)); // older than a day: not charted
  }

  it('answers 401 with a Basic challenge, and serves HTML under its own strict CSP to an admin key', async () => {
    const none = await api.get('/status', { key: null });
    expect(none.status).to.equal(401);
    expect(none.headers.get('www-authenticate')).to.equal('Basic realm="transcript-feed admin", charset="UTF-8"');
    await fill();
    const res = await fetch(`${api.base}/status`, { headers: { Authorization: `Basic ${Buffer.from(`:${ADMIN_KEY}`).toString('base64')}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1]!;
    expect(csp).to.equal(statusCsp(nonce));
    expect(csp).to.contain("default-src 'none'").and.not.contain('unsafe');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const html = await res.text();
    expect(html).to.contain(`<style nonce="${nonce}">`);
    expect(html).not.to.contain('<script');
    expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).to.contain('HTTP 429 &lt;b&gt;');
    // The player client the second crawler left out, why, and what to change.
    expect(html).to.contain('<h2>Player clients left out</h2>');
    expect(html).to.contain('<span data-figure="client-left-out:host:crawler-1:ANDROID">ANDROID 19.44.38</span>');
    expect(html).to.contain('retired version<br><small>HTTP 400 &lt;FAILED_PRECONDITION&gt;</small>');
    expect(html).to.contain('set a newer ANDROID version in PLAYER_CLIENTS');
    expect(html).to.contain('<meta http-equiv="refresh" content="15">');
    expect(html).not.to.contain(ADMIN_KEY);
    expect((await api.get('/status', { key: KEY })).status).to.equal(403);
  });

  it('shows the summaries made, failed and waiting (issue 31)', async () => {
    const videos = [video(1), video(2), video(3)];
    await api.store.upsertVideos(...withTranscripts(videos));
    const key = defaultSummaryKey();
    const claimed = await api.store.claimSummaries(key, 'host:crawler-0', api.now, MIN, 2);
    expect(claimed).to.have.length(2);
    await api.store.putSummary({ videoId: claimed[0]!, language: key.language, promptVersion: key.promptVersion, transcriptLanguage: 'en', model: 'fake', points: [{ seconds: 0, text: 'x' }], promptTokens: 1, completionTokens: 1, madeAt: api.now }, 'host:crawler-0');
    await api.store.deferSummary(claimed[1]!, key, 'host:crawler-0', { error: 'no valid point', retryAt: new Date(api.now.getTime() + 24 * HOUR), failed: true });
    const html = await (await api.get('/status', { key: ADMIN_KEY })).text();
    expect(html).to.contain('<h2>Summaries</h2>');
    expect(html).to.contain('<span data-figure="summaries-made">1</span>');
    expect(html).to.contain('<span data-figure="summaries-failed">1</span>');
    expect(html).to.contain('<span data-figure="summaries-waiting">1</span>');
  });

  describe('in Chromium', function () {
    let browser: Browser;
    before(async function () {
      if (CHROMIUM === null) {
        console.log('    status page test skipped: no Chromium found (CI installs Debian\'s chromium)');
        this.skip();
      }
      const { chromium } = await import('playwright');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    });
    after(async () => browser?.close());

    it('loads with no console error and no CSP violation, showing exactly the store\'s figures', async () => {
      await fill();
      // Basic with the key as password, as a browser sends it after the challenge.
      const context = await browser.newContext({ httpCredentials: { username: 'admin', password: ADMIN_KEY }, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
      page.on('pageerror', (e) => void problems.push(`page: ${e.message}`));
      // Browser-side code as text: this project's TypeScript has no DOM types.
      await page.addInitScript({ content: "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));" });
      const response = await page.goto(`${api.base}/status`);
      expect(response!.status()).to.equal(200);
      expect(problems).to.deep.equal([]);
      expect(await page.evaluate('window.violations')).to.deep.equal([]);

      // The style applied (its nonce matched): the table header has the stylesheet's background.
      expect(await page.evaluate("getComputedStyle(document.querySelector('th')).backgroundColor")).to.equal('rgb(246, 246, 246)');

      const figures = Object.fromEntries(await page.locator('[data-figure]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-figure'), e.textContent])));
      const queue = await api.store.queueSummary(api.now);
      const size = await api.store.storeSize();
      const [stats] = await api.store.channelStats([{ channelId: CHANNEL, wanted: 4 }]);
      expect(figures).to.deep.include({
        'queue-channels': String(queue.channels),
        'queue-running': String(queue.running),
        'queue-due': String(queue.dueNow),
        'store-channels': String(size.channels),
        'store-videos': String(size.videos),
        'store-transcripts': String(size.transcripts),
        'day-videos': '10',
        'day-requests': '52',
        'crawler-requests:host:crawler-0': '123',
        [`channel-ready:${CHANNEL}`]: String(stats!.videos.ready),
        [`channel-failures:${CHANNEL}`]: '2',
      });
      expect(figures['crawler-state:host:crawler-0']).to.equal('cooling down until 2030-01-01 12:55 UTC');
      expect(figures['crawler-state:host:crawler-1'], 'silent for 5 minutes').to.equal('down');
      expect(figures[`channel-coverage:${CHANNEL}`]).to.equal(`${stats!.windowShown}/${stats!.window} (${Math.round((1000 * stats!.windowShown) / stats!.window) / 10}%)`);
      expect(await page.locator('[data-figure-rows="runs"] tbody tr').count()).to.equal((await api.store.listRuns(null, 50)).length);

      // Stored text is shown as text, never run or parsed as markup.
      expect(await page.getByText('<script>alert(1)</script>').count()).to.equal(1);
      expect(await page.getByText(NASTY_TITLE).count()).to.equal(1);
      expect(await page.content()).not.to.contain(ADMIN_KEY);
      // Readable on a phone: nothing wider than the screen but the scrolling tables.
      expect(await page.evaluate('document.body.scrollWidth <= window.innerWidth')).to.equal(true);
      await context.close();
    });
  });
});
