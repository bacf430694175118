// Turns the driver errors that mean "the database cannot serve right now" into StoreUnavailableError
// (the API answers 500, the crawler pauses and retries, keeping the channel's failure count): no
// server to talk to, and the transient errors of a replica set during a failover or a shutdown.
// Server-side errors (bad query, duplicate key) are bugs or handled by the caller and are rethrown
// as they are.

import {
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
  type WriteError,
} from 'mongodb';
import { StoreUnavailableError } from '../types';

const UNAVAILABLE_CLASSES = [
  MongoServerSelectionError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoClientClosedError,
  MongoServerClosedError,
  MongoOperationTimeoutError,
  // A write the primary applied but could not replicate in time (wtimeout) or at all: sending
  // the idempotent write again later is the cure, not counting a failure against the channel.
  MongoWriteConcernError,
];

/**
 * Error labels a server or the driver puts on errors that a retry later may cure: a write during a
 * failover (RetryableWriteError), a pool cleared after a network error (ResetPool), a transaction
 * that met either (TransientTransactionError).
 */
const TRANSIENT_LABELS = ['RetryableWriteError', 'ResetPool', 'TransientTransactionError'];

/**
 * Server codes of a replica set changing primaries or shutting down, and of the network between its
 * members (the retryable-writes specification's list): HostUnreachable 6, HostNotFound 7,
 * NetworkTimeout 89, ShutdownInProgress 91, PrimarySteppedDown 189, ExceededTimeLimit 262,
 * SocketException 9001, NotWritablePrimary 10107, InterruptedAtShutdown 11600,
 * InterruptedDueToReplStateChange 11602, NotPrimaryNoSecondaryOk 13435, NotPrimaryOrSecondary 13436.
 */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

/** The driver classes not exported by name: a full pool's wait queue timing out, a closed pool. */
const UNAVAILABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError', 'MongoPoolClearedError']);

function isTransient(err: unknown): boolean {
  if (!(err instanceof MongoError)) return false;
  if (UNAVAILABLE_CLASSES.some((cls) => err instanceof cls) || UNAVAILABLE_NAMES.has(err.name)) return true;
  if (TRANSIENT_LABELS.some((label) => err.hasErrorLabel(label))) return true;
  if (typeof err.code === 'number' && TRANSIENT_CODES.has(err.code)) return true;
  // A bulk write's write concern error comes inside the MongoBulkWriteError (its write errors, if
  // any, are judged by the caller).
  return err instanceof MongoBulkWriteError && err.result?.getWriteConcernError() !== undefined && [err.writeErrors].flat().length === 0;
}

const DUPLICATE_KEY = 11000;

/**
 * collection.bulkWrite wraps any error that is not a server reply (a network error, a failed server
 * selection) in a MongoBulkWriteError and keeps the original as its errorResponse (driver 7,
 * lib/bulk/common.js), so an unreachable server would otherwise look like a failed write.
 */
function unwrapBulk(err: unknown): unknown {
  if (err instanceof MongoBulkWriteError && err.errorResponse instanceof Error) return err.errorResponse;
  return err;
}

export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  const cause = unwrapBulk(err);
  if (isTransient(cause)) {
    return new StoreUnavailableError(`MongoDB store unavailable: ${(cause as Error).message}`, { cause });
  }
  if (cause instanceof Error && /client was closed|topology is closed/i.test(cause.message)) {
    return new StoreUnavailableError('MongoDB store is closed', { cause });
  }
  return err;
}

/** E11000 on a single write, or on every failed write of an unordered bulkWrite. */
export function isDuplicateKey(err: unknown): boolean {
  if (err instanceof MongoBulkWriteError) {
    // Typed as one-or-more; a wrapped network error or a write concern error carries none.
    const writeErrors: readonly (WriteError | undefined)[] = [err.writeErrors].flat();
    return writeErrors.length > 0 && writeErrors.every((w) => w?.code === DUPLICATE_KEY);
  }
  return err instanceof MongoServerError && err.code === DUPLICATE_KEY;
}

/**
 * Runs an upsert keyed by `_id` once more after E11000. Two first upserts of one `_id` can race to
 * insert; MongoDB 4.2+ retries that on the server (SERVER-37124, findAndModify: SERVER-47212) but
 * only a bounded number of times (SERVER-60897). A failed attempt wrote nothing for that `_id`, and
 * the retry finds the winner's document and updates it, so running it again is safe.
 */
export async function retryOnDuplicateKey<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return write();
  }
}
