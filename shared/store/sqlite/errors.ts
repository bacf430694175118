// Turns the SQLite failures that mean "the database cannot serve right now" into
// StoreUnavailableError (the API answers 500, the crawler retries later). Anything else is a bug
// or a constraint violation and is rethrown as is.

import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../types';

const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

export function toStoreError(err: unknown): unknown {
  if (err instanceof StoreUnavailableError) return err;
  if (err instanceof Database.SqliteError && UNAVAILABLE_CODES.test(err.code)) {
    return new StoreUnavailableError(`SQLite store unavailable: ${err.message}`, { cause: err });
  }
  // better-sqlite3 throws a plain TypeError once the connection is closed.
  if (err instanceof TypeError && /database connection is not open/i.test(err.message)) {
    return new StoreUnavailableError('SQLite store is closed', { cause: err });
  }
  return err;
}
