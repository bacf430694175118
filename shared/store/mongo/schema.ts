// The MongoDB database's schema version and the ordered list of steps that bring a database to it,
// as SQLite's migrations.ts does for a file. The version lives in one document
// (`schema_version`, _id "schema"). At start each process runs the steps past the stored version,
// in order, raising the stored version after each; a database whose version is newer than this
// code knows is refused (an older release must not write to a database a newer one has shaped).
//
// Steps must be safe to run twice and by two processes at once (several hosts start together):
// createIndexes of an index that exists with the same definition is a no-op, and the version only
// ever goes up ($max). To change an index, add a step that drops it and creates the new one (under
// a new name): changing an index in place would fail every start with IndexOptionsConflict. Never
// edit a step that has shipped; append.

import type { Db } from 'mongodb';
import type { Logger } from '../../logger';
import { channelAdminIndexes } from './channel-admin';
import { channelsIndexes, fairnessIndexes } from './channels';
import { runsIndexes } from './runs';
import { retryOnDuplicateKey } from './errors';
import { handlesIndexes } from './handles';
import { htmlTranscriptsToParagraphs } from './legacy-transcripts';
import { platformPacingIndexes } from './platform-pacing';
import { rateLimitsIndexes } from './rate-limits';
import { searchIndexes } from './search';
import { summaryQueueIndexes } from './summaries';
import { importQueueIndexes, subscriptionsIndexes } from './subscriptions';
import { languageAsksIndexes, transcriptsIndexes } from './transcripts';
import { videosIndexes } from './videos';
import { webSubIndexes } from './websub';

export interface SchemaStep {
  /** What the step does, for the log line. */
  name: string;
  run(db: Db): Promise<void>;
}

export const SCHEMA_STEPS: readonly SchemaStep[] = [
  {
    name: 'collections and indexes of the first release',
    run: async (db) => {
      await Promise.all([channelsIndexes(db), videosIndexes(db), transcriptsIndexes(db), searchIndexes(db), handlesIndexes(db), rateLimitsIndexes(db), subscriptionsIndexes(db)]);
    },
  },
  {
    name: 'indexes for the refresh (markAllDue) and for a restarted crawler taking its leases back (reclaimLeases)',
    run: async (db) => {
      await db.collection('channels').createIndexes([
        // markAllDue: channels not backing off whose due time is later than now.
        { key: { consecutiveFailures: 1, dueAt: 1 }, name: 'refresh' },
        // reclaimLeases: the few channels leased under one owner name; free channels are not indexed.
        { key: { leaseOwner: 1 }, name: 'lease_owner', partialFilterExpression: { leaseOwner: { $type: 'string' } } },
      ]);
    },
  },
  {
    name: 'the shared platform pacing collection',
    run: async (db) => {
      await platformPacingIndexes(db);
    },
  },
  {
    name: 'indexes of the operators\' views (runs, failing channels) and of followed playlists',
    run: async (db) => {
      await Promise.all([channelAdminIndexes(db), runsIndexes(db), subscriptionsIndexes(db)]);
    },
  },
  {
    name: 'push (WebSub) subscriptions and the channels readers wait for',
    run: async (db) => {
      await Promise.all([webSubIndexes(db), channelsIndexes(db)]);
    },
  },
  {
    name: 'one copy of each transcript: the rendered HTML on video documents converted to timed paragraphs where none are readable, then removed',
    run: async (db) => {
      await htmlTranscriptsToParagraphs(db);
    },
  },
  {
    name: 'awaited work by round and key, and the channels each key created',
    run: async (db) => {
      await fairnessIndexes(db);
    },
  },
  {
    name: 'who asked for which language on a channel (the languages asked so far count as asked by no key)',
    run: async (db) => {
      await languageAsksIndexes(db);
      const asks = db.collection<{ _id: string; channelId: string; keyId: string; language: string; askedAt: Date }>('language_asks');
      for await (const l of db.collection<{ channelId: string; language: string; askedAt: Date }>('channel_languages').find({})) {
        await asks.updateOne({ _id: `${l.channelId}\n\n${l.language}` }, { $set: { channelId: l.channelId, keyId: '', language: l.language }, $max: { askedAt: l.askedAt } }, { upsert: true });
      }
    },
  },
  {
    name: 'imports as work a key asks for: each key\'s queued imports in order, and its handle asks of the hour',
    run: async (db) => {
      await importQueueIndexes(db);
    },
  },
  {
    name: 'summaries (issue 31): each summary key\'s ready and failed summaries, for the queue and the status page',
    run: async (db) => {
      await db.collection('summaries').createIndexes([{ key: { language: 1, promptVersion: 1, status: 1 }, name: 'summary_status' }]);
    },
  },
  {
    name: 'the web app\'s sessions, by the hash of the cookie\'s id, with the idle sweep\'s index',
    run: async (db) => {
      await db.collection('web_sessions').createIndexes([{ key: { lastSeenAt: 1 }, name: 'last_seen' }]);
    },
  },
  {
    name: 'the summary queue\'s scan (issue 31): every video newest published first, so the next video to summarise is found without sorting the collection',
    run: async (db) => {
      await summaryQueueIndexes(db);
    },
  },
];

/** Thrown at start on a database shaped by a newer release. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError';
}

interface SchemaDoc {
  _id: 'schema';
  version: number;
  updatedAt: Date;
}

const versionOf = async (db: Db): Promise<number> =>
  (await db.collection<SchemaDoc>('schema_version').findOne({ _id: 'schema' }))?.version ?? 0;

/** Brings the database to the code's schema version; returns the version it found. */
export async function migrateSchema(db: Db, logger: Logger, steps: readonly SchemaStep[] = SCHEMA_STEPS): Promise<number> {
  const found = await versionOf(db);
  if (found > steps.length) {
    throw new NewerSchemaError(
      `the MongoDB database ${db.databaseName} has schema version ${found}, newer than this release knows (${steps.length}); run the release that wrote it, or a newer one`,
    );
  }
  for (let version = found + 1; version <= steps.length; version++) {
    const step = steps[version - 1]!;
    await step.run(db);
    await retryOnDuplicateKey(() =>
      db.collection<SchemaDoc>('schema_version').updateOne({ _id: 'schema' }, { $max: { version }, $currentDate: { updatedAt: true } }, { upsert: true }),
    );
    logger.info({ version, step: step.name }, 'mongodb schema step applied');
  }
  return found;
}
