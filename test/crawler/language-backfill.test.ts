// Codes the platform offers for none of a channel's videos (`lang=qaa,…,qae`: no track, not among
// the translation languages) cost nothing on the stored videos: each stored answer lists what it
// offered, so a refresh asks the platform only for the new uploads. Before, each of the 10 stored
// videos was fetched again (player + its own timed text) and the refresh cost 24 such requests.
// The crawler in this process against the fake platform over HTTP, on a SQLite store.

import { expect } from 'chai';
import { makeChannel } from '../fake-platform/data';
import { until } from '../support/poll';
import { crawlerOnFake } from './support/in-process-crawler';

describe('language backfill asks only for what the stored answers offered', function () {
  this.timeout(60_000);
  const crawler = crawlerOnFake({ storePrefix: 'tf-lang-backfill-' });

  it('lang=qaa,qab,qac,qad,qae then a refresh adding 2 videos to 10 stored costs the 2 new ones only', async () => {
    const channel = crawler.fake.addChannel(makeChannel({ handle: 'unknowncodes', count: 10, captionsMix: { manual: 1 } }));
    const { channelId } = channel;
    expect(await crawler.crawl(channel, { wanted: 12 })).to.equal('ok');
    const store = crawler.ts.store;
    const runsEnded = (): number => crawler.logs.lines.filter((l) => l.msg === 'run ended' && l.channelId === channelId).length;

    await store.askLanguages(channelId, ['qaa', 'qab', 'qac', 'qad', 'qae'], new Date(), 'other-key');
    crawler.fake.resetCounters();
    crawler.fake.addUpload(channelId, { captions: 'manual' });
    crawler.fake.addUpload(channelId, { captions: 'manual' });
    const before = runsEnded();
    expect(await store.makeChannelDue(channelId, new Date())).to.equal(true);
    await until('the refresh to end', async () => runsEnded() > before);

    const { player, timedtext } = crawler.fake.counters;
    // The 2 uploads: a player answer and their own timed text each; nothing for the made-up codes.
    expect({ player, timedtext }, 'player + timed text of the refresh').to.deep.equal({ player: 2, timedtext: 2 });
    expect((await store.getVideos(channel.videos.map((v) => v.videoId))).every((v) => v.state === 'ready')).to.equal(true);
  });

  it('a video stored before the offered languages were recorded is asked once for a new code', async () => {
    const channel = crawler.fake.addChannel(makeChannel({ handle: 'olderanswers', count: 4, captionsMix: { manual: 1 } }));
    const { channelId } = channel;
    expect(await crawler.crawl(channel)).to.equal('ok');
    const store = crawler.ts.store;
    const runsEnded = (): number => crawler.logs.lines.filter((l) => l.msg === 'run ended' && l.channelId === channelId).length;
    // One record as an older crawler wrote it: without the list.
    const [older] = await store.getVideos([channel.videos[0]!.videoId]);
    expect(older!.offeredLanguages, 'the list is recorded').to.be.an('array');
    const { offeredLanguages: _dropped, ...withoutList } = older!;
    await store.upsertVideos([withoutList]);

    await store.askLanguages(channelId, ['qaa'], new Date(), 'other-key');
    crawler.fake.resetCounters();
    const before = runsEnded();
    expect(await store.makeChannelDue(channelId, new Date())).to.equal(true);
    await until('the refresh to end', async () => runsEnded() > before);
    const { player, timedtext } = crawler.fake.counters;
    expect({ player, timedtext }, 'only the older record is fetched again').to.deep.equal({ player: 1, timedtext: 1 });
    const [after] = await store.getVideos([older!.videoId]);
    expect(after!.offeredLanguages, 'and now carries the list').to.be.an('array').that.includes(older!.language!);
  });
});
