// Runs the store contract on MongoDB: on the project's wire-protocol emulator (test/mongo-emulator),
// or on the real server MONGODB_URI names. Each test gets its own database, dropped afterwards.

import { expect } from 'chai';
import { silentLogger } from '../../shared/logger';
import { openStore, StoreUnavailableError } from '../../shared/store';
import { connectMongoStore, dbNameFromUrl } from '../../shared/store/mongo/mongo-store';
import { mongoTestDatabase } from '../support/mongo-emulator';
import { REFUSED_PORT } from '../support/processes';
import { storeContract } from './contract';
import { runWorkers } from './run-workers';

describe('the database named in a MongoDB URL', () => {
  it('is the URL path, read as the driver reads it, seed lists and SRV included; none without a path', () => {
    expect(dbNameFromUrl('mongodb://db.example:27017/feeds?replicaSet=rs0')).to.equal('feeds');
    expect(dbNameFromUrl('mongodb://user:p%40ss@a:27017,b:27017,c:27017/feeds_prod?replicaSet=rs0&w=majority')).to.equal('feeds_prod');
    expect(dbNameFromUrl('mongodb+srv://user:pw@cluster0.example.net/tf?retryWrites=true')).to.equal('tf');
    expect(dbNameFromUrl('mongodb://a:1,b:2/my%2Ddb')).to.equal('my-db');
    expect(dbNameFromUrl('mongodb://a:27017,b:27017/?replicaSet=rs0')).to.equal(null);
    expect(dbNameFromUrl('mongodb://localhost')).to.equal(null);
  });
});

describe('mongodb store without a server', function () {
  it('fails to open with StoreUnavailableError, not a driver error', async function () {
    const url = `mongodb://127.0.0.1:${REFUSED_PORT}/tf_unreachable`;
    let caught: unknown;
    try {
      await openStore(url, { logger: silentLogger(), serverSelectionTimeoutMS: 300 });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(StoreUnavailableError);
    expect((caught as Error).message).to.match(/^MongoDB store unavailable/);
  });
});

// The contract fixes time through each call's `now`, so the store reads that instead of the server's
// clock here; test/store/mongo-clock.test.ts shows the server's clock, which deployments use.
storeContract('mongodb', async () => {
  const db = await mongoTestDatabase();
  const store = await connectMongoStore(db.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000, clock: 'caller' });
  return {
    store,
    async cleanup() {
      await store.close();
      await db.drop();
    },
  };
});

describe('mongodb store across two processes', function () {
  this.timeout(120_000);
  let db: Awaited<ReturnType<typeof mongoTestDatabase>>;
  beforeEach(async () => (db = await mongoTestDatabase()));
  afterEach(async () => db.drop());

  it('never hands one due channel to two processes', async function () {
    const total = 300;
    const store = await openStore(db.url, { logger: silentLogger() });
    try {
      for (let i = 0; i < total; i++) {
        await store.registerChannel({ channelId: `UC_${String(i).padStart(4, '0')}`, wanted: 1 }, new Date(Date.UTC(2025, 0, 1, 11, 0, 0)));
      }
    } finally {
      await store.close();
    }
    const [a, b] = await runWorkers([['claim', db.url, 'worker-a'], ['claim', db.url, 'worker-b']]);
    const all = [...a!, ...b!];
    expect(new Set(all).size, 'no channel claimed twice').to.equal(all.length);
    expect(all.length, 'every channel claimed').to.equal(total);
    expect(a!.length * b!.length, 'both workers claimed some').to.be.greaterThan(0);
  });

  it('counts rate-limit hits from two processes exactly', async function () {
    const perWorker = 300;
    const [a, b] = await runWorkers([['hit', db.url, 'key-1', String(perWorker)], ['hit', db.url, 'key-1', String(perWorker)]]);
    const counts = [...a!, ...b!];
    expect(new Set(counts).size, 'every count handed out once').to.equal(2 * perWorker);
    expect(Math.max(...(counts as number[]))).to.equal(2 * perWorker);
  });
});
