// Runs the store contract on MongoDB: on the project's wire-protocol emulator (test/mongo-emulator),
// or on the real server MONGODB_URI names. Each test gets its own database, dropped afterwards.

import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { openStore, StoreUnavailableError } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { mongoTestUrl } from '../support/mongo-emulator';
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

let counter = 0;
const runId = `${process.pid}_${Date.now()}`;
storeContract('mongodb', async () => {
  const url = await mongoTestUrl();
  const dbName = `tf_test_${runId}_${++counter}`;
  const store = await connectMongoStore(url, { logger: silentLogger(), dbName, serverSelectionTimeoutMS: 3000 });
  return {
    store,
    async cleanup() {
      await store.close();
      // The contract may have closed the store already, so drop through a client of our own.
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
});
