// Turns the driver errors that mean "no server to talk to" into StoreUnavailableError (the API
// answers 503, the crawler retries later). Server-side errors (bad query, duplicate key) are
// bugs or handled by the caller and are rethrown as is.

import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
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

export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  if (UNAVAILABLE_CLASSES.some((cls) => err instanceof cls)) {
    return new StoreUnavailableError(`MongoDB store unavailable: ${(err as Error).message}`, { cause: err });
  }
  if (err instanceof Error && /client was closed|topology is closed/i.test(err.message)) {
    return new StoreUnavailableError('MongoDB store is closed', { cause: err });
  }
  return err;
}

/** E11000: two concurrent upserts raced to insert the same _id; retrying finds the winner's document. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
