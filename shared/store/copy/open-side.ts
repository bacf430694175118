// Opens one end of a copy by its DATABASE_URL. The store is opened through openStore first, so the
// schema is created or migrated (and MongoDB's indexes made) exactly as the service does, then
// the copy works on the database itself.

import type { Logger } from '../../logger';
import { openStore, sqlitePath } from '../index';
import { DEFAULT_DB_NAME, dbNameFromUrl } from '../mongo/mongo-store';
import { openDatabase } from '../sqlite/open-database';
import { mongoSide, sqliteSide, type CopySide } from './sides';

export async function openCopySide(databaseUrl: string, opts: { logger: Logger; rootDir?: string }): Promise<CopySide> {
  const store = await openStore(databaseUrl, { logger: opts.logger, rootDir: opts.rootDir });
  await store.close();
  if (databaseUrl.startsWith('sqlite:')) {
    const file = sqlitePath(databaseUrl, opts.rootDir ?? process.cwd());
    if (file === ':memory:') throw new Error('store:copy needs a SQLite file, not :memory:');
    const db = openDatabase(file);
    return sqliteSide(db, () => db.close());
  }
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(databaseUrl, { serverSelectionTimeoutMS: 5000, appName: 'transcript-feed store:copy' });
  await client.connect();
  return mongoSide(client.db(dbNameFromUrl(databaseUrl) ?? DEFAULT_DB_NAME), () => client.close());
}
