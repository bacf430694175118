// A channel the crawler cannot fill says so: the spec's 404 keeps its error and channel_id, and its
// message tells what the crawler knows — not looked at yet, being looked at now, the platform says
// the channel does not exist, the platform unreachable or blocking — with the time of the next try.
// The real crawler (in process) runs against the fake platform over loopback; the real app answers.

import { expect } from 'chai';
import type { Scheduler } from '../../crawler/scheduler';
import { realTiming } from '../../crawler/timing';
import { REGISTRATION_TTL_MS } from '../../api/registration/channel-registrar';
import { startApi, type TestApi } from './support';
import { captureLogs } from '../support/logs';
import { startInProcessCrawler } from '../crawler/support/in-process-crawler';
import { startFakePlatform, type FakePlatform } from '../fake-platform';
import { until } from '../support/poll';

const KNOWN = 'UCknownchannel00000000_1';
const MISSING = 'UCmissingchannel000000_3';
const DOWN = 'UCplatformdownchannel_04';
const BLOCKED = 'UCblockedchannel000000_5';

type Body = { error: string; channel_id: string; message: string };

/** "2026-11-25 16:30 UTC'de", as the message names a time. */
const minute = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC'de`;

describe('a channel the crawler cannot fill: the 404 says what the crawler knows', function () {
  this.timeout(60_000);
  let fake: FakePlatform;
  let api: TestApi;
  let scheduler: Scheduler | null = null;
  const logs = captureLogs();

  before(async () => {
    const day = new Date(Date.UTC(2026, 6, 1, 12));
    fake = await startFakePlatform({
      channels: [KNOWN, DOWN, BLOCKED].map((channelId, i) => ({
        channelId, handle: `known${i}`, title: `Known ${i}`, videos: [{ videoId: `vid${i}known000`.slice(0, 11), title: 'One', publishedAt: day, captions: 'manual' as const }],
      })),
    });
    api = await startApi();
  });
  after(async () => {
    await scheduler?.stop();
    await api.close();
    await fake.close();
  });

  // A channel's first request registers it on the real clock (due at once for the crawler); later
  // ones run the API's clock ahead by more than its short memory of a registration each time, so
  // each answer reads the channel's work item as the crawler left it.
  let ahead = 0;
  async function feed(channelId: string, first = false): Promise<{ status: number; body: Body }> {
    ahead += first ? 0 : REGISTRATION_TTL_MS + 1_000;
    api.now = new Date(Date.now() + (first ? 0 : ahead));
    const res = await api.get(`/?channel_id=${channelId}`);
    return { status: res.status, body: res.status === 404 ? ((await res.json()) as Body) : ({} as Body) };
  }

  const runEnded = (channelId: string) => until(`${channelId}'s run to end`, () => logs.lines.some((l) => l.msg === 'run ended' && l.channelId === channelId), 30_000);

  it('not looked at yet: the channel is queued, try again in a few minutes', async () => {
    const { status, body } = await feed(KNOWN, true);
    expect(status).to.equal(404);
    expect(body).to.deep.equal({
      error: 'Henüz işlenmiş video yok',
      channel_id: KNOWN,
      message: 'Tarayıcı bu kanala henüz bakmadı; sıraya alındı, lütfen birkaç dakika sonra tekrar deneyin',
    });
  });

  it('being looked at now: the crawler is on it', async () => {
    // Every answer held 3 s: the run is under way long enough to be seen, and well inside the
    // crawler's platform timeout (raised here, so a loaded machine cannot turn the wait into a failure).
    fake.scenario.slow(3_000);
    scheduler = startInProcessCrawler({
      fakeUrl: fake.url, configDir: api.dir, store: api.store, timing: realTiming, logger: logs.logger, owner: 'crawl-404', env: { PLATFORM_TIMEOUT_MS: '30000' },
    });
    // KNOWN was asked first: its run starts first, and waits on the slow platform.
    await until('the lease on the channel', async () => (await api.store.getChannel(KNOWN))?.leaseOwner === 'crawl-404');
    const { status, body } = await feed(KNOWN);
    expect(status).to.equal(404);
    expect(body.message).to.equal('Tarayıcı bu kanalı şu anda işliyor; ilk videolar kaydedilince akış görünür, lütfen birkaç dakika sonra tekrar deneyin');
    fake.scenario.slow(0);
    await runEnded(KNOWN);
    expect((await feed(KNOWN)).status, 'filled once its batch is stored').to.equal(200);
  });

  it('the platform says the channel does not exist: so it says, with the next look', async () => {
    expect((await feed(MISSING, true)).status).to.equal(404);
    await runEnded(MISSING);
    const channel = (await api.store.getChannel(MISSING))!;
    expect(channel.lastOutcome).to.equal('not_found');
    const { status, body } = await feed(MISSING);
    expect(status).to.equal(404);
    expect(body.error).to.equal('Henüz işlenmiş video yok');
    expect(body.channel_id).to.equal(MISSING);
    expect(body.message).to.equal(`Platform bu kanalın var olmadığını söylüyor; tarayıcı ${minute(channel.dueAt)} yeniden bakacak`);
  });

  it('the platform unreachable: so it says, with the next try', async () => {
    fake.scenario.serverError(1_000, 503);
    try {
      expect((await feed(DOWN, true)).status).to.equal(404);
      await runEnded(DOWN);
    } finally {
      fake.scenario.serverError(0);
    }
    const channel = (await api.store.getChannel(DOWN))!;
    expect(channel.lastOutcome).to.equal('error');
    const { body } = await feed(DOWN);
    expect(body.message).to.equal(`Platforma ulaşılamadı ya da platform beklenmeyen bir yanıt verdi; tarayıcı ${minute(channel.dueAt)} yeniden deneyecek`);
  });

  it('the platform blocking: so it says, with the next try', async () => {
    fake.scenario.block429({});
    try {
      expect((await feed(BLOCKED, true)).status).to.equal(404);
      await runEnded(BLOCKED);
    } finally {
      fake.clearScenarios();
    }
    const channel = (await api.store.getChannel(BLOCKED))!;
    expect(channel.lastOutcome).to.equal('blocked');
    const { body } = await feed(BLOCKED);
    expect(body.message).to.equal(`Platform şu anda istekleri engelliyor; tarayıcı ${minute(channel.dueAt)} yeniden deneyecek`);
  });
});
