// How a batch of videos becomes visible to readers at once. On a replica set (or a sharded cluster)
// the batch's writes run in one transaction: readers see all of it or none. A standalone server
// has no transactions; there the writes go in an order that keeps readers right: transcripts, then
// videos, then their search documents, and the channel's feed version (feed_versions) last. A
// reader's cached feed and its ETag are keyed by that version, so a reader between the writes is
// served the feed as it was, and the new version (with the whole batch) appears in one write. A
// batch cut short before its last write moves no version, and the crawler sends it again.

import type { ClientSession, Db, MongoClient } from 'mongodb';

export interface BatchWriter {
  /** Whether batches run as transactions here. */
  readonly transactional: boolean;
  /** Runs `writes` in one transaction where the deployment has them, else as they come, in order. */
  run(writes: (session: ClientSession | undefined) => Promise<void>): Promise<void>;
}

/**
 * Asks the server what it is (`hello`): a replica-set member (setName) or a mongos (msg
 * "isdbgrid") runs transactions; a standalone server does not.
 */
export async function batchWriter(client: MongoClient, db: Db): Promise<BatchWriter> {
  const hello = await db.admin().command({ hello: 1 });
  const transactional = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  return {
    transactional,
    async run(writes) {
      if (!transactional) return writes(undefined);
      // withTransaction retries the whole callback on TransientTransactionError and the commit on
      // UnknownTransactionCommitResult; every write in it is an idempotent upsert.
      await client.withSession((session) => session.withTransaction(() => writes(session)));
    },
  };
}
