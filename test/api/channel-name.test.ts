// A feed names its channel as soon as its first entry is there. A channel asked for by id has no
// title until the crawler lists it; the crawler names it before it stores the first batch, so the
// feed shows the name from its first entry on (not from the end of the run), and the name is part
// of the ETag, so a feed served before the name arrived is never kept by a 304.

import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import type { Scheduler } from '../../crawler/scheduler';
import { realTiming } from '../../crawler/timing';
import { REGISTRATION_TTL_MS } from '../../api/registration/channel-registrar';
import { CHANNEL, startApi, video, type TestApi } from './support';
import { captureLogs } from '../support/logs';
import { startInProcessCrawler } from '../crawler/support/in-process-crawler';
import { startFakePlatform, type FakePlatform } from '../fake-platform';
import { until } from '../support/poll';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
type Atom = { feed: { author: { name: string }; subtitle: string; entry?: unknown } };

describe('a feed names its channel as soon as its first entry is there', function () {
  this.timeout(60_000);

  describe('the crawler against the fake platform', () => {
    let fake: FakePlatform;
    let api: TestApi;
    let scheduler: Scheduler | null = null;
    const logs = captureLogs();

    before(async () => {
      const day = (d: number): Date => new Date(Date.UTC(2026, 6, d, 12));
      fake = await startFakePlatform({
        channels: [{
          channelId: CHANNEL, handle: 'bakery', title: 'The Bakery & Co',
          videos: [1, 2, 3].map((d) => ({ videoId: `bakery00${d}vd`, title: `Bread ${d}`, publishedAt: day(10 + d), captions: 'manual' as const })),
        }],
      });
      api = await startApi();
    });
    after(async () => {
      await scheduler?.stop();
      await api.close();
      await fake.close();
    });

    it('shows the channel title in Atom author and subtitle after the first batch, while the run goes on', async () => {
      api.now = new Date();
      expect((await api.get(`/?channel_id=${CHANNEL}`)).status).to.equal(404);
      // One video per batch and a long wait after each: the run stays between its batches.
      scheduler = startInProcessCrawler({
        fakeUrl: fake.url, configDir: api.dir, store: api.store, timing: realTiming, logger: logs.logger, owner: 'naming',
        env: { CRAWL_BATCH_SIZE: '1', CRAWL_BATCH_WAIT: '600' },
      });
      await until('the first batch', () => logs.lines.some((l) => l.msg === 'batch stored'), 30_000);
      const channel = (await api.store.getChannel(CHANNEL))!;
      expect(channel.leaseOwner, 'the run has not ended').to.equal('naming');
      expect(channel.lastOutcome).to.equal(null);

      // Same clock as the first request: the API still remembers the registration without a title.
      const res = await api.get(`/?channel_id=${CHANNEL}`);
      expect(res.status).to.equal(200);
      const atom = xml.parse(await res.text()) as Atom;
      expect(atom.feed.author.name).to.equal('The Bakery & Co');
      expect(atom.feed.subtitle).to.equal('Transcripts of the newest videos of The Bakery & Co');
      const json = (await (await api.get(`/?channel_id=${CHANNEL}&format=Json`)).json()) as { authors: { name: string }[] };
      expect(json.authors).to.deep.equal([{ name: 'The Bakery & Co' }]);
    });
  });

  describe('the name arriving later (a channel stored before it was named)', () => {
    let api: TestApi;
    beforeEach(async () => {
      api = await startApi();
    });
    afterEach(() => api.close());

    it('changes the ETag, so a reader revalidating gets the named feed, not a 304', async () => {
      await api.store.registerChannel({ channelId: CHANNEL, wanted: 10 }, api.now);
      await api.store.upsertVideos([video(1)]);
      const before = await api.get(`/?channel_id=${CHANNEL}`);
      expect((xml.parse(await before.text()) as Atom).feed.author.name).to.equal(CHANNEL);
      const etag = before.headers.get('etag')!;

      await api.store.nameChannel(CHANNEL, 'Named Now');
      api.now = new Date(api.now.getTime() + REGISTRATION_TTL_MS + 1_000);
      const after = await api.get(`/?channel_id=${CHANNEL}`, { headers: { 'If-None-Match': etag } });
      expect(after.status).to.equal(200);
      expect(after.headers.get('etag')).not.to.equal(etag);
      expect((xml.parse(await after.text()) as Atom).feed.author.name).to.equal('Named Now');
    });
  });
});
