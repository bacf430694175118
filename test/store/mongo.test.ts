// Runs the store contract on MongoDB when MONGODB_URI (or a mongodb DATABASE_URL) names a server.
// No server exists on the build machines, so by default this prints why it is skipped. Each test
// gets its own database, dropped afterwards.

import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { openStore, StoreUnavailableError } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { freePort } from '../support/processes';
import { storeContract } from './contract';

describe('mongodb store without a server', function () {
  it('fails to open with StoreUnavailableError, not a driver error', async function () {
    const url = `mongodb://127.0.0.1:${await freePort()}/tf_unreachable`;
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

const databaseUrl = process.env.DATABASE_URL ?? '';
const uri = process.env.MONGODB_URI ?? (/^mongodb(\+srv)?:\/\//.test(databaseUrl) ? databaseUrl : '');

if (uri === '') {
  describe('mongodb store contract', function () {
    before(function () {
      console.log('  MongoDB store contract skipped: MONGODB_URI is not set (and DATABASE_URL is not mongodb://…).');
      this.skip();
    });
    it('runs against a real MongoDB server', function () {
      // Never reached: the before hook skips the suite.
    });
  });
} else {
  let counter = 0;
  const runId = `${process.pid}_${Date.now()}`;
  storeContract('mongodb', async () => {
    const dbName = `tf_test_${runId}_${++counter}`;
    const store = await connectMongoStore(uri, { logger: silentLogger(), dbName, serverSelectionTimeoutMS: 3000 });
    return {
      store,
      async cleanup() {
        await store.close();
        // The contract may have closed the store already, so drop through a client of our own.
        const client = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
}
