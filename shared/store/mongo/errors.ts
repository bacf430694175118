// Turns the driver errors that mean "no server to talk to" into StoreUnavailableError (the API
// answers 500, the crawler retries later). Server-side errors (bad query, duplicate key) are
// bugs or handled by the caller and are rethrown as is.

import {
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
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
];

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
  if (UNAVAILABLE_CLASSES.some((cls) => cause instanceof cls)) {
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
