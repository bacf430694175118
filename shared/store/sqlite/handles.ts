// The handles table: a cache of handle → channel id, so a handle is resolved on the platform once.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { normalizeHandle } from '../rules';

function prepare(db: Database.Database) {
  const get = db.prepare<[string], string>('SELECT channel_id FROM handles WHERE handle = ?').pluck();
  const put = db.prepare<[string, string, number]>(`
    INSERT INTO handles (handle, channel_id, resolved_at) VALUES (?, ?, ?)
    ON CONFLICT (handle) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at`);
  return { get, put };
}

export function handlesTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    getHandle: (handle) => sql.get.get(normalizeHandle(handle)) ?? null,
    putHandle(handle, channelId, now) {
      sql.put.run(normalizeHandle(handle), channelId, now.getTime());
    },
  } satisfies Partial<BackendMethods>;
}
