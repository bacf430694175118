// How a run lists its channel, over a real SQLite store and a scripted platform, each run claimed
// and released as the scheduler does (the release keeps what the stored videos cover): the feed
// alone when it can vouch for the wanted window, a full listing when it cannot, and stored retries
// either way. The same over real HTTP against the fake platform is in fake-platform.test.ts.

import { expect } from 'chai';
import { runChannel, type ChannelRunResult } from '../../crawler/channel-run';
import { FULL_COVERAGE, coverageAfter, deepListingReason } from '../../crawler/listing-plan';
import { PROFILES } from '../../shared/config/crawl-profile';
import { silentLogger } from '../../shared/logger';
import { PlatformError, type ChannelListing } from '../../shared/platform/types';
import { windowOf } from '../../shared/platform/window';
import { FakeTiming } from './support/fake-timing';
import { ScriptedPlatform, makeVideos, type ScriptedVideo } from './support/scripted-platform';
import { tempStore, type TempStore } from '../support/temp-store';

const CH = 'UCcrawlerlistingtest0001';
const HOUR = 3_600_000;

describe('crawler channel listing', () => {
  let ts: TempStore;
  let events: string[];
  let timing: FakeTiming;

  beforeEach(async () => {
    ts = await tempStore();
    events = [];
    timing = new FakeTiming(events);
  });
  afterEach(async () => ts.cleanup());

  /** One run as the scheduler makes it: register (max_items), claim, run, release with the coverage. */
  async function crawl(platform: ScriptedPlatform, wanted: number, signal = new AbortController().signal): Promise<ChannelRunResult> {
    await ts.store.registerChannel({ channelId: CH, wanted }, timing.now());
    const claimed = await ts.store.claimDueChannel('test', 60_000, timing.now());
    if (!claimed) throw new Error('channel not due');
    const deps = { store: ts.store, platform, unblockers: [], profile: PROFILES.fast, timing, logger: silentLogger() };
    const result = await runChannel(deps, claimed, signal);
    await ts.store.releaseChannel(CH, 'test', {
      nextDueAt: timing.now(), outcome: result.outcome, consecutiveFailures: 0, coveredWanted: result.coveredWanted,
    }, timing.now());
    return result;
  }
  /** Platform calls of the run `run` (events logged while it ran). */
  async function callsOf(run: () => Promise<unknown>): Promise<string[]> {
    const before = events.length;
    await run();
    return events.slice(before).filter((e) => !e.startsWith('sleep:'));
  }
  const uploads = (n: number, prefix: string): ScriptedVideo[] =>
    Array.from({ length: n }, (_, i) => {
      const at = new Date(timing.now().getTime() + (n - i) * 60_000);
      return { videoId: `${prefix}${String(i).padStart(2, '0')}`, title: `${prefix} ${i}`, listedAt: at, watchDate: at };
    });
  const transcripts = (calls: string[]): string[] => calls.filter((e) => e.startsWith('transcript:')).map((e) => e.slice('transcript:'.length));
  const storedCount = async (platform: ScriptedPlatform, n: number): Promise<number> =>
    (await ts.store.getVideos(platform.videos.slice(0, n).map((v) => v.videoId))).length;

  it('learns that an unchanged channel (wanted 40) has nothing new from the feed alone', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    const first = await callsOf(() => crawl(platform, 40));
    expect(first.slice(0, 2), 'a first crawl lists in full, browse first (the feed inside it)').to.deep.equal([`deep:${CH}`, 'transcript:v000']);
    expect(transcripts(first)).to.have.length(40);
    expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(40);

    for (let refresh = 0; refresh < 3; refresh += 1) {
      let result: ChannelRunResult | null = null;
      expect(await callsOf(async () => (result = await crawl(platform, 40)))).to.deep.equal([`list:${CH}`]);
      expect(result).to.deep.include({ outcome: 'ok', listing: 'feed', pending: 0, coveredWanted: 40 });
    }
  });

  it('fetches new uploads found in the feed with no other listing request, and keeps the coverage', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await crawl(platform, 40);
    const fresh = uploads(5, 'new');
    platform.videos = [...fresh, ...platform.videos];
    const calls = await callsOf(() => crawl(platform, 40));
    expect(calls).to.deep.equal([`list:${CH}`, ...fresh.map((v) => `transcript:${v.videoId}`)]);
    expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(40);
    expect(await storedCount(platform, 40)).to.equal(40);
  });

  it('lists in full when more uploads are new than the feed holds', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await crawl(platform, 40);
    platform.videos = [...uploads(16, 'burst'), ...platform.videos];
    const calls = await callsOf(() => crawl(platform, 40));
    expect(calls.slice(0, 2)).to.deep.equal([`list:${CH}`, `deep:${CH}`]);
    expect(transcripts(calls)).to.have.length(16);
    expect(await storedCount(platform, 40)).to.equal(40);
  });

  it('lists in full when wanted grows, and fills a gap a burst left while wanted was small', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await crawl(platform, 10);
    for (const prefix of ['a', 'b']) {
      platform.videos = [...uploads(5, prefix), ...platform.videos];
      await crawl(platform, 10);
    }
    // 20 uploads between two refreshes: the feed shows the newest 15, all new, and wanted 10 takes
    // only their newest 10, leaving a gap of 10 below them.
    platform.videos = [...uploads(20, 'burst'), ...platform.videos];
    expect(await callsOf(() => crawl(platform, 10))).to.deep.equal([`list:${CH}`, ...platform.videos.slice(0, 10).map((v) => `transcript:${v.videoId}`)]);
    expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(10);

    // 30 stored and 5 unstored in the feed would "cover" wanted 30 by count; the gap says otherwise.
    const calls = await callsOf(() => crawl(platform, 30));
    expect(calls.slice(0, 2)).to.deep.equal([`list:${CH}`, `deep:${CH}`]);
    expect(transcripts(calls), 'the gap, and nothing stored before').to.deep.equal(platform.videos.slice(10, 20).map((v) => v.videoId));
    expect(await storedCount(platform, 30)).to.equal(30);
  });

  it('lists a channel with fewer videos than wanted in full once, then trusts the feed', async () => {
    const platform = new ScriptedPlatform(makeVideos(20), events);
    const first = await crawl(platform, 40);
    expect(first).to.deep.include({ listing: 'deep', listed: 20, coveredWanted: FULL_COVERAGE });
    expect(await callsOf(() => crawl(platform, 40))).to.deep.equal([`list:${CH}`]);
    // A larger wanted cannot find more: still the feed alone.
    expect(await callsOf(() => crawl(platform, 100))).to.deep.equal([`list:${CH}`]);
  });

  it('falls back to a full listing during a feed outage, without asking for the feed twice', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await crawl(platform, 40);
    platform.feedOutage = true;
    const fresh = uploads(2, 'new');
    platform.videos = [...fresh, ...platform.videos];
    const calls = await callsOf(() => crawl(platform, 40));
    expect(calls).to.deep.equal([`list:${CH}`, `deep:${CH}`, ...fresh.map((v) => `transcript:${v.videoId}`)]);
    platform.feedOutage = false;
    expect(await callsOf(() => crawl(platform, 40))).to.deep.equal([`list:${CH}`]);
  });

  it('after a run cut short, lists in full again and finishes the work', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    const stop = new AbortController();
    platform.onTranscript = (id) => {
      if (id === 'v025') stop.abort();
    };
    expect(await crawl(platform, 40, stop.signal)).to.deep.include({ outcome: 'stopped', coveredWanted: null });
    platform.onTranscript = null;
    const calls = await callsOf(() => crawl(platform, 40));
    expect(calls.slice(0, 2)).to.deep.equal([`list:${CH}`, `deep:${CH}`]);
    expect(transcripts(calls)).to.deep.equal(platform.videos.slice(26, 40).map((v) => v.videoId));
    expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(40);
  });

  it('a failed listing changes nothing: the coverage stays', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    await crawl(platform, 40);
    platform.listScript = [new PlatformError('transient', 'HTTP 502')];
    expect(await crawl(platform, 40)).to.deep.include({ outcome: 'error', coveredWanted: 40 });
    expect(await callsOf(() => crawl(platform, 40))).to.deep.equal([`list:${CH}`]);
  });

  it('retries stored videos that are due from the store, beyond the feed, within the wanted window', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    platform.transcriptScript.set('v030', [new PlatformError('no_captions', 'no captions')]);
    platform.transcriptScript.set('v003', [new PlatformError('transient', 'HTTP 503')]);
    await crawl(platform, 40);
    expect(await callsOf(() => crawl(platform, 40)), 'not due yet').to.deep.equal([`list:${CH}`]);

    timing.advance(HOUR);
    const calls = await callsOf(() => crawl(platform, 40));
    expect(calls).to.deep.equal([`list:${CH}`, 'transcript:v003', 'transcript:v030']);
    const rows = await ts.store.getVideos(['v003', 'v030']);
    expect(rows.map((r) => [r.videoId, r.state, r.attempts])).to.deep.equal([['v003', 'ready', 2], ['v030', 'ready', 2]]);
  });

  it('does not retry a stored video that new uploads pushed out of the wanted window', async () => {
    const platform = new ScriptedPlatform(makeVideos(60), events);
    platform.transcriptScript.set('v039', [new PlatformError('no_captions', 'no captions')]);
    await crawl(platform, 40);
    platform.videos = [...uploads(3, 'new'), ...platform.videos];
    timing.advance(HOUR);
    expect(transcripts(await callsOf(() => crawl(platform, 40)))).to.deep.equal(['new00', 'new01', 'new02']);
  });

  describe('on a channel whose newest uploads include Shorts', () => {
    /** 60 videos, newest first; v001, v003, v004 and v007 are Shorts (all inside the feed's 15). */
    const withShorts = (): ScriptedVideo[] => makeVideos(60).map((v) => (['v001', 'v003', 'v004', 'v007'].includes(v.videoId) ? { ...v, short: true } : v));
    const ids = (from: number, to: number): string[] => makeVideos(60).slice(from, to).map((v) => v.videoId);

    it('keeps the newest `wanted` regular uploads and the Shorts among them, so a default feed is full', async () => {
      const platform = new ScriptedPlatform(withShorts(), events);
      // The feed holds 11 regular videos: enough to vouch for wanted 10 on its own.
      const first = await callsOf(() => crawl(platform, 10));
      expect(first.filter((e) => !e.startsWith('transcript:')), 'a first crawl lists in full, browse first').to.deep.equal([`deep:${CH}`]);
      expect(transcripts(first), '10 regular videos and the 4 Shorts among them').to.deep.equal(ids(0, 14));
      expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(10);

      const regular = await ts.store.listFeedEntries(CH, 10);
      expect(regular.map((r) => r.videoId)).to.deep.equal(ids(0, 14).filter((id) => !['v001', 'v003', 'v004', 'v007'].includes(id)));
      const mixed = await ts.store.listFeedEntries(CH, 10, ['regular', 'short']);
      expect(mixed.map((r) => r.videoId), 'a feed with Shorts finds its newest 10 inside the window').to.deep.equal(ids(0, 10));

      expect(await callsOf(() => crawl(platform, 10)), 'an unchanged channel still costs one request').to.deep.equal([`list:${CH}`]);
    });

    it('lists in full when the feed holds fewer regular videos than wanted, though more entries', async () => {
      const platform = new ScriptedPlatform(withShorts(), events);
      await crawl(platform, 10);
      // 12 wanted: the feed's 15 entries hold only 11 regular videos.
      const calls = await callsOf(() => crawl(platform, 12));
      expect(calls).to.deep.equal([`list:${CH}`, `deep:${CH}`, ...ids(14, 16).map((id) => `transcript:${id}`)]);
      expect((await ts.store.getChannel(CH))!.coveredWanted).to.equal(12);
      expect(await callsOf(() => crawl(platform, 12))).to.deep.equal([`list:${CH}`]);
    });

    it('counts its coverage in regular videos, so a larger wanted is not trusted to a store that lacks it', async () => {
      const platform = new ScriptedPlatform(withShorts(), events);
      const first = await crawl(platform, 20);
      // 20 regular videos and 4 Shorts: 24 entries, but a coverage of 20 regular videos.
      expect(first).to.deep.include({ listing: 'deep', listed: 24, coveredWanted: 20 });
      // Had it counted the 24 entries, wanted 24 would trust the feed and miss v024–v027.
      const calls = await callsOf(() => crawl(platform, 24));
      expect(calls).to.deep.equal([`list:${CH}`, `deep:${CH}`, ...ids(24, 28).map((id) => `transcript:${id}`)]);
      expect(await storedCount(platform, 28)).to.equal(28);
      expect(await callsOf(() => crawl(platform, 24))).to.deep.equal([`list:${CH}`]);
    });
  });
});

