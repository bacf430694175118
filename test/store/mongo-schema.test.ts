// The MongoDB database's schema version: a fresh database is brought to the code's version with
// every index; an older one is moved up step by step, keeping its data; a newer one is refused at
// start, as SQLite refuses a newer file.

import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { StoreUnavailableError } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { SCHEMA_STEPS } from '../../shared/store/mongo/schema';
import { mongoTestDatabase } from '../support/mongo-emulator';

describe('mongodb schema version', function () {
  this.timeout(30_000);
  let target: Awaited<ReturnType<typeof mongoTestDatabase>>;
  let client: MongoClient;
  let db: Db;

  beforeEach(async () => {
    target = await mongoTestDatabase();
    client = new MongoClient(target.url, { serverSelectionTimeoutMS: 3000 });
    db = client.db(target.dbName);
  });
  afterEach(async () => {
    await client.close();
    await target.drop();
  });

  const open = () => connectMongoStore(target.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
  const version = async () => (await db.collection<{ _id: string; version: number }>('schema_version').findOne({ _id: 'schema' }))?.version;
  const indexNames = async (collection: string) => (await db.collection(collection).listIndexes().toArray()).map((i) => String(i.name));

  it('brings a fresh database to the code version, with the refresh and lease-owner indexes', async () => {
    const store = await open();
    await store.close();
    expect(await version()).to.equal(SCHEMA_STEPS.length);
    expect(await indexNames('channels')).to.include.members(['due', 'refresh', 'lease_owner']);
    const leaseOwner = (await db.collection('channels').listIndexes().toArray()).find((i) => i.name === 'lease_owner');
    expect(leaseOwner?.partialFilterExpression, 'only leased channels are indexed').to.deep.equal({ leaseOwner: { $type: 'string' } });
    // Opening again runs nothing and changes nothing.
    await (await open()).close();
    expect(await version()).to.equal(SCHEMA_STEPS.length);
  });

  it('moves a database of the first release up, keeping its data', async () => {
    const first = await open();
    await first.registerChannel({ channelId: 'UC_a', wanted: 7 }, new Date());
    await first.close();
    // As the first release left it: version 1, without the later indexes.
    await db.collection('channels').dropIndex('refresh');
    await db.collection('channels').dropIndex('lease_owner');
    await db.collection('schema_version').updateOne({ _id: 'schema' as never }, { $set: { version: 1 } });

    const store = await open();
    try {
      expect(await version()).to.equal(SCHEMA_STEPS.length);
      expect(await indexNames('channels')).to.include.members(['refresh', 'lease_owner']);
      expect((await store.getChannel('UC_a'))?.wanted).to.equal(7);
    } finally {
      await store.close();
    }
  });

  it('refuses a database a newer release shaped, with one line that says so', async () => {
    await (await open()).close();
    await db.collection('schema_version').updateOne({ _id: 'schema' as never }, { $set: { version: SCHEMA_STEPS.length + 1 } });
    let caught: unknown;
    try {
      await open();
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(Error).and.not.instanceOf(StoreUnavailableError);
    expect((caught as Error).message).to.match(new RegExp(`schema version ${SCHEMA_STEPS.length + 1}, newer than this release knows \\(${SCHEMA_STEPS.length}\\)`));
    expect((caught as Error).message).to.not.include('\n');
  });

  it('two processes starting at once on a fresh database both open it', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    await Promise.all([a.close(), b.close()]);
    expect(await version()).to.equal(SCHEMA_STEPS.length);
  });
});
