// The scale-out store: MongoDB 6+ through the official driver, made of one file per collection
// (channels, videos, handles, rate limits, subscriptions). This file owns the client and brings the
// database to the code's schema version at start (schema.ts); store/call.ts maps "cannot reach the
// server" (and any call after close) to StoreUnavailableError.

import ConnectionString from 'mongodb-connection-string-url';
import { MongoClient } from 'mongodb';
import type { Logger } from '../../logger';
import { assembleStore, type BackendMethods } from '../call';
import { StoreUnavailableError, type Store } from '../types';
import { channelAdmin } from './channel-admin';
import { batchWriter, type BatchWriter } from './batch';
import { channelsCollection } from './channels';
import { heartbeatsCollection } from './heartbeats';
import { summariesCollection } from './summaries';
import { hourlyCountsCollection } from './hourly-counts';
import { runsCollection } from './runs';
import { storeClock, type ClockSource } from './clock';
import { toStoreError } from './errors';
import { handlesCollection } from './handles';
import { platformCheckCollection } from './platform-check';
import { playlistsCollection } from './playlists';
import { platformPacingCollection } from './platform-pacing';
import { rateLimitsCollection } from './rate-limits';
import { webSessionsCollection } from './web-sessions';
import { migrateSchema } from './schema';
import { subscriptionsCollection } from './subscriptions';
import { followedOverviewCollection } from './followed-overview';
import { searchCollection } from './search';
import { transcriptsCollection } from './transcripts';
import { videosCollection } from './videos';
import { webSubCollection } from './websub';

export interface MongoStoreOptions {
  logger: Logger;
  /** How long an operation waits for a reachable server before failing (default 5000). */
  serverSelectionTimeoutMS?: number;
  /** Database to use; default: the one named in the URL, else `transcript-feed`. */
  dbName?: string;
  /**
   * The most any store call waits for its answer (server selection, a free connection, the reply)
   * before it fails with StoreUnavailableError; unset = the driver's own waits. The API sets it
   * (API_STORE_BUSY_TIMEOUT_MS) so that no request hangs while the server is unreachable.
   */
  operationTimeoutMs?: number;
  /** After a call found the store unavailable, fail every call at once for this long (0 = off). */
  failFastMs?: number;
  /**
   * Whose clock leases, due times and rate-limit windows read (clock.ts): the server's (default,
   * what every deployment uses) or the `now` each call is given (the store contract, to fix time).
   */
  clock?: ClockSource;
}

export const DEFAULT_DB_NAME = 'transcript-feed';

/**
 * The database named in the URL path (`mongodb://host1,host2/name?…`), if any, read by the parser
 * the driver itself uses (a seed list of several hosts is no WHATWG URL).
 */
export function dbNameFromUrl(url: string): string | null {
  const name = decodeURIComponent(new ConnectionString(url).pathname.replace(/^\//, ''));
  return name === '' ? null : name;
}

export async function connectMongoStore(url: string, opts: MongoStoreOptions): Promise<Store> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: opts.serverSelectionTimeoutMS ?? 5000,
    appName: 'transcript-feed',
  });
  const db = client.db(opts.dbName ?? dbNameFromUrl(url) ?? DEFAULT_DB_NAME);
  const clock = storeClock(opts.clock ?? 'server');
  let batch: BatchWriter;
  try {
    await client.connect();
    await migrateSchema(db, opts.logger);
    batch = await batchWriter(client, db);
  } catch (err) {
    await client.close().catch(() => undefined);
    throw toStoreError(err);
  }
  // Driver 7 refuses a closed client itself (MongoNotConnectedError, mapped too); the flag keeps a
  // closed store closed without a driver round trip and with a plain message.
  let closed = false;
  const videos = videosCollection(db, batch);
  const transcripts = transcriptsCollection(db, clock);
  const methods: BackendMethods = {
    ...channelsCollection(db, clock),
    ...videos,
    ...transcripts,
    ...searchCollection(db, { getVideos: videos.getVideos, getTranscripts: transcripts.getTranscripts }),
    ...handlesCollection(db),
    ...playlistsCollection(db),
    ...platformCheckCollection(db),
    ...rateLimitsCollection(db, clock),
    ...platformPacingCollection(db),
    ...subscriptionsCollection(db),
    ...followedOverviewCollection(db),
    ...channelAdmin(db, clock),
    ...runsCollection(db),
    ...heartbeatsCollection(db),
    ...hourlyCountsCollection(db),
    ...webSubCollection(db),
    ...summariesCollection(db),
    ...webSessionsCollection(db),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
  opts.logger.debug({ db: db.databaseName, transactions: batch.transactional }, 'mongodb store open');
  const failFastMs = opts.failFastMs ?? 0;
  let unavailableUntil = 0;
  return assembleStore(
    {
      kind: 'mongodb',
      logger: opts.logger,
      isOpen: () => !closed,
      deadlineMs: opts.operationTimeoutMs,
      refuseNow: () => (Date.now() < unavailableUntil ? 'MongoDB store unavailable (failing fast after the last failure)' : null),
      toStoreError(err) {
        const mapped = toStoreError(err);
        if (failFastMs > 0 && mapped instanceof StoreUnavailableError) unavailableUntil = Date.now() + failFastMs;
        return mapped;
      },
    },
    methods,
  );
}
