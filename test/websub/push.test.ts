// Push end to end over loopback: the fake platform, its fake WebSub hub, the real API (the hub
// calls its /websub/<token>) and the crawler in this process (scheduler + subscriber) on one real
// SQLite store. Verification, a notification becoming an entry without a listing request, a
// forged signature ignored, notifications for a stored and for an old video costing no player
// call, deletion, lease renewal, denial and 503 falling back to polling, then push again.

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Scheduler } from '../../crawler/scheduler';
import { pushActive, WebSubSubscriber } from '../../crawler/websub-subscriber';
import { realTiming, type Timing } from '../../crawler/timing';
import { loadConfig } from '../../shared/config/load';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient } from '../../shared/platform';
import type { WebSubRecord } from '../../shared/store/types';
import { startApi, type TestApi } from '../api/support';
import { makeChannel, startFakeHub, startFakePlatform, type FakeHub, type FakePlatform } from '../fake-platform';
import { captureLogs, type LogLine } from '../support/logs';
import { until } from '../support/poll';
import { refreshAll } from '../support/refresh';

/** The window the crawler keeps: 10 of the channel's 20 videos. */
const WANTED = 10;
const KEY_ID = createHash('sha256').update('push-test-key').digest('hex');

describe('push (WebSub) end to end: fake hub → real API → crawler', function () {
  this.timeout(60_000);
  let fake: FakePlatform;
  let hub: FakeHub;
  let api: TestApi;
  let dir: string;
  let scheduler: Scheduler | null;
  let subscriber: WebSubSubscriber | null;
  let channelId: string;
  let lines: LogLine[];
  /** The crawler's clock runs this far ahead of the real one: a test skips a backoff by moving it. */
  let skewMs: number;
  const timing: Timing = { now: () => new Date(Date.now() + skewMs), sleep: (ms, signal) => realTiming.sleep(ms, signal), random: () => Math.random() };

  beforeEach(async () => {
    fake = await startFakePlatform({ channels: [makeChannel({ handle: 'pushtalks', count: 20, seed: 31, captionsMix: { manual: 1 } })] });
    channelId = fake.channel('pushtalks')!.channelId;
    hub = await startFakeHub();
    // A 4-second lease (below the 3600 s the service grants at least) lets a renewal happen within the test.
    api = await startApi({ minLeaseSeconds: 1 });
    // The API's clock is the real one here: leases are compared with the crawler's.
    Object.defineProperty(api, 'now', { get: () => new Date() });
    dir = mkdtempSync(path.join(tmpdir(), 'tf-push-'));
    scheduler = null;
    subscriber = null;
    skewMs = 0;
  });
  afterEach(async () => {
    await subscriber?.stop();
    await scheduler?.stop();
    await api.close();
    await hub.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The crawler as main.ts wires it with push on: PUBLIC_BASE_URL is the API, WEBSUB_HUB_URL the fake hub. */
  function startCrawler(env: Record<string, string> = {}): void {
    const config = loadConfig({
      PLATFORM_BASE_URL: fake.url, CRAWL_PROFILE: 'fast', CRAWL_BATCH_WAIT: '0', BROWSER_EXECUTABLE_PATH: 'off', PLATFORM_TIMEOUT_MS: '5000',
      PUBLIC_BASE_URL: api.base, WEBSUB_HUB_URL: hub.url, ...env,
    }, dir);
    const platform = createPlatformClient(config, silentLogger());
    const logs = captureLogs();
    lines = logs.lines;
    scheduler = new Scheduler({
      runDeps: { store: api.store, platform, unblockers: [], profile: config.crawl, timing, logger: logs.logger },
      owner: 'push-test', leaseMs: 60_000, pollMs: 50, listingBounds: config.crawlListingInterval,
      push: { safetyPollMs: config.webSubSafetyPoll * 1000 },
    });
    scheduler.start();
    subscriber = new WebSubSubscriber({ store: api.store, hubUrl: hub.url, publicBaseUrl: api.base, timing, logger: logs.logger, timeoutMs: 5000, spacingMs: 10, pollMs: 100 });
    subscriber.start();
  }

  const state = async (): Promise<WebSubRecord | null> => (await api.store.webSubStates([channelId], 1))[0] ?? null;
  const verified = async (): Promise<boolean> => pushActive(await state(), timing.now());
  const pushedOutcomes = (): unknown[] => lines.filter((l) => l.msg === 'pushed video handled').map((l) => l.outcome);
  const firstRunDone = async (): Promise<boolean> => (await api.store.getChannel(channelId))?.lastOutcome === 'ok';

  async function followAndSettle(): Promise<void> {
    await api.store.follow(KEY_ID, [{ channelId }], 'import', WANTED, new Date());
    await until('the first listing', firstRunDone, 30_000);
    await until('the hub to verify the subscription', verified, 30_000);
    await hub.settle();
  }

  it('subscribes a followed channel (verification echoed by the API), and a notification becomes an entry without a listing', async () => {
    startCrawler();
    await followAndSettle();
    const [request] = hub.requests;
    expect(request).to.deep.include({ mode: 'subscribe', verify: 'async', leaseSeconds: 432000, status: 202 });
    expect(request!.contentType).to.match(/^application\/x-www-form-urlencoded/);
    expect(request!.topic).to.equal(`https://www.youtube.com/xml/feeds/videos.xml?channel_id=${channelId}`);
    expect(request!.callback).to.match(new RegExp(`^${api.base}/websub/[A-Za-z0-9_-]{32}$`));
    expect(request!.secret!.length).to.be.at.least(16);
    const record = (await state())!;
    expect(record).to.deep.include({ status: 'verified', leaseSeconds: 432000, failures: 0, lastError: null });
    // Pushed: the channel's next run schedules only the daily safety listing.
    const before = (await api.store.getChannel(channelId))!.lastCrawlAt!.getTime();
    await refreshAll(api.store, timing.now());
    await until('the next run', async () => ((await api.store.getChannel(channelId))!.lastCrawlAt?.getTime() ?? 0) > before && (await api.store.getChannel(channelId))!.leaseOwner === null, 20_000);
    const channel = (await api.store.getChannel(channelId))!;
    expect(channel.dueAt.getTime() - channel.lastCrawlAt!.getTime(), 'WEBSUB_SAFETY_POLL').to.equal(24 * 3_600_000);

    fake.resetCounters();
    const upload = fake.addUpload(channelId, { title: 'Pushed upload' });
    expect(await hub.notifyUpload({ videoId: upload.videoId, channelId, title: upload.title, publishedAt: upload.publishedAt })).to.equal(1);
    await until('the pushed video stored', async () => (await api.store.getVideos([upload.videoId]))[0]?.state === 'ready', 30_000);
    const counters = fake.counters;
    expect(counters.feed + counters.browse, 'no listing request').to.equal(0);
    expect(counters.player, 'one player call').to.be.at.least(1);
    expect((await api.store.listFeedEntries(channelId, 1))[0]!.videoId).to.equal(upload.videoId);
  });

  it('ignores a forged signature; a stored video and an old video cost no player call; a deletion leaves the feed', async () => {
    startCrawler();
    await followAndSettle();
    const stored = (await api.store.listFeedEntries(channelId, 10));
    fake.resetCounters();

    const upload = fake.addUpload(channelId, { title: 'Forged' });
    const body = `<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><entry><yt:videoId>${upload.videoId}</yt:videoId><yt:channelId>${channelId}</yt:channelId><title>x</title><published>${upload.publishedAt.toISOString()}</published></entry></feed>`;
    expect(await hub.notifyRaw(channelId, body, 'not-the-secret'), 'acknowledged').to.equal(1);
    expect(await hub.notifyRaw(channelId, body, null), 'unsigned: acknowledged').to.equal(1);
    await until('the warnings', () => api.logLines.filter((l) => l.msg === 'push notification with a missing or wrong signature ignored').length === 2);
    expect(pushedOutcomes(), 'nothing became work').to.deep.equal([]);

    // An edit of a stored video, and a years-old video below the wanted window (the 10 newest).
    const edited = stored[0]!;
    await hub.notifyEdit({ videoId: edited.videoId, channelId, title: `${edited.title} (edited)`, publishedAt: edited.publishedAt });
    await hub.notifyUpload({ videoId: 'OldVideo123', channelId, title: 'From 2012', publishedAt: new Date('2012-05-01T00:00:00Z') });
    await until('both pushes handled', () => pushedOutcomes().length === 2, 20_000);
    expect(pushedOutcomes().sort()).to.deep.equal(['known', 'old']);
    expect(fake.counters.player, 'no player call for either').to.equal(0);

    await hub.notifyDeletion(channelId, edited.videoId);
    const after = await api.store.listFeedEntries(channelId, 10);
    expect(after.map((v) => v.videoId)).to.not.include(edited.videoId);
    expect(after).to.have.length(stored.length - 1);
  });

  it('retries a pushed video that is not ready yet, then stores it', async () => {
    startCrawler();
    await followAndSettle();
    // The ping comes before the page: the platform does not know the video yet.
    const early = { videoId: 'EarlyPing01', channelId, title: 'Soon', publishedAt: new Date() };
    fake.resetCounters();
    await hub.notifyUpload(early);
    await until('the first attempt', () => pushedOutcomes().includes('not_ready'), 20_000);
    expect(await api.store.getVideos([early.videoId]), 'nothing stored for a video not ready').to.deep.equal([]);
    fake.addUpload(channelId, { videoId: early.videoId, title: 'Soon', publishedAt: early.publishedAt });
    skewMs += 61_000; // the first retry comes a minute later
    await until('stored on a retry', async () => (await api.store.getVideos([early.videoId]))[0]?.state === 'ready', 20_000);
    expect(fake.counters.feed + fake.counters.browse, 'still no listing').to.equal(0);
  });

  it('renews the lease before 80 % of it has passed', async () => {
    hub.grantLease(4);
    startCrawler();
    await followAndSettle();
    expect((await state())!.leaseSeconds).to.equal(4);
    await until('a renewal request', () => hub.requests.filter((r) => r.status === 202).length >= 2, 20_000);
    await hub.settle();
    await until('verified again', async () => (await state())!.verifiedAt!.getTime() > (await state())!.requestedAt!.getTime() - 1 && (await verified()), 10_000);
    const subs = hub.subscriptions();
    expect(subs).to.have.length(1);
  });

  it('ends the subscription at the hub once nobody follows the channel; following it again subscribes afresh', async () => {
    startCrawler();
    await followAndSettle();
    const first = (await state())!;
    expect(hub.subscriptions()).to.have.length(1);
    expect(await api.store.unfollow(KEY_ID, channelId, new Date())).to.equal(true);
    await until('the hub to end the subscription', async () => hub.subscriptions().length === 0 && (await state()) === null, 20_000);
    const ending = hub.requests.at(-1)!;
    expect(ending).to.deep.include({ mode: 'unsubscribe', topic: first.topic, callback: `${api.base}/websub/${first.token}`, status: 202 });
    expect(ending.secret, 'an unsubscribe carries no secret').to.equal(null);
    // The old callback is gone: a verification or a notification on it is not ours any more.
    const old = await fetch(`${api.base}/websub/${first.token}?hub.mode=subscribe&hub.topic=${encodeURIComponent(first.topic)}&hub.challenge=x`);
    expect(old.status).to.equal(404);

    await api.store.follow(KEY_ID, [{ channelId }], 'import', WANTED, new Date());
    await until('subscribed again', verified, 20_000);
    // The hub counts the subscription once the API's echo has reached it.
    await hub.settle();
    const again = (await state())!;
    expect(again.token).to.not.equal(first.token);
    expect(hub.subscriptions()).to.have.length(1);
  });

  it('a denial and a 503 fall back to polling; push comes back once the hub verifies', async () => {
    hub.deny(1);
    startCrawler();
    await api.store.follow(KEY_ID, [{ channelId }], 'import', WANTED, new Date());
    await until('the denial recorded', async () => (await state())?.status === 'denied', 30_000);
    expect((await state())!.lastError).to.match(/^hub denied/);
    await until('the first listing', firstRunDone, 30_000);
    const polled = (await api.store.getChannel(channelId))!;
    expect(polled.dueAt.getTime() - polled.lastCrawlAt!.getTime(), 'listed by its rhythm, not once a day').to.be.below(24 * 3_600_000);

    // An hour later the subscriber asks again; the hub answers 503 with Retry-After: 400 s, longer
    // than the backoff's 5 minutes after a second failure in a row.
    hub.unavailable(1, 400);
    skewMs += 3_600_000;
    await until('the 503 recorded', async () => (await state())?.lastError === 'hub answered 503', 20_000);
    const refused = (await state())!;
    expect(refused.status).to.equal('failed');
    expect(refused.failures).to.equal(2);
    expect(refused.nextActionAt.getTime() - refused.updatedAt.getTime(), 'Retry-After beats the backoff').to.equal(400_000);
    expect(pushActive(refused, timing.now())).to.equal(false);

    // After the Retry-After the hub accepts and verifies: push is on again.
    skewMs += 401_000;
    await until('verified again', verified, 20_000);
    expect((await state())!).to.deep.include({ failures: 0, lastError: null });
    expect(hub.requests.map((r) => r.status)).to.deep.equal([202, 503, 202]);
  });
});
