// The playlists collection: what the crawler last listed of each playlist, one document per
// playlist (its entries' order as an array of video ids). One upsert pipeline compares the new
// listing with the stored one, so changedAt moves only when something changed; every caller value
// goes in as $literal.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { readablePlaylist } from '../rules';
import type { PlaylistRecord } from '../types';
import { retryOnDuplicateKey } from './errors';

/** The record under its playlist id as `_id`. */
type PlaylistDoc = Omit<PlaylistRecord, 'playlistId'> & { _id: string };

const lit = (value: unknown) => ({ $literal: value });

function toRecord(d: PlaylistDoc): PlaylistRecord | null {
  return readablePlaylist({
    playlistId: d._id,
    title: d.title ?? null,
    owner: d.owner ?? null,
    ownerChannelId: d.ownerChannelId ?? null,
    state: d.state,
    videoIds: d.videoIds,
    listedAt: d.listedAt,
    changedAt: d.changedAt,
  });
}

export function playlistsCollection(db: Db) {
  const col: Collection<PlaylistDoc> = db.collection<PlaylistDoc>('playlists');
  return {
    async putPlaylist(p, now) {
      const fields = { title: p.title, owner: p.owner, ownerChannelId: p.ownerChannelId, state: p.state, videoIds: [...p.videoIds] };
      const changed = {
        $or: [
          { $eq: [{ $type: '$changedAt' }, 'missing'] },
          ...Object.entries(fields).map(([name, value]) => ({ $ne: [{ $ifNull: [`$${name}`, null] }, lit(value)] })),
        ],
      };
      const doc = await retryOnDuplicateKey(() =>
        col.findOneAndUpdate(
          { _id: p.playlistId },
          [{ $set: { changedAt: { $cond: [changed, lit(now), '$changedAt'] } } }, { $set: { ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, lit(v)])), listedAt: lit(now) } }],
          { upsert: true, returnDocument: 'after' },
        ),
      );
      const record = doc ? toRecord(doc) : null;
      if (!record) throw new Error(`putPlaylist ${p.playlistId}: upsert returned no readable document`);
      return record;
    },

    async getPlaylist(playlistId) {
      const doc = await col.findOne({ _id: playlistId });
      return doc ? toRecord(doc) : null;
    },
  } satisfies Partial<BackendMethods>;
}
