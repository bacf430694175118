// A batch of videos as readers see it on MongoDB: all at once. On a replica set the batch is one
// transaction; on a standalone server (no transactions) its last write moves the channel's feed
// version, so a batch cut short leaves the version where it was and readers' cached feeds stay
// valid until the crawler sends the batch again. Both run on the emulator: the shared one is a
// standalone server, and one case starts its own as a one-member replica set.

import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { StoreUnavailableError, type Store, type VideoRecord } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { videoRecord } from '../support/factories';
import { failCommand, MongoEmulator, mongoTestDatabase } from '../support/mongo-emulator';

const T = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));
const batchOf = (n: number, fetchedAt: Date): VideoRecord[] =>
  Array.from({ length: n }, (_, i) => videoRecord({ videoId: `v${i}`, channelId: 'UC_a', publishedAt: new Date(T.getTime() - i * 1000), fetchedAt }));

describe('mongodb batches as readers see them', function () {
  this.timeout(60_000);

  describe('on a standalone server (no transactions): the feed version moves last', function () {
    let db: Awaited<ReturnType<typeof mongoTestDatabase>>;
    let store: Store;
    beforeEach(async () => {
      db = await mongoTestDatabase();
      store = await connectMongoStore(db.url, { logger: silentLogger(), clock: 'caller' });
    });
    afterEach(async () => {
      await failCommand(db.url, { mode: 'off' });
      await store.close();
      await db.drop();
    });

    it('a batch cut short before its last write leaves the version as it was; sent again, it moves it', async () => {
      await store.upsertVideos(batchOf(3, T));
      expect(await store.feedVersion('UC_a')).to.deep.equal(T);
      const later = new Date(T.getTime() + 60_000);
      // The batch's writes are updates: videos, search documents, then the version; the third fails.
      await failCommand(db.url, { mode: { skip: 2 }, data: { failCommands: ['update'], closeConnection: true } });
      const cut = await store.upsertVideos(batchOf(3, later)).then(() => null, (err: unknown) => err);
      expect(cut).to.be.instanceOf(StoreUnavailableError);
      await failCommand(db.url, { mode: 'off' });
      expect(await store.feedVersion('UC_a'), 'readers keep the version they cached').to.deep.equal(T);
      await store.upsertVideos(batchOf(3, later));
      expect(await store.feedVersion('UC_a')).to.deep.equal(later);
    });

    it('a batch that takes an entry out of the feed moves the version too', async () => {
      await store.upsertVideos(batchOf(2, T));
      const later = new Date(T.getTime() + 60_000);
      await store.upsertVideos([videoRecord({ videoId: 'v0', channelId: 'UC_a', publishedAt: T, fetchedAt: later, state: 'unavailable' })]);
      expect(await store.feedVersion('UC_a')).to.deep.equal(later);
      expect((await store.listFeedEntries('UC_a', 10)).map((v) => v.videoId)).to.deep.equal(['v1']);
    });
  });

  describe('on a replica set: one transaction per batch', function () {
    let emulator: MongoEmulator;
    let store: Store;
    const url = () => emulator.url('tf_batch');
    before(async () => {
      emulator = await new MongoEmulator({ replicaSet: 'rs0' }).start();
    });
    after(async () => {
      await store?.close();
      await emulator.dispose();
    });

    it('writes a batch in one committed transaction, all of it visible after', async () => {
      store = await connectMongoStore(url(), { logger: silentLogger(), clock: 'caller' });
      const status = async () => {
        const client = new MongoClient(url());
        try {
          return ((await client.db('admin').command({ emulatorStatus: 1 })) as { transactions: { started: number; committed: number; aborted: number } }).transactions;
        } finally {
          await client.close();
        }
      };
      const before = await status();
      await store.upsertVideos(batchOf(5, T));
      const after = await status();
      expect(after.committed - before.committed).to.equal(1);
      expect(after.aborted).to.equal(before.aborted);
      expect((await store.listFeedEntries('UC_a', 10)).length).to.equal(5);
      expect(await store.feedVersion('UC_a')).to.deep.equal(T);
    });
  });
});
