// `lang` evicted and amplified: only the four most recently asked languages were fetched for new
// videos, so one request `lang=xaa,xab,xac,xad` from another key made the next upload arrive
// without Turkish for a `lang=tr` reader, and a language asked later waited for the channel's
// next scheduled listing. Now a channel keeps every language asked within 30 days, chosen round by
// round over keys (one key's codes fill only its own rounds), a code the player answer does not
// offer costs no request, and a language new to the channel makes it awaited by that key: its
// stored videos are backfilled in the key's turn. The real API and crawler processes on one SQLite
// file, the crawler against the fake platform over HTTP.

import { expect } from 'chai';
import { startFakePlatform, type FakePlatform } from '../fake-platform';
import { makeChannel } from '../fake-platform/data';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { waitFor } from '../support/poll';
import { startCrawlerProcess, type CrawlerProcess } from '../crawler/support/crawler-process';

const READER = 'languages-reader-key-0001';
const OTHER = 'languages-other-key-00002';

interface JsonItem {
  id: string;
  content_html: string;
}

describe('languages kept for every reader, backfilled when new', function () {
  this.timeout(180_000);
  let fake: FakePlatform;
  let api: ApiProcess;
  let crawler: CrawlerProcess;

  before(async () => {
    fake = await startFakePlatform({ channels: [] });
    api = await startApiProcess({ keys: { [READER]: { name: 'reader', rate_limit: 1000 }, [OTHER]: { name: 'other', rate_limit: 1000 } } });
    crawler = startCrawlerProcess(api.dir, { DATABASE_URL: `sqlite:${api.dir}/feeds.db`, PLATFORM_BASE_URL: fake.url });
  });
  after(async () => {
    await crawler?.kill('SIGKILL');
    await api?.stop();
    await fake?.close();
  });

  const feed = (channelId: string, key: string, lang: string): Promise<Response> =>
    fetch(`${api.base}/?channel_id=${channelId}&format=Json&lang=${lang}`, { headers: { 'X-API-Key': key } });
  const items = async (channelId: string, key: string, lang: string): Promise<JsonItem[]> => {
    const res = await feed(channelId, key, lang);
    expect(res.status, lang).to.equal(200);
    return ((await res.json()) as { items: JsonItem[] }).items;
  };
  const runsEnded = (channelId: string): number => crawler.logs.filter((l) => l.msg === 'run ended' && l.channelId === channelId).length;
  const nextRun = async (channelId: string, before: number): Promise<void> => {
    await waitFor('the next run to end', () => (runsEnded(channelId) > before ? true : undefined), 60_000, 100);
  };
  const turkish = (item: JsonItem): boolean => item.content_html.includes('Turkish (tr), machine-translated captions');
  const german = (item: JsonItem): boolean => item.content_html.includes('German (de), machine-translated captions');

  it('another key\'s made-up codes cost no request and do not make the next upload arrive without Turkish; a language asked later is backfilled', async () => {
    const channel = fake.addChannel(makeChannel({ handle: 'englishtalks', count: 3, captionsMix: { manual: 1 } }));
    const { channelId } = channel;
    expect((await feed(channelId, READER, 'tr')).status).to.equal(404);
    await waitFor('the first crawl', async () => ((await feed(channelId, READER, 'tr')).status === 200 ? true : undefined), 60_000, 200);
    expect((await items(channelId, READER, 'tr')).every(turkish), 'Turkish from the first crawl').to.equal(true);

    // Another key asks for four codes the platform offers for no video: new to the channel, they
    // make it awaited, but the stored answers say no video offers them: no request at all.
    let runs = runsEnded(channelId);
    fake.resetCounters();
    expect((await feed(channelId, OTHER, 'xaa,xab,xac,xad')).status).to.equal(200);
    await nextRun(channelId, runs);
    expect({ player: fake.counters.player, timedtext: fake.counters.timedtext }, 'nothing asked for the made-up codes').to.deep.equal({ player: 0, timedtext: 0 });

    // The next upload still arrives with Turkish.
    const upload = fake.addUpload(channelId, { captions: 'manual' });
    runs = runsEnded(channelId);
    expect(await api.store.makeChannelDue(channelId, new Date())).to.equal(true);
    await nextRun(channelId, runs);
    const afterUpload = await items(channelId, READER, 'tr');
    expect(afterUpload[0]!.id).to.equal(upload.videoId);
    expect(turkish(afterUpload[0]!), 'the new upload in Turkish').to.equal(true);

    // German, asked for now, is fetched for every stored video in the reader's turn, without
    // waiting for the channel's next listing.
    runs = runsEnded(channelId);
    expect((await feed(channelId, READER, 'de')).status).to.equal(200);
    await nextRun(channelId, runs);
    const inGerman = await items(channelId, READER, 'de');
    expect(inGerman.map((i) => i.id)).to.include(upload.videoId);
    expect(inGerman.every(german), 'every stored video in German').to.equal(true);
    expect((await items(channelId, READER, 'tr')).every(turkish), 'and still in Turkish').to.equal(true);
  });
});
