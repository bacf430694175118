// Every flow of the platform client over real HTTP against the fake platform (test/fake-platform),
// counting what each costs with the fake's per-endpoint counters, and every signal row of
// docs/crawler.md §4 as the client sees it.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { createPlatformClient, PlatformError, type PlatformClientOptions, type PlatformSession } from '../../shared/platform';
import { parseTimedText } from '../../shared/transcript/timedtext';
import { asrStyle, startFakePlatform, type FakePlatform } from '../fake-platform';
import { platformConfig } from './support';
import type { PlatformConfig } from '../../shared/platform';
import { feedHtmlOf } from '../support/factories';
import { BIG, CUES, MID, MIXED, SMALL, spokenHtml, textOfCues, textOfHtml } from '../support/flow-channels';

describe('platform client flows against the fake platform', function () {
  let fake: FakePlatform;
  const clientFor = (over: Partial<PlatformConfig> = {}, opts: PlatformClientOptions = {}): PlatformSession =>
    createPlatformClient(platformConfig(fake.url, { platformTimeoutMs: 3000, ...over }), silentLogger(), opts);

  before(async () => {
    fake = await startFakePlatform({ channels: [SMALL, BIG, MIXED, MID] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.clearScenarios();
    fake.resetCounters();
  });

  const failure = async (p: Promise<unknown>): Promise<PlatformError> => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err, 'expected a PlatformError').to.be.instanceOf(PlatformError);
    return err as PlatformError;
  };

  describe('handle → channel id', () => {
    it('resolves through resolve_url in one request, case-insensitively, with or without @', async () => {
      const c = clientFor();
      expect(await c.resolveHandle('smallchannel')).to.equal(SMALL.channelId);
      expect(await c.resolveHandle('@SmallChannel')).to.equal(SMALL.channelId);
      expect(fake.counters).to.include({ resolve: 2, handlePage: 0, total: 2 });
    });

    it('an unknown handle is null (HTTP 404), without trying the handle page', async () => {
      expect(await clientFor().resolveHandle('nobody-here')).to.equal(null);
      expect(fake.counters).to.include({ resolve: 1, total: 1 });
    });

    it('falls back to the handle page when resolve_url fails (5xx, malformed)', async () => {
      fake.scenario.serverError(1);
      expect(await clientFor().resolveHandle('bigchannel')).to.equal(BIG.channelId);
      fake.scenario.malformed(1);
      expect(await clientFor().resolveHandle('withshorts')).to.equal(MIXED.channelId);
      expect(fake.counters).to.include({ resolve: 2, handlePage: 2 });
    });

    it('a block is thrown, not turned into "unknown"', async () => {
      fake.scenario.block429({ requests: 1 });
      expect((await failure(clientFor().resolveHandle('bigchannel'))).outcome).to.equal('blocked');
    });
  });

  describe('listing', () => {
    it('≤ 15 videos of a channel whose feed works cost exactly 1 request, with exact dates, Shorts included', async () => {
      const listing = await clientFor().listVideos(SMALL.channelId, 10);
      expect(fake.counters).to.include({ feed: 1, total: 1 });
      expect(listing.title).to.equal('Small & Co');
      expect(listing.videos.map((v) => v.videoId)).to.deep.equal(SMALL.videos.map((v) => v.videoId));
      expect(listing.videos[0]).to.deep.equal({ videoId: 'manual00001', title: 'Video manual00001 & "more"', publishedAt: new Date('2026-07-10T10:00:00Z') });
      fake.resetCounters();
      const fifteen = await clientFor().listVideos(BIG.channelId, 15);
      expect(fifteen.videos).to.have.length(15);
      expect(fake.counters).to.include({ feed: 1, total: 1 });
    });

    it('more than 15: feed plus browse pages with continuations, newest first, dates only where the feed knows them', async () => {
      const listing = await clientFor().listVideos(BIG.channelId, 100);
      const expected = fake.channel(BIG.channelId)!.videos.slice(0, 100);
      expect(listing.videos.map((v) => v.videoId)).to.deep.equal(expected.map((v) => v.videoId));
      expect(listing.videos.map((v) => v.title)).to.deep.equal(expected.map((v) => v.title));
      listing.videos.slice(0, 15).forEach((v, i) => expect(v.publishedAt!.getTime()).to.equal(expected[i]!.publishedAt.getTime()));
      for (const v of listing.videos.slice(15)) expect(v.publishedAt).to.equal(null);
      // 100 of 120: the first page (30) and three continuations (120) — no more than needed.
      expect(fake.counters).to.include({ feed: 1, browse: 1, browseContinuation: 3 });
    });

    it('stops paging as soon as it has enough', async () => {
      await clientFor().listVideos(BIG.channelId, 25);
      expect(fake.counters).to.include({ feed: 1, browse: 1, browseContinuation: 0 });
    });

    it('a feed outage (404 or 500) means "use browse", not "empty channel"; dates stay null', async () => {
      for (const status of [404, 500]) {
        fake.scenario.feedOutage(status);
        const listing = await clientFor().listVideos(BIG.channelId, 10);
        expect(listing.videos.map((v) => v.videoId)).to.deep.equal(fake.channel(BIG.channelId)!.videos.slice(0, 10).map((v) => v.videoId));
        expect(listing.videos.every((v) => v.publishedAt === null)).to.equal(true);
        expect(listing.title).to.equal(BIG.title);
      }
    });

    it('merges a feed with Shorts and a Videos tab without them: every video once, newest first', async () => {
      const listing = await clientFor().listVideos(MIXED.channelId, 40);
      const all = fake.channel(MIXED.channelId)!.videos;
      const ids = listing.videos.map((v) => v.videoId);
      expect(new Set(ids).size).to.equal(ids.length);
      expect(ids.slice(0, 15)).to.deep.equal(all.slice(0, 15).map((v) => v.videoId));
      const rest = all.slice(15).filter((v) => !v.short).map((v) => v.videoId);
      expect(ids.slice(15)).to.deep.equal(rest.slice(0, ids.length - 15));
      // The window is 40 regular videos and the Shorts among them: those of the feed, as browse lists none.
      const shorts = all.slice(0, 15).filter((v) => v.short).map((v) => v.videoId);
      expect(shorts, 'the fixture puts Shorts in the feed').to.not.deep.equal([]);
      expect(listing.videos.filter((v) => v.short).map((v) => v.videoId)).to.deep.equal(shorts);
      // The channel's regular videos the listing can know: the feed's and the Videos tab's.
      const regularKnown = all.slice(0, 15).filter((v) => !v.short).length + rest.length;
      expect(ids).to.have.length(Math.min(40, regularKnown) + shorts.length);
      expect(listing.complete, 'fewer regular videos than asked: the whole channel').to.equal(regularKnown <= 40);
    });

    it('a channel that does not exist is not_found (feed 404, browse alerts)', async () => {
      const err = await failure(clientFor().listVideos('UCdoesnotexist0000000000', 10));
      expect(err.outcome).to.equal('not_found');
      expect(err.reason).to.include('does not exist');
    });

    it('a fresh upload appears on the next listing, still at 1 request', async () => {
      const c = clientFor();
      const before = await c.listVideos(BIG.channelId, 10);
      const upload = fake.addUpload(BIG.channelId, { captions: 'manual' });
      fake.resetCounters();
      const after = await c.listVideos(BIG.channelId, 10);
      expect(after.videos[0]!.videoId).to.equal(upload.videoId);
      expect(after.videos[1]!.videoId).to.equal(before.videos[0]!.videoId);
      expect(fake.counters.total).to.equal(1);
    });

    it('the feed alone is one request, complete only when shorter than its 15', async () => {
      const small = await clientFor().listFeed(SMALL.channelId);
      expect(small).to.deep.include({ channelId: SMALL.channelId, title: 'Small & Co', complete: true });
      expect(small!.videos.map((v) => v.videoId)).to.deep.equal(SMALL.videos.map((v) => v.videoId));
      const big = await clientFor().listFeed(BIG.channelId);
      expect(big).to.deep.include({ complete: false });
      // In seconds: the feed states no milliseconds (an upload added by an earlier test has some).
      const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);
      expect(big!.videos.map((v) => seconds(v.publishedAt!))).to.deep.equal(fake.channel(BIG.channelId)!.videos.slice(0, 15).map((v) => seconds(v.publishedAt)));
      expect(fake.counters).to.include({ feed: 2, total: 2 });
    });

    it('a feed outage makes listFeed answer null ("use browse"); a block is thrown', async () => {
      fake.scenario.feedOutage(500);
      expect(await clientFor().listFeed(BIG.channelId)).to.equal(null);
      fake.clearScenarios();
      fake.scenario.block429({ requests: 1 });
      expect((await failure(clientFor().listFeed(BIG.channelId))).outcome).to.equal('blocked');
    });

    it('a full listing reuses a feed answer it is given: no second feed request', async () => {
      const c = clientFor();
      const feed = await c.listFeed(BIG.channelId);
      fake.resetCounters();
      const listing = await c.listVideos(BIG.channelId, 40, feed);
      expect(fake.counters).to.include({ feed: 0, browse: 1, browseContinuation: 1, total: 2 });
      const expected = fake.channel(BIG.channelId)!.videos.slice(0, 40);
      expect(listing.videos.map((v) => v.videoId)).to.deep.equal(expected.map((v) => v.videoId));
      expect(listing.videos[0]!.publishedAt!.getTime(), 'the feed dates are kept').to.equal(Math.floor(expected[0]!.publishedAt.getTime() / 1000) * 1000);
      expect(listing.complete).to.equal(false);

      fake.resetCounters();
      const withoutFeed = await c.listVideos(BIG.channelId, 10, null);
      expect(fake.counters).to.include({ feed: 0, browse: 1, total: 1 });
      expect(withoutFeed.videos.every((v) => v.publishedAt === null), 'a failed feed: browse alone').to.equal(true);
    });

    it('a listing that reached the channel\'s end is complete', async () => {
      const all = await clientFor().listVideos(MID.channelId, 100);
      expect(all.complete).to.equal(true);
      expect(all.videos.length).to.be.within(15, 40);
      expect((await clientFor().listVideos(MID.channelId, 20)).complete, 'stopped short of the end').to.equal(false);
      expect((await clientFor().listVideos(SMALL.channelId, 100)).complete, 'a short feed is the whole channel').to.equal(true);
      expect((await clientFor().listVideos(SMALL.channelId, 3)).complete).to.equal(false);
    });

    it('reads the exact publish date from one field-masked WEB player call, never the watch page', async () => {
      const v = fake.channel(BIG.channelId)!.videos[40]!;
      expect((await clientFor().fetchPublishedAt(v.videoId))!.getTime()).to.equal(v.publishedAt.getTime());
      expect(fake.counters).to.include({ player: 1, watch: 0, total: 1 });
      // A gone video states no date: the masked answer lacks it, the unmasked one too.
      expect(await clientFor().fetchPublishedAt('removed0001')).to.equal(null);
      expect(fake.counters).to.include({ player: 3, watch: 0 });
    });

    it('a masked answer without the named fields is asked again unmasked', async () => {
      fake.scenario.brokenFieldMask(1);
      const v = fake.channel(BIG.channelId)!.videos[3]!;
      expect((await clientFor().fetchPublishedAt(v.videoId))!.getTime()).to.equal(v.publishedAt.getTime());
      expect(fake.counters.player).to.equal(2);
      fake.scenario.brokenFieldMask(1);
      expect(await clientFor().fetchTranscript('manual00001')).to.include({ kind: 'manual' });
      expect(fake.counters.player).to.equal(4);
    });
  });

  describe('transcripts', () => {
    it('manual track: 2 requests (player + timed text) plus the session\'s one visitor_id, every text escaped, paragraphs at pauses', async () => {
      const c = clientFor();
      const t = await c.fetchTranscript('manual00001');
      expect(t).to.include({ language: 'en', kind: 'manual', cueCount: 4 });
      expect(feedHtmlOf('manual00001', t)).to.equal(
        '<p><small>Transcript: English (en), manual captions</small></p>\n'
        + '<p><a href="https://youtube.com/watch?v=manual00001&amp;t=0s">0:00</a> It&#39;s simple &amp; quick. if x &lt; 10, stop Say &quot;hello&quot; now — done.</p>\n'
        + '<p><a href="https://youtube.com/watch?v=manual00001&amp;t=12s">0:12</a> After a pause.</p>',
      );
      expect(fake.counters).to.include({ visitorId: 1, player: 1, timedtext: 1, total: 3 });
      // The session's visitorData serves the next videos: 2 requests each.
      await c.fetchTranscript('bothkinds01');
      await c.fetchTranscript('automatic01');
      expect(fake.counters).to.include({ visitorId: 1, player: 3, timedtext: 3, total: 7 });
    });

    it('chooses manual over automatic, takes automatic when alone, falls back to the video\'s own language', async () => {
      const c = clientFor();
      expect(await c.fetchTranscript('bothkinds01')).to.include({ language: 'en', kind: 'manual' });
      const asr = await c.fetchTranscript('automatic01');
      expect(asr).to.include({ language: 'en', kind: 'automatic' });
      expect(textOfHtml(feedHtmlOf('automatic01', asr))).to.equal(textOfCues(asrStyle(CUES)));
      expect(await c.fetchTranscript('foreign0001')).to.include({ language: 'de', kind: 'manual' });
      expect(await clientFor({ transcriptLanguages: ['de', 'en'] }).fetchTranscript('foreign0001')).to.include({ language: 'de' });
    });

    it('a generated hour-long transcript arrives whole', async () => {
      const v = fake.channel(BIG.channelId)!.videos[3]!;
      const t = await clientFor().fetchTranscript(v.videoId);
      expect(textOfHtml(feedHtmlOf(v.videoId, t))).to.equal(textOfCues(v.cues!));
      expect(feedHtmlOf(v.videoId, t)).to.match(/^<p>[\s\S]*<\/p>$/);
      expect(spokenHtml(feedHtmlOf(v.videoId, t)).replace(/<\/?p>/g, '')).not.to.match(/[<>]/);
    });

    it('parses the fake\'s plain, srv3 and json3 bodies of one track to the same text', async () => {
      const player = (await (await fetch(`${fake.url}/youtubei/v1/player?prettyPrint=false`, {
        method: 'POST', body: JSON.stringify({ context: { client: { clientName: 'ANDROID', clientVersion: '20.10.38' } }, videoId: 'manual00001' }),
      })).json()) as { captions: { playerCaptionsTracklistRenderer: { captionTracks: { baseUrl: string }[] } } };
      const url = player.captions.playerCaptionsTracklistRenderer.captionTracks[0]!.baseUrl.replace(/&fmt=\w+/, '');
      const texts = new Map<string, string>();
      for (const fmt of ['', '&fmt=srv3', '&fmt=json3']) {
        const { format, cues } = parseTimedText(await (await fetch(url + fmt)).text());
        texts.set(format, cues.map((q) => q.text).filter(Boolean).join(' '));
      }
      expect([...texts.keys()]).to.deep.equal(['plain', 'srv3', 'json3']);
      expect(new Set(texts.values()).size, JSON.stringify([...texts])).to.equal(1);
      expect(texts.get('plain')).to.equal(textOfCues(CUES));
    });

    it('no captions: tries the next client, then no_captions', async () => {
      const err = await failure(clientFor().fetchTranscript('nocaptions1'));
      expect(err.outcome).to.equal('no_captions');
      expect(fake.counters).to.include({ player: 2, timedtext: 0 });
    });

    it('a client with exp=xpe caption URLs is skipped for the next; their URLs are never fetched', async () => {
      const c = clientFor({ playerClients: [{ name: 'WEB', version: '2.20260708.00.00' }, { name: 'VISIONOS', version: '1.02' }] });
      expect(await c.fetchTranscript('manual00001')).to.include({ kind: 'manual' });
      expect(fake.counters).to.include({ player: 2, timedtext: 1 });
      fake.resetCounters();
      const onlyWeb = clientFor({ playerClients: [{ name: 'WEB', version: '2.20260708.00.00' }] });
      expect((await failure(onlyWeb.fetchTranscript('manual00001'))).reason).to.include('exp=xpe');
      expect(fake.counters.timedtext).to.equal(0);
    });

    it('age restricted and removed videos are unavailable', async () => {
      expect((await failure(clientFor().fetchTranscript('agegated001'))).outcome).to.equal('unavailable');
      expect((await failure(clientFor().fetchTranscript('removed0001'))).outcome).to.equal('unavailable');
      expect(fake.counters.timedtext).to.equal(0);
    });

    it('a video id that is not one is refused without a platform request', async () => {
      for (const bad of ['short', '../../x?y=1', 'manual00001&v=x']) {
        expect((await failure(clientFor().fetchTranscript(bad))).outcome).to.equal('unavailable');
        expect((await failure(clientFor().fetchPublishedAt(bad))).outcome).to.equal('unavailable');
      }
      expect(fake.counters.total).to.equal(0);
    });
  });

  describe('signals of docs/crawler.md §4', () => {
    // Each signal given to every client asked (the two configured here), as an IP-wide one would be.
    const rows: [string, (f: FakePlatform) => void, string][] = [
      ['HTTP 429 window', (f) => f.scenario.block429({ requests: 5 }), 'blocked'],
      ['captcha page with 200', (f) => f.scenario.captcha(4), 'blocked'],
      ['bot check (LOGIN_REQUIRED, U+2019)', (f) => f.scenario.botCheck(2), 'blocked'],
      ['captcha view model (errorScreen.playerCaptchaViewModel)', (f) => f.scenario.captchaViewModel(2), 'blocked'],
      ['"try again later" player', (f) => f.scenario.rateLimitedPlayer(2), 'blocked'],
      ['poisoned player answers', (f) => f.scenario.poison(2), 'blocked'],
      ['empty timed text', (f) => f.scenario.emptyTimedText(1), 'blocked'],
      ['JavaScript challenge (plain clients cannot pass)', (f) => f.scenario.jsChallenge(true), 'blocked'],
      ['HTTP 5xx', (f) => f.scenario.serverError(4, 503), 'transient'],
      ['malformed JSON', (f) => f.scenario.malformed(4), 'transient'],
    ];
    for (const [name, set, outcome] of rows) {
      it(`${name} → ${outcome}`, async () => {
        set(fake);
        const err = await failure(clientFor().fetchTranscript('manual00001'));
        expect(err.outcome).to.equal(outcome);
        expect(err.reason).to.be.a('string').and.not.equal('');
      });
    }

    // The same signals from the first client only: judged together, the second client serves.
    const oneClient: [string, (f: FakePlatform) => void][] = [
      ['bot check', (f) => f.scenario.botCheck(1)],
      ['captcha view model', (f) => f.scenario.captchaViewModel(1)],
      ['"try again later"', (f) => f.scenario.rateLimitedPlayer(1)],
      ['poisoned answer', (f) => f.scenario.poison(1)],
      ['HTTP 5xx', (f) => f.scenario.serverError(1, 503)],
      ['malformed JSON', (f) => f.scenario.malformed(1)],
    ];
    for (const [name, set] of oneClient) {
      it(`${name} from the first client only → the next client serves the transcript`, async () => {
        set(fake);
        expect(await clientFor().fetchTranscript('manual00001')).to.include({ kind: 'manual' });
        expect(fake.counters.timedtext).to.equal(1);
      });
    }

    it('a slow answer past PLATFORM_TIMEOUT_MS → transient', async () => {
      fake.scenario.slow(1500);
      const err = await failure(clientFor({ platformTimeoutMs: 200 }).fetchTranscript('manual00001'));
      expect(err.outcome).to.equal('transient');
      expect(err.reason).to.include('timed out');
    });

    it('captcha on the date call → blocked', async () => {
      fake.scenario.captcha(1);
      expect((await failure(clientFor().fetchPublishedAt('manual00001'))).outcome).to.equal('blocked');
    });

    it('bot check on the date call → blocked', async () => {
      fake.scenario.botCheck(1);
      expect((await failure(clientFor().fetchPublishedAt('manual00001'))).outcome).to.equal('blocked');
    });

    // The handle page (after a resolve_url that answered garbage) is the HTML page a flow still loads.
    it('the consent cookie sent up front avoids the wall at no extra cost', async () => {
      fake.scenario.consentWall('page');
      fake.scenario.malformed(1);
      expect(await clientFor().resolveHandle('SmallChannel')).to.equal(SMALL.channelId);
      expect(fake.counters.handlePage).to.equal(1);
    });

    for (const mode of ['page', 'redirect'] as const) {
      it(`consent wall (${mode}) without the cookie: cookie set, one retry, then through`, async () => {
        fake.scenario.consentWall(mode);
        const c = clientFor({}, { consentUpFront: false });
        fake.scenario.malformed(1);
        expect(await c.resolveHandle('SmallChannel')).to.equal(SMALL.channelId);
        expect(fake.counters.handlePage).to.equal(2);
        fake.scenario.malformed(1);
        expect(await c.resolveHandle('bigchannel')).to.equal(BIG.channelId);
        expect(fake.counters.handlePage).to.equal(3);
      });
    }

    it('a blocked window ends and the same client goes on', async () => {
      fake.scenario.block429({ requests: 2 });
      const c = clientFor();
      expect((await failure(c.fetchTranscript('manual00001'))).outcome).to.equal('blocked');
      expect(await c.fetchTranscript('manual00001')).to.include({ kind: 'manual' });
    });
  });
});