describe('crawler listing plan', () => {
  const feedOf = (ids: string[], complete = false): ChannelListing => ({
    channelId: CH, title: null, complete, videos: ids.map((videoId) => ({ videoId, title: videoId, publishedAt: new Date(0) })),
  });
  const fifteen = Array.from({ length: 15 }, (_, i) => `f${i}`);
  const stored = (...ids: string[]) => new Set(ids);

  it('trusts the feed for a window it holds, or a whole channel, whatever is stored', () => {
    expect(deepListingReason(15, feedOf(fifteen), stored(), null)).to.equal(null);
    expect(deepListingReason(40, feedOf(['a', 'b'], true), stored(), null)).to.equal(null);
  });

  it('lists in full when the feed failed, shows no stored entry, or the coverage is short or unknown', () => {
    expect(deepListingReason(16, null, stored(), 100)).to.match(/feed failed/);
    expect(deepListingReason(40, feedOf(fifteen), stored(), 40)).to.match(/no feed entry is stored/);
    expect(deepListingReason(40, feedOf(fifteen), stored('f14'), null)).to.match(/not known/);
    expect(deepListingReason(40, feedOf(fifteen), stored('f14'), 25)).to.equal('wanted grew from 25 to 40');
    expect(deepListingReason(40, feedOf(fifteen), stored('f14'), 40)).to.equal(null);
  });

  it('computes what the store covers after the run', () => {
    const cut = (feed: ChannelListing, n: number): ChannelListing => ({ ...feed, videos: feed.videos.slice(0, n), complete: false });
    const feed = feedOf(fifteen);
    // Full listings: their length, or everything once they reached the channel's end.
    expect(coverageAfter(feedOf(['a', 'b', 'c']), true, feed, stored(), null)).to.equal(3);
    expect(coverageAfter(feedOf(['a', 'b', 'c'], true), true, null, stored(), null)).to.equal(FULL_COVERAGE);
    // The feed alone, overlapping what is stored: new uploads on top extend the earlier coverage.
    expect(coverageAfter(feed, false, feed, stored('f3'), 40)).to.equal(40);
    expect(coverageAfter(feed, false, feed, stored('f3'), null)).to.equal(15);
    // Unstored entries below the worked window are a gap: coverage ends above it.
    expect(coverageAfter(cut(feed, 10), false, feed, stored('f3'), 40)).to.equal(10);
    expect(coverageAfter(cut(feed, 10), false, feed, stored(...fifteen.slice(3)), 40)).to.equal(40);
    // No stored entry in the feed: only what was just stored is known to be contiguous.
    expect(coverageAfter(feed, false, feed, stored(), 40)).to.equal(15);
    // A whole channel in the feed, all of it worked: everything.
    const whole = feedOf(['a', 'b'], true);
    expect(coverageAfter(whole, false, whole, stored(), null)).to.equal(FULL_COVERAGE);
    expect(coverageAfter(cut(whole, 1), false, whole, stored(), null)).to.equal(1);
  });

  it('counts regular videos only: the feed vouches for as many as it holds, and coverage is of them', () => {
    // 15 entries, of which f1, f3, f4, f7 and f8 are Shorts: 10 regular videos.
    const shorts = new Set(['f1', 'f3', 'f4', 'f7', 'f8']);
    const feed: ChannelListing = { ...feedOf(fifteen), videos: feedOf(fifteen).videos.map((v) => (shorts.has(v.videoId) ? { ...v, short: true } : v)) };
    expect(deepListingReason(10, feed, stored(), null), 'the feed holds 10 regular videos').to.equal(null);
    expect(deepListingReason(11, feed, stored(), null)).to.match(/no feed entry is stored/);
    expect(deepListingReason(11, feed, stored('f14'), 10)).to.equal('wanted grew from 10 to 11');
    expect(deepListingReason(11, feed, stored('f14'), 11)).to.equal(null);

    const window = (n: number): ChannelListing => ({ ...feed, videos: windowOf(feed.videos, n) });
    expect(window(6).videos.map((v) => v.videoId)).to.deep.equal(fifteen.slice(0, 11));
    // The whole feed, deep or not: 10 regular videos, whatever the 15 entries.
    expect(coverageAfter(feed, true, feed, stored(), null)).to.equal(10);
    expect(coverageAfter(feed, false, feed, stored(), null)).to.equal(10);
    expect(coverageAfter({ ...feed, complete: true }, true, null, stored(), null)).to.equal(FULL_COVERAGE);
    // A window of 6 regular videos with unstored entries below it: the 6, not its 11 entries.
    expect(coverageAfter(window(6), false, feed, stored('f3'), 40)).to.equal(6);
    // Everything below stored, overlapping: the earlier coverage stands.
    expect(coverageAfter(window(6), false, feed, stored(...fifteen.slice(11)), 40)).to.equal(40);
  });
});
