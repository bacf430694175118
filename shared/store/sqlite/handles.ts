// The handles table: a cache of handle → channel id, so a handle is resolved on the platform once.

import type Database from 'better-sqlite3';
import { normalizeHandle } from '../normalize';

function prepare(db: Database.Database) {
  const get = db.prepare<[string], string>('SELECT channel_id FROM handles WHERE handle = ?').pluck();
  const put = db.prepare<[string, string, number]>(`
    INSERT INTO handles (handle, channel_id, resolved_at) VALUES (?, ?, ?)
    ON CONFLICT (handle) DO UPDATE SET channel_id = excluded.channel_id, resolved_at = excluded.resolved_at`);
  return { get, put };
}

export class HandlesTable {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(db: Database.Database) {
    this.sql = prepare(db);
  }

  getHandle(handle: string): string | null {
    return this.sql.get.get(normalizeHandle(handle)) ?? null;
  }

  putHandle(handle: string, channelId: string, now: Date): void {
    this.sql.put.run(normalizeHandle(handle), channelId, now.getTime());
  }
}
