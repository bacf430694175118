// The playlists table: what the crawler last listed of each playlist, one row per playlist, the
// entries' order as a JSON array of video ids. Written in one immediate transaction that compares
// with the stored row, so changedAt moves only when something changed.

import type Database from 'better-sqlite3';
import type { BackendMethods } from '../call';
import { playlistChanged, readablePlaylist } from '../rules';
import type { PlaylistRecord } from '../types';

interface PlaylistRow {
  playlist_id: string;
  title: string | null;
  owner: string | null;
  owner_channel_id: string | null;
  state: string;
  video_ids: string;
  listed_at: number;
  changed_at: number;
}

function toRecord(r: PlaylistRow): PlaylistRecord | null {
  let videoIds: unknown;
  try {
    videoIds = JSON.parse(r.video_ids);
  } catch {
    videoIds = null;
  }
  return readablePlaylist({
    playlistId: r.playlist_id,
    title: r.title,
    owner: r.owner,
    ownerChannelId: r.owner_channel_id,
    state: r.state,
    videoIds,
    listedAt: new Date(r.listed_at),
    changedAt: new Date(r.changed_at),
  });
}

function prepare(db: Database.Database) {
  const get = db.prepare<[string], PlaylistRow>('SELECT * FROM playlists WHERE playlist_id = ?');
  const put = db.prepare<PlaylistRow>(`
    INSERT INTO playlists (playlist_id, title, owner, owner_channel_id, state, video_ids, listed_at, changed_at)
    VALUES (@playlist_id, @title, @owner, @owner_channel_id, @state, @video_ids, @listed_at, @changed_at)
    ON CONFLICT (playlist_id) DO UPDATE SET
      title = excluded.title, owner = excluded.owner, owner_channel_id = excluded.owner_channel_id,
      state = excluded.state, video_ids = excluded.video_ids, listed_at = excluded.listed_at,
      changed_at = excluded.changed_at`);
  const putTx = db.transaction((p: Omit<PlaylistRecord, 'changedAt' | 'listedAt'>, now: number): PlaylistRecord => {
    const before = get.get(p.playlistId);
    const previous = before ? toRecord(before) : null;
    const changedAt = previous !== null && !playlistChanged(previous, p) ? previous.changedAt.getTime() : now;
    put.run({
      playlist_id: p.playlistId,
      title: p.title,
      owner: p.owner,
      owner_channel_id: p.ownerChannelId,
      state: p.state,
      video_ids: JSON.stringify(p.videoIds),
      listed_at: now,
      changed_at: changedAt,
    });
    return { ...p, videoIds: [...p.videoIds], listedAt: new Date(now), changedAt: new Date(changedAt) };
  });
  return { get, putTx };
}

export function playlistsTable(db: Database.Database) {
  const sql = prepare(db);
  return {
    putPlaylist: (playlist, now) => sql.putTx.immediate(playlist, now.getTime()),
    getPlaylist(playlistId) {
      const row = sql.get.get(playlistId);
      return row ? toRecord(row) : null;
    },
  } satisfies Partial<BackendMethods>;
}
