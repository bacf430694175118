// The MongoDB store through a replica set's failover and outages, by injected error replies: the
// `failCommand` fail point (a real server's test command, which the emulator offers too) makes the
// server answer exactly as a stepping-down primary, a shutting-down node or a lagging write concern
// does. Every such transient error must reach the callers as StoreUnavailableError (the crawler
// pauses and keeps the channel's failure count, the API answers 500); an error that is a bug must not.

import { expect } from 'chai';
import type { Document } from 'mongodb';
import { silentLogger } from '../../shared/logger';
import { StoreUnavailableError, type Store } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';
import { failCommand, mongoTestDatabase } from '../support/mongo-emulator';

const NOW = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  return null;
}

describe('mongodb store through failover and outages', function () {
  this.timeout(30_000);
  let db: Awaited<ReturnType<typeof mongoTestDatabase>>;
  let store: Store;

  beforeEach(async () => {
    db = await mongoTestDatabase();
    store = await connectMongoStore(db.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
    await store.registerChannel({ channelId: 'UC_a', wanted: 5 }, NOW);
  });
  afterEach(async () => {
    await failCommand(db.url, { mode: 'off' });
    await store.close();
    await db.drop();
  });

  // One write through findAndModify (registerChannel), one through update (makeChannelDue), one read
  // (getChannel: the driver retries a read once, so the fail point stays on for both tries).
  const calls: [string, string, () => Promise<unknown>][] = [
    ['findAndModify', 'registerChannel', () => store.registerChannel({ channelId: 'UC_b', wanted: 3 }, NOW)],
    ['update', 'makeChannelDue', () => store.makeChannelDue('UC_a', NOW)],
    ['find', 'getChannel', () => store.getChannel('UC_a')],
  ];

  const transient: [string, Document][] = [
    ['NotWritablePrimary (10107)', { errorCode: 10107 }],
    ['PrimarySteppedDown (189)', { errorCode: 189 }],
    ['InterruptedDueToReplStateChange (11602)', { errorCode: 11602 }],
    ['ShutdownInProgress (91)', { errorCode: 91 }],
    ['any error labelled RetryableWriteError', { errorCode: 8000, errorLabels: ['RetryableWriteError'] }],
    ['any error labelled ResetPool', { errorCode: 8000, errorLabels: ['ResetPool'] }],
    ['a dropped connection', { closeConnection: true }],
  ];

  for (const [what, data] of transient) {
    for (const [command, method, call] of calls) {
      it(`${what} on ${command} (${method}) is StoreUnavailableError`, async () => {
        await failCommand(db.url, { mode: 'alwaysOn', data: { failCommands: [command], ...data } });
        const err = await failure(call());
        expect(err, String(err)).to.be.instanceOf(StoreUnavailableError);
        expect((err as Error).message).to.match(/^MongoDB store unavailable/);
        await failCommand(db.url, { mode: 'off' });
        await call();
      });
    }
  }

  it('a write concern error (replication timed out) is StoreUnavailableError, and sending the write again is harmless', async () => {
    const wce = { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true } };
    await failCommand(db.url, { mode: { times: 1 }, data: { failCommands: ['findAndModify'], writeConcernError: wce } });
    expect(await failure(store.registerChannel({ channelId: 'UC_a', wanted: 9 }, NOW))).to.be.instanceOf(StoreUnavailableError);
    expect((await store.registerChannel({ channelId: 'UC_a', wanted: 9 }, NOW)).wanted).to.equal(9);
  });

  it('a write concern error in a bulk write of videos is StoreUnavailableError', async () => {
    const wce = { code: 64, codeName: 'WriteConcernFailed', errmsg: 'waiting for replication timed out' };
    await failCommand(db.url, { mode: { times: 1 }, data: { failCommands: ['update'], writeConcernError: wce } });
    const v = { videoId: 'v1', channelId: 'UC_a', title: 't', publishedAt: NOW, language: null, kind: null, videoKind: 'regular' as const,
      durationSeconds: null, description: null, state: 'unavailable' as const, attempts: 1, nextAttemptAt: null, lastError: null, fetchedAt: NOW };
    expect(await failure(store.upsertVideos([v]))).to.be.instanceOf(StoreUnavailableError);
  });

  it('a full connection pool whose wait queue times out is StoreUnavailableError', async () => {
    const tight = await connectMongoStore(`${db.url}&maxPoolSize=1&waitQueueTimeoutMS=200`, { logger: silentLogger(), serverSelectionTimeoutMS: 3000 });
    try {
      // The only connection is held by a read the server sits on for 2 s.
      await failCommand(db.url, { mode: { times: 1 }, data: { failCommands: ['find'], blockConnection: true, blockTimeMS: 2000 } });
      const slow = tight.getChannel('UC_a');
      const queued = await failure(tight.getChannel('UC_a'));
      expect(queued, String(queued)).to.be.instanceOf(StoreUnavailableError);
      expect((await slow)?.channelId).to.equal('UC_a');
    } finally {
      await tight.close();
    }
  });

  it('an error that is a bug (a bad query) stays what it is', async () => {
    await failCommand(db.url, { mode: 'alwaysOn', data: { failCommands: ['findAndModify'], errorCode: 2 } });
    const err = await failure(store.registerChannel({ channelId: 'UC_b', wanted: 3 }, NOW));
    expect(err).to.be.instanceOf(Error).and.not.instanceOf(StoreUnavailableError);
  });

  it('the API side fails fast: a call waits no longer than its bound, then calls fail at once until the window passes', async () => {
    const api = await connectMongoStore(db.url, { logger: silentLogger(), serverSelectionTimeoutMS: 3000, operationTimeoutMs: 200, failFastMs: 60_000 });
    try {
      await failCommand(db.url, { mode: { times: 1 }, data: { failCommands: ['find'], blockConnection: true, blockTimeMS: 3000 } });
      const first = await failure(api.getChannel('UC_a'));
      expect(first, String(first)).to.be.instanceOf(StoreUnavailableError);
      expect((first as Error).message).to.match(/no answer within 200 ms/);
      const next = await failure(api.getChannel('UC_a'));
      expect((next as Error).message, 'refused without a round trip').to.match(/failing fast/);
    } finally {
      await api.close();
    }
  });
});
