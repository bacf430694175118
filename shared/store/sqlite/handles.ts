// The handle cache: handles → channel id (resolved on the platform once), and handles the platform
// said do not exist (believed for UNKNOWN_HANDLE_TTL_MS, then asked again).

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { UNKNOWN_HANDLE_TTL_MS, unknownHandleHolds } from '../rules';
import { normalizeHandle } from '../../channel-ref';

function prepare(db: Database.Database) {
  const get = db.prepare<[string], string>('SELECT channel_id FROM handles WHERE handle = ?').pluck();
  const put = db.prepare<[string, string, number]>(`
    INSERT INTO handles (handle, channel_id, resolved_at) VALUES (?, ?, ?)
    ON CONFLICT (handle) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at`);
  const unknownAt = db.prepare<[string], number>('SELECT checked_at FROM unknown_handles WHERE handle = ?').pluck();
  const putUnknown = db.prepare<[string, number]>(`
    INSERT INTO unknown_handles (handle, checked_at) VALUES (?, ?)
    ON CONFLICT (handle) DO UPDATE SET checked_at = excluded.checked_at`);
  const pruneUnknown = db.prepare<[number]>('DELETE FROM unknown_handles WHERE checked_at < ?');
  return { get, put, unknownAt, putUnknown, pruneUnknown };
}

export function handlesTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    getHandle: (handle) => sql.get.get(normalizeHandle(handle)) ?? null,
    putHandle(handle, channelId, now) {
      sql.put.run(normalizeHandle(handle), channelId, now.getTime());
    },
    putUnknownHandle(handle, now) {
      sql.putUnknown.run(normalizeHandle(handle), now.getTime());
      // Expired answers are never read again: the table holds at most an hour of junk handles.
      sql.pruneUnknown.run(now.getTime() - UNKNOWN_HANDLE_TTL_MS);
    },
    isUnknownHandle(handle, now) {
      const at = sql.unknownAt.get(normalizeHandle(handle));
      return at !== undefined && unknownHandleHolds(at, now);
    },
  } satisfies Partial<BackendMethods>;
}
