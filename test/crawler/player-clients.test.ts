// The crawler in process against the fake platform with strict app identity on (an app-client
// player call without that app's User-Agent and a visitorData the fake issued to it gets the bot
// check): a fresh channel reaches a full feed; one client poisoned, xpv-only or unplayable while
// another works still stores every transcript without a blocked WARNING; every client refusing
// takes the blocked path (docs/crawler.md §3, §4).

import { expect } from 'chai';
import { request } from 'undici';
import { makeChannel, type FakeChannelSpec } from '../fake-platform';
import type { ClientTrouble } from '../fake-platform/scenarios';
import { crawlerOnFake } from './support/in-process-crawler';
import { DEFAULT_PLAYER_CLIENTS } from '../../shared/config/client-identities';

const DEFAULT_CLIENTS = DEFAULT_PLAYER_CLIENTS.split(',').map((c) => c.split(':')[0]!);

describe('crawler with several player clients, strict app identity (in process)', function () {
  this.timeout(60_000);
  const crawler = crawlerOnFake({ storePrefix: 'tf-clients-it-', onFake: (fake) => fake.scenario.strictIdentity(true) });
  const crawl = (ch: FakeChannelSpec, wanted: number) => crawler.crawl(ch, { wanted });

  it('a fresh channel (browse pages with wrapped continuationItemViewModel) reaches a full feed; one visitor_id serves the session', async () => {
    crawler.fake.scenario.continuationShape('wrapped');
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'strictfresh', count: 45, seed: 31, captionsMix: { manual: 1 } }));
    expect(await crawl(ch, 45)).to.equal('ok');
    const feed = await crawler.ts.store.listFeedEntries(ch.channelId, 100);
    expect(feed.map((e) => e.videoId)).to.deep.equal(ch.videos.map((v) => v.videoId));
    feed.forEach((e, i) => expect(e.publishedAt.toISOString()).to.equal(ch.videos[i]!.publishedAt.toISOString()));
    expect(crawler.fake.counters).to.include({ visitorId: 1, browseContinuation: 1, timedtext: 45, watch: 0 });
    expect(crawler.blockedWarnings()).to.deep.equal([]);
  });

  for (const trouble of ['poisoned', 'xpv', 'unplayable', 'captchaViewModel'] as ClientTrouble[]) {
    it(`VISIONOS ${trouble} on every video while ANDROID, named next, works: every transcript stored, no blocked WARNING`, async () => {
      crawler.fake.scenario.clientTrouble('VISIONOS', trouble);
      const ch = crawler.fake.addChannel(makeChannel({ handle: `trouble${trouble.toLowerCase()}`, count: 8, seed: 32, captionsMix: { manual: 0.5, automatic: 0.5 } }));
      expect(await crawler.crawl(ch, { wanted: 8, env: { PLAYER_CLIENTS: 'VISIONOS,ANDROID' } })).to.equal('ok');
      const rows = await crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId));
      expect(rows.map((r) => r.state)).to.deep.equal(ch.videos.map(() => 'ready'));
      expect(crawler.blockedWarnings()).to.deep.equal([]);
      // Each video asked both clients; ANDROID's timed text served all, none of VISIONOS's was fetched.
      // A captcha retires VISIONOS's session each time (a new visitor_id per video); the other
      // troubles are the client's, and its one session stays.
      expect(crawler.fake.counters).to.include({ player: 16, timedtext: 8, visitorId: trouble === 'captchaViewModel' ? 1 + 8 : 2 });
    });
  }

  it('every client offering only token-bound caption URLs is no transcript for now (browser off), not a block', async () => {
    for (const c of DEFAULT_CLIENTS) crawler.fake.scenario.clientTrouble(c, 'xpv');
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'alltokenbound', count: 3, seed: 35, captionsMix: { manual: 1 } }));
    expect(await crawl(ch, 3)).to.equal('ok');
    const rows = await crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId));
    expect(rows.map((r) => r.state)).to.deep.equal(ch.videos.map(() => 'no_transcript'));
    expect(rows.every((r) => /proof-of-origin token/.test(r.lastError ?? ''))).to.equal(true);
    // No token-bound caption URL was fetched, and nothing took the blocked path.
    expect(crawler.fake.counters).to.include({ timedtext: 0 });
    expect(crawler.blockedWarnings()).to.deep.equal([]);
  });

  it('every client refusing (bot check on every default client) takes the blocked path: WARNINGs, run ends blocked, nothing stored as ready', async () => {
    for (const c of DEFAULT_CLIENTS) crawler.fake.scenario.clientTrouble(c, 'botCheck');
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'allrefuse', count: 5, seed: 33, captionsMix: { manual: 1 } }));
    expect(await crawl(ch, 5)).to.equal('blocked');
    // The blocked path's WARNINGs name every client's refusal; the run's end is a WARNING too.
    const reasons = crawler.blockedWarnings().map((w) => w.reason).filter((r) => r !== undefined);
    expect(reasons.length).to.be.greaterThan(0);
    const everyClient = new RegExp(`every player client refused \\(${DEFAULT_CLIENTS.map((c) => `${c}: bot check`).join('.*; ')}`);
    expect(reasons.every((r) => everyClient.test(String(r))), reasons.map(String).join('\n')).to.equal(true);
    const rows = await crawler.ts.store.getVideos(ch.videos.map((v) => v.videoId));
    expect(rows.filter((r) => r.state === 'ready')).to.deep.equal([]);
  });

  it('an impostor is refused: an app client with a browser User-Agent or without visitorData gets the bot check', async () => {
    const ch = crawler.fake.addChannel(makeChannel({ handle: 'impostor', count: 1, seed: 34, captionsMix: { manual: 1 } }));
    const videoId = ch.videos[0]!.videoId;
    // undici's request() sends exactly these headers (fetch() would add Sec-Fetch-Mode).
    const ask = async (headers: Record<string, string>, client: Record<string, unknown>) => {
      const res = await request(`${crawler.fake.url}/youtubei/v1/player?prettyPrint=false`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ context: { client: { clientName: 'ANDROID', clientVersion: '21.03.36', ...client } }, videoId }),
      });
      return ((await res.body.json()) as { playabilityStatus: { status: string } }).playabilityStatus.status;
    };
    const issued = await fetch(`${crawler.fake.url}/youtubei/v1/visitor_id?prettyPrint=false`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ context: { client: { clientName: 'ANDROID', clientVersion: '21.03.36' } } }),
    });
    const visitorData = ((await issued.json()) as { responseContext: { visitorData: string } }).responseContext.visitorData;
    const app = 'com.google.android.youtube/21.03.36 (Linux; U; Android 15; GB) gzip';
    expect(await ask({ 'user-agent': app, 'x-goog-visitor-id': visitorData }, { visitorData })).to.equal('OK');
    expect(await ask({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/148.0.0.0', 'x-goog-visitor-id': visitorData }, { visitorData })).to.equal('LOGIN_REQUIRED');
    expect(await ask({ 'user-agent': app }, {})).to.equal('LOGIN_REQUIRED');
    expect(await ask({ 'user-agent': app, 'x-goog-visitor-id': visitorData, 'sec-fetch-mode': 'cors' }, { visitorData })).to.equal('LOGIN_REQUIRED');
  });
});
