// The crawler in process against the fake platform over real HTTP, with strict app identity, as the
// platform answered in late 2026 (docs/crawler.md §3, §4): answers about a player client (a retired
// version's HTTP 400, the TV client's "page needs to be reloaded") leave that client out of the
// process after its first answer, with one WARNING, and cost no video anything; made-for-kids videos
// come through the fallback clients (the embedded player after its page, then the downgraded TV
// client) with the default PLAYER_CLIENTS; age checks in every spelling are recorded once and not
// asked again soon; every app client keeps its own visitor session.

import { expect } from 'chai';
import { makeChannel, type FakeChannelSpec, type FakeVideoSpec } from '../fake-platform';
import { AGE_SPELLINGS } from '../fake-platform/player-refusals';
import { DEFAULT_PLAYER_CLIENTS } from '../../shared/config/client-identities';
import { crawlerOnFake } from './support/in-process-crawler';
import { until } from '../support/poll';
import { refreshAll } from '../support/refresh';

const DEFAULT_CLIENTS = DEFAULT_PLAYER_CLIENTS.split(',').map((c) => c.split(':')[0]!);

describe('crawler and client-level answers of the platform (in process)', function () {
  this.timeout(60_000);
  const crawler = crawlerOnFake({ storePrefix: 'tf-clientlevel-', onFake: (fake) => fake.scenario.strictIdentity(true) });
  const channel = (handle: string, seed: number, count: number, video: Partial<FakeVideoSpec> = {}): FakeChannelSpec => {
    const ch = makeChannel({ handle, count, seed, captionsMix: { manual: 1 } });
    return crawler.fake.addChannel({ ...ch, videos: ch.videos.map((v) => ({ ...v, ...video })) });
  };
  const records = async (ch: FakeChannelSpec) => crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId));
  const states = async (ch: FakeChannelSpec) => (await records(ch)).map((r) => r.state);
  const callsOf = (client: string) => crawler.fake.playerCalls.filter((c) => c.client === client);
  const warnings = () => crawler.logs.lines.filter((l) => l.level === 'WARNING');
  const runsEnded = (): number => crawler.logs.lines.filter((l) => l.msg === 'run ended').length;
  /** The scheduled refresh: every channel due now, the next run's platform requests counted alone. */
  const refresh = async () => {
    const before = runsEnded();
    crawler.fake.resetCounters();
    await refreshAll(crawler.ts.store, new Date());
    crawler.scheduler?.wake();
    await until('the refresh to end', () => runsEnded() > before);
  };

  it('a retired first client (ANDROID 19.44.38, HTTP 400 FAILED_PRECONDITION) is asked at most twice in ten videos; VISIONOS stores all ten; one WARNING says what to change', async () => {
    const ch = channel('retiredfirst', 71, 10);
    expect(await crawler.crawl(ch, { env: { PLAYER_CLIENTS: 'ANDROID:19.44.38,VISIONOS:1.02' } })).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
    const android = callsOf('ANDROID');
    expect(android.length).to.be.within(1, 2);
    expect(android.every((c) => c.status === 400)).to.equal(true);
    expect(callsOf('VISIONOS')).to.have.length(10);
    // Not one video paid for it: each stored at its first attempt, with no error.
    for (const r of await records(ch)) expect(r).to.deep.include({ attempts: 1, lastError: null });
    const said = warnings().filter((l) => l.client === 'ANDROID');
    expect(said).to.have.length(1);
    expect(said[0]).to.deep.include({ version: '19.44.38', why: 'retired', category: 'platform' });
    expect(said[0]!.msg).to.match(/ANDROID 19\.44\.38 is a retired version.*PLAYER_CLIENTS/);
    expect(crawler.blockedWarnings()).to.deep.equal([]);
  });

  it('a TV client answering "The page needs to be reloaded." is left out after its first answer; the next client stores every video', async () => {
    crawler.fake.scenario.clientTrouble('TVHTML5', 'reload');
    const ch = channel('tvreload', 72, 6);
    expect(await crawler.crawl(ch, { env: { PLAYER_CLIENTS: 'TVHTML5,VISIONOS' } })).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
    expect(callsOf('TVHTML5').map((c) => c.playability)).to.deep.equal(['UNPLAYABLE']);
    for (const r of await records(ch)) expect(r).to.deep.include({ attempts: 1, lastError: null });
    const said = warnings().filter((l) => l.client === 'TVHTML5');
    expect(said).to.have.length(1);
    expect(said[0]).to.deep.include({ why: 'client_fault' });
    expect(said[0]!.msg).to.include('PLAYER_CLIENTS');
  });

  it('every configured client retired: nothing is asked per video, no video counts an attempt, and each is due again after the hour', async () => {
    crawler.fake.scenario.retireClient('VISIONOS', '*');
    const ch = channel('allretired', 73, 5);
    expect(await crawler.crawl(ch, { env: { PLAYER_CLIENTS: 'ANDROID:19.44.38,VISIONOS:1.02' } })).to.equal('ok');
    expect(crawler.fake.playerCalls.length).to.equal(2);
    for (const r of await records(ch)) {
      expect(r.attempts).to.equal(0);
      expect(r.lastError).to.match(/every player client is left out of this process/);
      expect(r.nextAttemptAt!.getTime() - r.fetchedAt.getTime()).to.equal(3_600_000);
    }
    expect(warnings().filter((l) => l.why === 'retired').map((l) => l.client)).to.deep.equal(['ANDROID', 'VISIONOS']);
  });

  for (const status of ['ERROR', 'UNPLAYABLE'] as const) {
    it(`made-for-kids videos (VISIONOS ${status}) are stored through the embedded player, asked after its page with its flags, with the default clients`, async () => {
      expect(DEFAULT_CLIENTS).not.to.include('WEB_EMBEDDED_PLAYER');
      crawler.fake.scenario.kidsRefusal(status);
      const ch = channel(`kids${status.toLowerCase()}`, 74, 4, { madeForKids: true });
      expect(await crawler.crawl(ch)).to.equal('ok');
      expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
      expect(callsOf('VISIONOS').map((c) => c.playability)).to.deep.equal(ch.videos.map(() => status));
      const embedded = callsOf('WEB_EMBEDDED_PLAYER');
      expect(embedded.map((c) => c.playability)).to.deep.equal(ch.videos.map(() => 'OK'));
      expect(embedded.every((c) => c.encryptedHostFlags !== null)).to.equal(true);
      // Per video: VISIONOS's refusal, the embed page, the embedded player, the timed text.
      expect(crawler.fake.counters).to.include({ player: 2 * 4, embed: 4, timedtext: 4 });
      expect(crawler.blockedWarnings()).to.deep.equal([]);
    });
  }

  it('a made-for-kids video that may not be embedded goes on to the downgraded TV client, which stores it', async () => {
    const ch = channel('kidsnoembed', 75, 3, { madeForKids: true, embeddable: false });
    expect(await crawler.crawl(ch)).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
    expect(callsOf('WEB_EMBEDDED_PLAYER').map((c) => c.playability)).to.deep.equal(ch.videos.map(() => 'UNPLAYABLE'));
    expect(callsOf('TVHTML5').map((c) => [c.version, c.playability])).to.deep.equal(ch.videos.map(() => ['5.20260707', 'OK']));
  });

  it('age checks in every spelling are recorded as age restricted: each client asked once, no block, not asked again on the next refresh', async () => {
    const ch = makeChannel({ handle: 'agecheck', count: AGE_SPELLINGS.length, seed: 76, captionsMix: { manual: 1 } });
    const spec = crawler.fake.addChannel({ ...ch, videos: ch.videos.map((v, i) => ({ ...v, captions: 'age_restricted' as const, ageCheck: AGE_SPELLINGS[i]! })) });
    expect(await crawler.crawl(spec)).to.equal('ok');
    for (const r of await records(spec)) {
      expect(r.state, r.videoId).to.equal('unavailable');
      expect(r.lastError, r.videoId).to.match(/^age restricted: /);
      expect(r.nextAttemptAt!.getTime() - r.fetchedAt.getTime()).to.be.at.least(3_600_000);
    }
    for (const v of spec.videos) {
      expect(crawler.fake.playerCalls.filter((c) => c.videoId === v.videoId).map((c) => c.client), v.ageCheck).to.deep.equal(DEFAULT_CLIENTS);
    }
    expect(crawler.blockedWarnings()).to.deep.equal([]);
    await refresh();
    expect(crawler.fake.playerCalls).to.deep.equal([]);
  });

  it('each app client asks with the visitorData its own visitor_id call returned, and only a refused client renews its session', async () => {
    // VISIONOS and ANDROID offer only token-bound tracks: all three clients are asked for every video.
    crawler.fake.scenario.clientTrouble('VISIONOS', 'xpv');
    crawler.fake.scenario.clientTrouble('ANDROID', 'xpv');
    crawler.fake.scenario.botCheck(1);
    const ch = channel('ownvisitors', 77, 4);
    expect(await crawler.crawl(ch, { env: { PLAYER_CLIENTS: 'VISIONOS,ANDROID,TVHTML5' } })).to.equal('ok');
    const calls = crawler.fake.playerCalls;
    expect(calls.length).to.be.greaterThan(6);
    const sessions = new Map<string, Set<string>>();
    for (const c of calls) {
      expect(c.visitorData, `${c.client} ${c.videoId}`).not.to.equal(null);
      expect(c.visitorHeader).to.equal(c.visitorData);
      expect(c.visitorIssuedTo, `${c.client}'s visitorData was issued to ${c.visitorIssuedTo}`).to.equal(c.client);
      sessions.set(c.client, (sessions.get(c.client) ?? new Set()).add(c.visitorData!));
    }
    // The bot check met VISIONOS's first call: its session alone was renewed.
    expect([...sessions].map(([client, set]) => [client, set.size])).to.deep.equal([['VISIONOS', 2], ['ANDROID', 1], ['TVHTML5', 1]]);
    const all = [...sessions.values()].flatMap((s) => [...s]);
    expect(new Set(all).size).to.equal(all.length);
    expect(crawler.fake.counters.visitorId).to.equal(4);
  });
});
