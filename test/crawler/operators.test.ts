// What the crawler tells its operator: the progress of a first crawl in the log, the heartbeat it
// writes to the store (state, budget, waits, proxies), and each run's line in the store's history.
// Real SQLite store, scripted platform, injected time.

import { expect } from 'chai';
import { runChannel, type ChannelRunDeps } from '../../crawler/channel-run';
import { Heartbeat } from '../../crawler/heartbeat';
import { aboutTime } from '../../crawler/progress';
import { RequestBudget } from '../../crawler/request-budget';
import { Scheduler } from '../../crawler/scheduler';
import { CrawlerStatus } from '../../crawler/status';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { ProxyRotation } from '../../shared/platform/proxies';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';
import { ScriptedPlatform, makeVideos } from './support/scripted-platform';
import { tempStore, type TempStore } from '../support/temp-store';

const CH = 'UCcrawleroperators000001';

describe('crawler: what the operator sees', () => {
  let ts: TempStore;
  let timing: FakeTiming;
  let logs: ReturnType<typeof captureLogs>;

  beforeEach(async () => {
    ts = await tempStore();
    timing = new FakeTiming([], undefined, [0.5]);
    logs = captureLogs();
  });
  afterEach(async () => ts.cleanup());

  const deps = (platform: ScriptedPlatform, extra: Partial<ChannelRunDeps> = {}): ChannelRunDeps => ({
    store: ts.store, platform, unblockers: [], profile: PROFILES.gentle, timing, logger: logs.logger, ...extra,
  });

  describe('progress of a first crawl', () => {
    it('logs videos stored of the total and the time left at the current pace after each batch but the last', async () => {
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 20 }, timing.now());
      const status = new CrawlerStatus();
      const result = await runChannel(deps(new ScriptedPlatform(makeVideos(20)), { status }), channel, new AbortController().signal);
      expect(result).to.deep.include({ outcome: 'ok', stored: 20, batchesDone: 4 });
      const lines = logs.lines.filter((l) => / videos stored, /.test(l.msg));
      expect(lines.map((l) => l.msg.replace(/, .*$/, ''))).to.deep.equal([
        `channel Scripted Channel (${CH}): 5/20 videos stored`,
        `channel Scripted Channel (${CH}): 10/20 videos stored`,
        `channel Scripted Channel (${CH}): 15/20 videos stored`,
      ]);
      // The gentle profile with random() = 0.5: 15 s between requests, 75 s between batches. After
      // 5 of 20 videos the pace so far predicts three times the time taken.
      const first = lines[0]!;
      expect(first.msg).to.match(/, about \d+ min left at the current pace$/);
      expect(first.minutesLeft).to.be.a('number').and.greaterThan(0);
      expect(status.videosStored).to.equal(20);
    });

    it('says nothing on a refresh or a first crawl of a few batches', async () => {
      const channel = await ts.store.registerChannel({ channelId: CH, wanted: 15 }, timing.now());
      await runChannel(deps(new ScriptedPlatform(makeVideos(15))), channel, new AbortController().signal);
      expect(logs.lines.filter((l) => / videos stored, /.test(l.msg))).to.deep.equal([]);
    });

    it('words the time left for people', () => {
      expect([aboutTime(10_000), aboutTime(12 * 60_000), aboutTime(125 * 60_000)]).to.deep.equal(['less than a minute', 'about 12 min', 'about 2 h 5 min']);
    });
  });

  describe('heartbeat', () => {
    const budgetOf = (perHour: number, sent: () => number) => new RequestBudget({ perHour, coolDownMs: [1_800_000, 1_800_000], timing, sent, logger: silentLogger() });

    it('writes state, current work, budget, proxies and browser runs; a wait shows with its end; stop says stopped', async () => {
      const status = new CrawlerStatus();
      let sent = 0;
      const budget = budgetOf(500, () => sent);
      const beat = new Heartbeat({
        store: ts.store, owner: 'host:crawler-0', status, budget, requestCount: () => sent, now: () => timing.now(), logger: silentLogger(),
        proxies: () => [{ proxy: 'http://proxy-a:8080', state: 'in use' }], browserRuns: () => 2, every: () => () => undefined,
      });
      await beat.beat();
      const [idle] = await ts.store.listHeartbeats();
      expect(idle).to.deep.include({ owner: 'host:crawler-0', state: 'idle', until: null, channelId: null, batch: null, requestsLastHour: 0, budgetPerHour: 500, browserRuns: 2 });
      expect(idle!.proxies).to.deep.equal([{ proxy: 'http://proxy-a:8080', state: 'in use' }]);
      expect(idle!.version).to.match(/^\d+\.\d+\.\d+/);

      status.working(CH);
      status.fetching('2/5');
      status.videosStored += 7;
      sent += 12;
      budget.noteSent();
      await beat.beat();
      expect((await ts.store.listHeartbeats())[0]).to.deep.include({ state: 'fetching', channelId: CH, batch: '2/5', requestsLastHour: 12 });
      expect(await ts.store.hourlyCounts(new Date(0))).to.deep.equal([{ hour: new Date('2026-07-01T12:00:00Z'), videosStored: 7, platformRequests: 12 }]);

      budget.startCoolDown('try again later');
      const waiting = budget.waitForRoom(new AbortController().signal);
      await beat.beat();
      expect((await ts.store.listHeartbeats())[0]).to.deep.include({ state: 'cooling_down', until: new Date('2026-07-01T12:30:00Z') });
      await waiting;

      status.blocked(new Date('2026-07-01T13:00:00Z'));
      await beat.beat();
      expect((await ts.store.listHeartbeats())[0]).to.deep.include({ state: 'blocked', until: new Date('2026-07-01T13:00:00Z') });
      status.blocked(null);
      expect(status.state).to.equal('fetching');

      await beat.stop();
      expect((await ts.store.listHeartbeats())[0]).to.deep.include({ state: 'stopped', channelId: null, batch: null, until: null });
      expect((await ts.store.hourlyCounts(new Date(0))).map((h) => h.videosStored)).to.deep.equal([7]);
    });

    it('keeps the counts of a beat the store refused for the next one', async () => {
      const status = new CrawlerStatus();
      let sent = 0;
      const budget = budgetOf(0, () => sent);
      const store = Object.create(ts.store) as typeof ts.store;
      let refuse = true;
      store.putHeartbeat = async (h) => {
        if (refuse) throw new Error('disk full');
        return ts.store.putHeartbeat(h);
      };
      const log = captureLogs();
      const beat = new Heartbeat({ store, owner: 'o', status, budget, requestCount: () => sent, now: () => timing.now(), logger: log.logger, every: () => () => undefined });
      sent = 5;
      status.videosStored = 3;
      await beat.beat();
      await beat.beat();
      expect(log.lines.filter((l) => l.level === 'WARNING').map((l) => l.msg)).to.deep.equal(['heartbeat not written; trying again at the next beat']);
      refuse = false;
      await beat.beat();
      expect(await ts.store.hourlyCounts(new Date(0))).to.deep.equal([{ hour: new Date('2026-07-01T12:00:00Z'), videosStored: 3, platformRequests: 5 }]);
    });
  });

  it('shows each outbound proxy by address only, with what last went wrong through it', async () => {
    const rotation = new ProxyRotation(['http://user:s3cret-pass@proxy-a:8080', 'http://proxy-b:3128'], silentLogger());
    try {
      expect(rotation.states()).to.deep.equal([{ proxy: 'http://proxy-a:8080', state: 'in use' }, { proxy: 'http://proxy-b:3128', state: 'standby' }]);
      rotation.nextOnBlock('HTTP 429');
      const [a, b] = rotation.states();
      expect(a!.state).to.match(/^blocked at \d\d:\d\d UTC$/);
      expect(b).to.deep.equal({ proxy: 'http://proxy-b:3128', state: 'in use' });
      rotation.succeeded();
      expect(JSON.stringify(rotation.states())).not.to.contain('s3cret');
    } finally {
      await rotation.close();
    }
  });

  describe('run history', () => {
    it('records each run with its owner, times, outcome and what it stored', async () => {
      timing = new FakeTiming([], undefined, [0.5], true);
      await ts.store.registerChannel({ channelId: CH, wanted: 5 }, timing.now());
      const status = new CrawlerStatus();
      const scheduler = new Scheduler({
        runDeps: { ...deps(new ScriptedPlatform(makeVideos(5)), { status }), profile: PROFILES.fast },
        owner: 'host:crawler-7', leaseMs: 60_000, pollMs: 50, scheduleCron: () => ({ stop: async () => undefined }),
      });
      scheduler.start();
      try {
        await timing.until('the run is recorded', async () => (await ts.store.listRuns(CH, 5)).length === 1);
      } finally {
        timing.free();
        await scheduler.stop();
      }
      const [run] = await ts.store.listRuns(CH, 5);
      expect(run).to.deep.include({ channelId: CH, owner: 'host:crawler-7', outcome: 'ok', error: null, stored: 5 });
      expect(run!.endedAt.getTime()).to.be.at.least(run!.startedAt.getTime());
      expect(status.state).to.equal('idle');
    });
  });
});
