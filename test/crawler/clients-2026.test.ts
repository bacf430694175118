// The crawler in process, with the player clients of late 2026, against the fake platform over HTTP
// with strict app identity: made-for-kids videos VISIONOS cannot play come from the made-for-kids
// fallback before any other listed client (client-level.test.ts has the default list's case); the
// TV client, named, asks with its guest session and so gets caption tracks; and the timed-text
// stall costs one bounded wait, not one per video, while token-bound caption URLs are never
// fetched at all (docs/crawler.md §3, §4).

import { expect } from 'chai';
import { DEFAULT_MAX_BLOCKS } from '../../crawler/blocked-path';
import { DEFAULT_PLAYER_CLIENTS } from '../../shared/config/client-identities';
import { makeChannel, type FakeChannelSpec } from '../fake-platform';
import { crawlerOnFake } from './support/in-process-crawler';

const DEFAULT_CLIENTS = DEFAULT_PLAYER_CLIENTS.split(',').map((c) => c.split(':')[0]!);

describe('crawler with the late 2026 player clients (in process)', function () {
  this.timeout(60_000);
  const crawler = crawlerOnFake({ storePrefix: 'tf-clients26-', onFake: (fake) => fake.scenario.strictIdentity(true) });
  const crawl = (ch: FakeChannelSpec, env: Record<string, string> = {}) => crawler.crawl(ch, { env });
  const states = async (ch: FakeChannelSpec) => (await crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId))).map((r) => r.state);
  const kidsChannel = (handle: string, seed: number): FakeChannelSpec => {
    const ch = makeChannel({ handle, count: 4, seed, captionsMix: { manual: 1 } });
    return crawler.fake.addChannel({ ...ch, videos: ch.videos.map((v) => ({ ...v, madeForKids: true })) });
  };

  it('made-for-kids videos with ANDROID named after VISIONOS: the made-for-kids fallback is asked next, as yt-dlp asks it, and ANDROID is not needed', async () => {
    const ch = kidsChannel('kidsandroid', 61);
    expect(await crawl(ch, { PLAYER_CLIENTS: 'VISIONOS,ANDROID' })).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
    expect(crawler.fake.counters).to.include({ player: 2 * 4, embed: 4, timedtext: 4 });
    expect(crawler.fake.playerCalls.filter((c) => c.client === 'ANDROID')).to.deep.equal([]);
    expect(crawler.blockedWarnings()).to.deep.equal([]);
  });

  it('the TV client, named in PLAYER_CLIENTS, asks with its guest session (visitorData) and gets caption tracks', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'tvguest', count: 3, seed: 63, captionsMix: { manual: 1 } }));
    expect(await crawl(ch, { PLAYER_CLIENTS: 'TVHTML5' })).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'ready'));
    expect(crawler.fake.counters).to.include({ visitorId: 1, player: 3, timedtext: 3 });
  });

  it('token-bound caption URLs only, with the stall on: decided from the URL, no timed-text request, so no stall is waited', async () => {
    for (const c of DEFAULT_CLIENTS) crawler.fake.scenario.clientTrouble(c, 'xpv');
    crawler.fake.scenario.timedTextStall(60_000);
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'stalltoken', count: 3, seed: 64, captionsMix: { manual: 1 } }));
    expect(await crawl(ch)).to.equal('ok');
    expect(await states(ch)).to.deep.equal(ch.videos.map(() => 'no_transcript'));
    expect(crawler.fake.counters.timedtext).to.equal(0);
  });

  it('every timed-text request stalling: the first one ends at PLATFORM_TIMED_TEXT_TIMEOUT_MS as a refusal and the run stops, not one wait per video', async () => {
    crawler.fake.scenario.timedTextStall(60_000, 'all');
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'stallall', count: 20, seed: 65, captionsMix: { manual: 1 } }));
    expect(await crawl(ch, { PLATFORM_TIMED_TEXT_TIMEOUT_MS: '300' })).to.equal('blocked');
    expect(await states(ch)).not.to.include('ready');
    // A fixed few stalls (the blocked path's budget of DEFAULT_MAX_BLOCKS per run), not twenty.
    expect(crawler.fake.counters.timedtext).to.be.within(1, DEFAULT_MAX_BLOCKS);
    const reasons = crawler.blockedWarnings().map((w) => w.reason).filter((r) => r !== undefined).map(String);
    expect(reasons.length).to.be.greaterThan(0);
    expect(reasons.every((r) => /timed text stalled: no answer within 300 ms/.test(r)), reasons.join('\n')).to.equal(true);
  });
});
