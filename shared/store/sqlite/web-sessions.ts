// The web_sessions table: one row per signed-in browser, keyed by the SHA-256 of its cookie's id.
// touch is one UPDATE … RETURNING, so two API processes serving the same browser never lose a session
// nor bring an idle one back.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import type { WebSessionRecord } from '../types';

interface Row {
  id_hash: string;
  key_id: string;
  csrf: string;
  created_at: number;
  last_seen_at: number;
}

const toRecord = (r: Row): WebSessionRecord => ({
  idHash: r.id_hash, keyId: r.key_id, csrf: r.csrf, createdAt: new Date(r.created_at), lastSeenAt: new Date(r.last_seen_at),
});

export function webSessionsTable(db: Database.Database) {
  const put = db.prepare<[string, string, string, number, number]>(`
    INSERT INTO web_sessions (id_hash, key_id, csrf, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (id_hash) DO UPDATE SET key_id = excluded.key_id, csrf = excluded.csrf,
      created_at = excluded.created_at, last_seen_at = excluded.last_seen_at`);
  // A later now only: a request that was slower than a newer one must not move lastSeenAt back.
  const touch = db.prepare<[number, string, number], Row>(`
    UPDATE web_sessions SET last_seen_at = max(last_seen_at, ?)
    WHERE id_hash = ? AND last_seen_at >= ? RETURNING *`);
  const remove = db.prepare<[string]>('DELETE FROM web_sessions WHERE id_hash = ?');
  const removeIdle = db.prepare<[number]>('DELETE FROM web_sessions WHERE last_seen_at < ?');
  return {
    putWebSession(r) {
      put.run(r.idHash, r.keyId, r.csrf, r.createdAt.getTime(), r.lastSeenAt.getTime());
    },
    touchWebSession(idHash, idleMs, now) {
      const [row] = touch.all(now.getTime(), idHash, now.getTime() - idleMs);
      if (row !== undefined) return toRecord(row);
      remove.run(idHash);
      return null;
    },
    deleteWebSession(idHash) {
      remove.run(idHash);
    },
    deleteIdleWebSessions(idleMs, now) {
      return removeIdle.run(now.getTime() - idleMs).changes;
    },
  } satisfies Partial<BackendMethods>;
}
