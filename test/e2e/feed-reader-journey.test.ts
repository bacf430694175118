// The whole product as a feed reader meets it: both compiled processes started as separate OS
// processes with real environment variables (as PM2 starts them), the fake platform on loopback,
// a real store: a SQLite file, and again a MongoDB database (on the project's emulator, or the real
// server MONGODB_URI names). First request 404, retry, 200; Atom and RSS; max_items growth; a new upload
// appearing after the scheduled refresh; both processes stopped with SIGTERM, exiting 0.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { makeChannel, startFakePlatform, type FakePlatform } from '../fake-platform';
import { mongoTestDatabase } from '../support/mongo-emulator';
import type { Started } from '../support/processes';
import { startServicePair, type ServicePair } from '../support/service-pair';
import { waitFor } from '../support/poll';

const KEY = 'e2e-key-0123456789abcdef';
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

function asArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

for (const backend of ['sqlite', 'mongodb'] as const) describe(`end to end on ${backend}: a feed reader subscribes to a channel`, function () {
  this.timeout(180000);
  let pair: ServicePair | undefined;
  let mongo: Awaited<ReturnType<typeof mongoTestDatabase>> | null = null;
  let fake: FakePlatform;
  let api: Started;
  let crawler: Started;
  let base: string;
  const channel = makeChannel({ handle: 'e2etalks', title: 'E2E Talks', count: 60, seed: 7, captionsMix: { manual: 3, automatic: 1 } });

  before(async () => {
    fake = await startFakePlatform({ channels: [channel] });
    if (backend === 'mongodb') mongo = await mongoTestDatabase();
    pair = await startServicePair({ prefix: 'tf-e2e-', key: KEY, keyName: 'e2e reader', platformUrl: fake.url, databaseUrl: mongo?.url });
    ({ api, crawler, base } = pair);
  });

  after(async () => {
    await pair?.kill();
    await fake?.close();
    await mongo?.drop();
  });

  const feed = (query: string) => fetch(`${base}/?${query}`, { headers: { 'X-API-Key': KEY } });

  it('answers 404 at first, then 200 with entries once the crawler stored a batch', async () => {
    const first = await feed('channel=@e2etalks');
    expect(first.status).to.equal(404);
    const body = (await first.json()) as Record<string, unknown>;
    expect(body.channel_id).to.equal(channel.channelId);
    expect(body.error).to.be.a('string');

    const ok = await waitFor('a 200 feed', async () => {
      const res = await feed('channel=@e2etalks');
      return res.status === 200 ? res : undefined;
    }, 60000, 500);
    expect(ok.headers.get('content-type')).to.match(/^application\/atom\+xml/);
    const doc = xml.parse(await ok.text()) as { feed: { id: string; entry: unknown } };
    expect(doc.feed.id).to.equal(channel.channelId);
    expect(asArray(doc.feed.entry).length).to.be.greaterThan(0);
  });

  it('serves the newest 10 as Atom and as RSS, transcripts included', async () => {
    const atom = await waitFor('10 Atom entries', async () => {
      const d = xml.parse(await (await feed('channel_id=' + channel.channelId)).text()) as { feed: { entry: unknown } };
      const entries = asArray(d.feed.entry) as { id: string; content: { '#text': string } }[];
      return entries.length === 10 ? entries : undefined;
    }, 60000, 500);
    const newest = channel.videos.filter((v) => !v.short).slice(0, 10).map((v) => v.videoId);
    expect(atom.map((e) => e.id)).to.deep.equal(newest.slice(0, atom.length));
    expect(atom[0]!.content['#text']).to.match(/^<p>/);

    const rssRes = await feed(`channel_url=${encodeURIComponent(`https://www.youtube.com/channel/${channel.channelId}`)}&format=Rss`);
    expect(rssRes.status).to.equal(200);
    expect(rssRes.headers.get('content-type')).to.match(/^application\/rss\+xml/);
    const rss = xml.parse(await rssRes.text()) as { rss: { channel: { item: unknown } } };
    const items = asArray(rss.rss.channel.item) as { link: string }[];
    expect(items).to.have.length(10);
    expect(items[0]!.link).to.equal(`https://youtube.com/watch?v=${newest[0]}`);
  });

  it('grows from 10 to 50 entries when a reader asks for max_items=50', async () => {
    const entries = await waitFor('50 entries', async () => {
      const d = xml.parse(await (await feed(`channel_id=${channel.channelId}&max_items=50`)).text()) as { feed: { entry: unknown } };
      const n = asArray(d.feed.entry).length;
      return n === 50 ? n : undefined;
    }, 90000, 500);
    expect(entries).to.equal(50);
  });

  it('shows a new upload after the scheduled refresh', async () => {
    const upload = fake.addUpload(channel.channelId, { title: 'Brand new upload & more <live>' });
    const d = await waitFor('the new upload in the feed', async () => {
      const doc = xml.parse(await (await feed(`channel_id=${channel.channelId}`)).text()) as { feed: { entry: unknown } };
      const first = asArray(doc.feed.entry)[0] as { id: string; title: string } | undefined;
      return first?.id === upload.videoId ? first : undefined;
    }, 60000, 500);
    expect(d.title).to.equal('Brand new upload & more <live>');
  });

  it('stops both processes cleanly on SIGTERM (exit code 0)', async () => {
    const [a, c] = await Promise.all([api.stop('SIGTERM'), crawler.stop('SIGTERM')]);
    expect(a, `api stderr: ${api.stderr.join('')}`).to.deep.equal({ code: 0, signal: null });
    expect(c, `crawler stderr: ${crawler.stderr.join('')}`).to.deep.equal({ code: 0, signal: null });
    const keyInLogs = [...api.logs, ...crawler.logs].some((l) => JSON.stringify(l).includes(KEY));
    expect(keyInLogs, 'the API key must never reach a log line').to.equal(false);
  });
});
