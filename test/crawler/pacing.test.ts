// Pacing below the quota, end to end over real HTTP: the real platform client against the fake
// platform, a real SQLite store, a channel run on injected time (so an hour passes in
// milliseconds). A "try again later" window costs only a handful of player requests, and the
// hourly budget is honoured by both crawl profiles.

import { expect } from 'chai';
import { runChannel } from '../../crawler/channel-run';
import { RequestBudget } from '../../crawler/request-budget';
import { PROFILES, type CrawlProfile } from '../../shared/config/crawl-profile';
import { loadConfig } from '../../shared/config/load';
import { createPlatformClient } from '../../shared/platform';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../fake-platform';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';
import { tempStore, type TempStore } from '../support/temp-store';

const MINUTE = 60_000;

describe('crawler pacing against the fake platform', function () {
  this.timeout(30_000);
  let fake: FakePlatform;
  let ts: TempStore;
  let channel: FakeChannelSpec;
  let timing: FakeTiming;
  let logs: ReturnType<typeof captureLogs>;

  beforeEach(async () => {
    channel = makeChannel({ handle: 'pacing', count: 8, captionsMix: { manual: 1 } });
    fake = await startFakePlatform({ channels: [channel] });
    // App-client calls without that app's identity or visitorData get the bot check.
    fake.scenario.strictIdentity(true);
    ts = await tempStore('tf-pacing-');
    timing = new FakeTiming();
    logs = captureLogs();
  });
  afterEach(async () => {
    await fake.close();
    await ts.cleanup();
  });

  async function run(profile: CrawlProfile, perHour: number) {
    // The default player clients, as an operator gets them.
    const config = loadConfig({ PLATFORM_BASE_URL: fake.url, PLATFORM_TIMEOUT_MS: '5000' }, ts.dir);
    const platform = createPlatformClient(config, logs.logger);
    const budget = new RequestBudget({
      perHour, coolDownMs: [30 * MINUTE, 30 * MINUTE], timing, sent: () => platform.requestCount(), logger: logs.logger,
    });
    const record = await ts.store.registerChannel({ channelId: channel.channelId, wanted: channel.videos.length }, timing.now());
    return runChannel(
      { store: ts.store, platform, unblockers: [], profile, timing, logger: logs.logger, budget },
      record, new AbortController().signal,
    );
  }

  it('a "try again later" window of 40 minutes costs only a handful of player requests', async () => {
    const opened = timing.now().getTime();
    fake.scenario.tryAgainLaterWindow(true);
    let playerDuringWindow: number | null = null;
    timing.onSleep = () => {
      if (playerDuringWindow === null && timing.now().getTime() >= opened + 40 * MINUTE) {
        playerDuringWindow = fake.counters.player;
        fake.scenario.tryAgainLaterWindow(false);
      }
    };
    const result = await run(PROFILES.fast, 0);

    expect(playerDuringWindow, 'the window closed on the injected clock').to.not.equal(null);
    // Without the cool-down the fast profile would ask for every video of the batch within the window.
    // Two attempts (the first video, then its retry after a 30-minute cool-down), each asking two
    // clients (after a strong block signal one more client, then the blocked path); nothing else
    // reaches the player until the window is over.
    expect(playerDuringWindow).to.be.within(1, 4);
    expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
    const rows = await ts.store.getVideos(channel.videos.map((v) => v.videoId));
    // The video the window first hit is recorded for a retry with backoff; the rest have transcripts.
    expect(rows.filter((r) => r.state === 'ready')).to.have.length(channel.videos.length - 1);
    const warnings = logs.lines.filter((l) => l.level === 'WARNING').map((l) => l.msg);
    expect(warnings).to.include('platform rate-limited this session; no platform request for 30 min');
    expect(logs.lines.map((l) => l.msg)).to.include('platform requests resume');
  });

  for (const profile of [PROFILES.fast, PROFILES.gentle]) {
    it(`the hourly budget holds back the ${profile.name} profile, and the run still completes`, async () => {
      const perHour = 6;
      const result = await run(profile, perHour);
      expect(result).to.deep.include({ outcome: 'ok', stored: channel.videos.length });
      // 8 videos cost about 2 requests each plus the listing: more than two hours' worth of budget.
      expect(fake.counters.total).to.be.greaterThan(2 * perHour);
      expect(logs.lines.filter((l) => l.msg.startsWith(`hourly platform request budget (${perHour}) used up; waiting until `)).length).to.be.at.least(2);
      const slept = timing.sleeps.reduce((a, v) => a + v, 0);
      expect(slept).to.be.at.least(2 * 60 * MINUTE);
    });
  }
});
