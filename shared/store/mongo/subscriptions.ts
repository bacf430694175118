// The subscriptions collection: which channels each API key follows, one document per (key, ref)
// where `ref` is the channel id, or '@handle' until the crawler resolves it. A follow is two
// unordered bulkWrites (the subscriptions, then the channels' work items), never one write per
// channel. A channel's `followed` flag is what the crawler's selection reads (channels.ts
// refreshedFilter); without a transaction, unfollow clears it and then checks again, so a follow
// racing with the last unfollow leaves the flag set, never cleared under a follower. A followed
// playlist is a document like a channel's (ref and channelId = the playlist id, kind 'playlist'; a
// document without kind is a channel's), its work item of kind 'playlist' in channels. An imported
// channel the store does not know waits in its key's queue (queuedKind set, no work item) until
// import-queue.ts gives it to the crawler within the key's hourly allowance; handles are resolved in
// turns by key, each platform ask stamped on the asking key's document (handleAskedAt).

import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { asksNothing, DEFAULT_FEED_KINDS } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import type { HandleTurn, SubscriptionFeedEntry, SubscriptionInput, SubscriptionSource, VideoKind, WorkKind } from '../types';
import { toRecord as toChannelRecord, type ChannelDoc } from './channels';
import { retryOnDuplicateKey } from './errors';
import type { VideoDoc } from './videos';

interface PlaylistVideoIds {
  _id: string;
  videoIds: string[];
  changedAt?: Date;
}

interface SubscriptionDoc {
  /** `<keyId>/<ref>`: one document per key and channel (or handle). */
  _id: string;
  keyId: string;
  ref: string;
  channelId: string | null;
  handle: string | null;
  title: string | null;
  source: SubscriptionSource;
  since: Date;
  checkedAt: Date | null;
  /** Set on a playlist's subscription only. */
  kind?: 'playlist';
  /** Set while the import waits in the key's queue (no work item yet): what it will be. */
  queuedKind?: WorkKind;
  /** When the platform was last asked for this handle in this key's turn (kept when it becomes a channel's). */
  handleAskedAt?: Date;
}

interface HandleDoc {
  _id: string;
  channelId: string;
  resolvedAt: Date;
}

const handleRef = (handle: string): string => `@${handle}`;
const HOUR_MS = 3_600_000;
const docId = (keyId: string, ref: string): string => `${keyId}/${ref}`;

export async function subscriptionsIndexes(db: Db): Promise<void> {
  await db.collection<SubscriptionDoc>('subscriptions').createIndexes([
    { key: { keyId: 1, since: 1, ref: 1 }, name: 'key_since' },
    { key: { channelId: 1 }, name: 'channel' },
    { key: { handle: 1, checkedAt: 1 }, name: 'handle_checked' },
  ]);
}

/** A key's handle asks of the hour (its queued imports in order are read through key_since). */
export async function importQueueIndexes(db: Db): Promise<void> {
  await db.collection<SubscriptionDoc>('subscriptions').createIndexes([
    { key: { handleAskedAt: 1, keyId: 1 }, name: 'handle_asks', partialFilterExpression: { handleAskedAt: { $type: 'date' } } },
  ]);
  // The newest write among all feed entries (subscriptionFeedVersion), one index read.
  await db.collection<VideoDoc>('videos').createIndexes([{ key: { inFeed: 1, fetchedAt: -1 }, name: 'feed_written' }]);
  // The newest playlist listing change (a followed playlist's new order or entries), one index read.
  await db.collection<PlaylistVideoIds>('playlists').createIndexes([{ key: { changedAt: -1 }, name: 'changed' }]);
}

/** A followed channel's work item: created as registerChannel would (due now), else marked followed and asked for. */
function followChannelOp(channelId: string, kind: WorkKind, handle: string | null, wanted: number, now: Date): AnyBulkWriteOperation<ChannelDoc> {
  return {
    updateOne: {
      filter: { _id: channelId },
      update: {
        $set: { followed: true },
        $max: { askedAt: now },
        $setOnInsert: {
          kind, handle, title: null, wanted, dueAt: now, leaseOwner: null, leaseExpiresAt: null, claimedWanted: null, lastCrawlAt: null,
          lastOutcome: null, lastError: null, consecutiveFailures: 0, createdAt: now, coveredWanted: null,
        },
      },
      upsert: true,
    },
  };
}

export function subscriptionsCollection(db: Db) {
  const col: Collection<SubscriptionDoc> = db.collection<SubscriptionDoc>('subscriptions');
  const channels: Collection<ChannelDoc> = db.collection<ChannelDoc>('channels');
  const handles: Collection<HandleDoc> = db.collection<HandleDoc>('handles');
  const videos: Collection<VideoDoc> = db.collection<VideoDoc>('videos');
  /** Per key, a counter of changes to its subscriptions: half of the combined feed's version. */
  const changes: Collection<{ _id: string; changes: number }> = db.collection('subscription_changes');
  const changed = async (keyIds: readonly string[]): Promise<void> => {
    if (asksNothing(keyIds)) return;
    await retryOnDuplicateKey(() => changes.bulkWrite([...new Set(keyIds)].map((k) => ({ updateOne: { filter: { _id: k }, update: { $inc: { changes: 1 } }, upsert: true } })), { ordered: false }));
  };

  /** Sets `followed` to whether anyone still follows the channel; cleared first, then checked again. */
  const refollow = async (channelId: string): Promise<void> => {
    if ((await col.countDocuments({ channelId }, { limit: 1 })) > 0) return;
    await channels.updateOne({ _id: channelId }, { $set: { followed: false } });
    if ((await col.countDocuments({ channelId }, { limit: 1 })) > 0) await channels.updateOne({ _id: channelId }, { $set: { followed: true } });
  };

  /** Channel titles as the crawler saw them (empty ones left out). */
  const titlesOf = async (channelIds: readonly string[]): Promise<Map<string, string>> => {
    if (asksNothing(channelIds)) return new Map();
    const docs = await channels.find({ _id: { $in: [...new Set(channelIds)] } }, { projection: { title: 1 } }).toArray();
    return new Map(docs.flatMap((d) => (d.title ? [[d._id, d.title] as [string, string]] : [])));
  };

  return {
    async follow(keyId, subs, source, wanted, now, opts = {}) {
      if (asksNothing(subs)) return [];
      const asHandles = subs.flatMap((s: SubscriptionInput) => (s.handle === undefined ? [] : [normalizeHandle(s.handle)]));
      const cached = new Map(
        asHandles.length === 0 ? [] : (await handles.find({ _id: { $in: [...new Set(asHandles)] } }).toArray()).map((d) => [d._id, d.channelId] as const),
      );
      // With queueNew, a channel nobody has asked for yet waits in the key's queue.
      const ids = subs.flatMap((s: SubscriptionInput) => {
        const id = s.channelId ?? (s.handle === undefined ? undefined : cached.get(normalizeHandle(s.handle)));
        return id === undefined ? [] : [id];
      });
      const known = opts.queueNew !== true || ids.length === 0 ? null : new Set((await channels.find({ _id: { $in: [...new Set(ids)] } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
      const ops: AnyBulkWriteOperation<SubscriptionDoc>[] = [];
      const opIndex: (number | null)[] = []; // per input: its op, or null when it repeats an earlier input
      const seen = new Set<string>();
      const followed = new Map<string, { kind: WorkKind; handle: string | null }>();
      for (const sub of subs) {
        const handle = sub.handle === undefined ? null : normalizeHandle(sub.handle);
        const channelId = sub.channelId ?? (handle === null ? undefined : cached.get(handle)) ?? null;
        const ref = channelId ?? handleRef(handle!);
        if (seen.has(ref)) {
          opIndex.push(null);
          continue;
        }
        seen.add(ref);
        opIndex.push(ops.length);
        const queue = known !== null && channelId !== null && !known.has(channelId);
        const doc: Omit<SubscriptionDoc, '_id'> = {
          keyId, ref, channelId, handle: channelId === null ? handle : null, title: sub.title ?? null, source, since: now, checkedAt: null,
          ...(sub.kind === 'playlist' ? { kind: 'playlist' as const } : {}),
          ...(queue ? { queuedKind: sub.kind ?? 'channel' } : {}),
        };
        ops.push({ updateOne: { filter: { _id: docId(keyId, ref) }, update: { $setOnInsert: doc }, upsert: true } });
        if (channelId !== null && !queue && !followed.has(channelId)) followed.set(channelId, { kind: sub.kind ?? 'channel', handle });
      }
      const res = await retryOnDuplicateKey(() => col.bulkWrite(ops, { ordered: false }));
      const inserted = new Set(Object.keys(res.upsertedIds).map(Number));
      if (inserted.size > 0) await changed([keyId]);
      if (followed.size > 0) {
        const channelOps = [...followed].map(([channelId, { kind, handle }]) => followChannelOp(channelId, kind, handle, wanted, now));
        await retryOnDuplicateKey(() => channels.bulkWrite(channelOps, { ordered: false }));
      }
      return opIndex.map((i) => i !== null && inserted.has(i));
    },

    async unfollow(keyId, ref) {
      const r = ref.startsWith('@') ? handleRef(normalizeHandle(ref)) : ref;
      const doc = await col.findOneAndDelete({ _id: docId(keyId, r) });
      if (doc === null) return false;
      await changed([keyId]);
      if (doc.channelId !== null) {
        await refollow(doc.channelId);
        // Nobody follows the channel any more: its push subscription is due now (the crawler ends it).
        if ((await col.countDocuments({ channelId: doc.channelId }, { limit: 1 })) === 0) {
          await db.collection<{ _id: string }>('websub').updateOne({ _id: doc.channelId }, { $set: { nextActionAt: new Date(0) } });
        }
      }
      return true;
    },

    async listSubscriptions(keyId) {
      const docs = await col.find({ keyId }).sort({ since: 1, ref: 1 }).toArray();
      const titles = await titlesOf(docs.flatMap((d) => (d.channelId === null ? [] : [d.channelId])));
      return docs.map((d) => ({
        channelId: d.channelId ?? null,
        kind: d.kind === 'playlist' || d.queuedKind === 'playlist' ? ('playlist' as const) : ('channel' as const),
        handle: d.handle ?? null,
        title: (d.channelId !== null ? titles.get(d.channelId) : undefined) ?? d.title ?? null,
        source: d.source,
        since: d.since,
      }));
    },

    async followedChannels(afterChannelId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await channels.find({ followed: true, kind: { $ne: 'playlist' }, _id: { $gt: afterChannelId ?? '' } }).sort({ _id: 1 }).limit(limit).toArray();
      return docs.map(toChannelRecord);
    },

    /**
     * The key's channel ids, then one query over the videos' feed index: `$in` on its leading
     * field with the sort on the next ones, which the server answers by merging the channels'
     * index ranges newest first (SORT_MERGE), reading about `limit` entries, not every channel's.
     * Followed playlists: their listed video ids (one query over those playlists), then one query
     * by `_id` for the newest `limit` of them; the two lists are merged here.
     */
    async subscriptionFeed(keyId, limit, kinds = DEFAULT_FEED_KINDS) {
      if (asksNothing(limit) || asksNothing(kinds)) return [];
      const subs = await col.find({ keyId, channelId: { $ne: null } }, { projection: { channelId: 1, title: 1, kind: 1 } }).toArray();
      if (subs.length === 0) return [];
      const shown: (VideoKind | null)[] = kinds.includes('regular') ? [...kinds, null] : [...kinds];
      const newest = (filter: object) =>
        videos
          .find({ ...filter, inFeed: true, videoKind: { $in: shown } }, { projection: { channelId: 1, publishedAt: 1, fetchedAt: 1 } })
          .sort({ publishedAt: -1, _id: 1 })
          .limit(limit)
          .toArray();
      const channelIds = subs.flatMap((s) => (s.kind === 'playlist' ? [] : [s.channelId!]));
      const playlistIds = subs.flatMap((s) => (s.kind === 'playlist' ? [s.channelId!] : []));
      const listed =
        playlistIds.length === 0
          ? []
          : await db
              .collection<PlaylistVideoIds>('playlists')
              .find({ _id: { $in: playlistIds }, state: 'listed' }, { projection: { videoIds: 1 } })
              .toArray();
      const playlistVideoIds = [...new Set(listed.flatMap((p) => p.videoIds ?? []))];
      const [ofChannels, ofPlaylists] = await Promise.all([
        channelIds.length === 0 ? [] : newest({ channelId: { $in: channelIds } }),
        playlistVideoIds.length === 0 ? [] : newest({ _id: { $in: playlistVideoIds } }),
      ]);
      const byId = new Map([...ofChannels, ...ofPlaylists].map((d) => [d._id, d]));
      const docs = [...byId.values()]
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
        .slice(0, limit);
      const titles = await titlesOf(docs.map((d) => d.channelId));
      const given = new Map(subs.map((s) => [s.channelId!, s.title]));
      return docs.map(
        (d): SubscriptionFeedEntry => ({
          videoId: d._id,
          channelId: d.channelId,
          publishedAt: d.publishedAt,
          fetchedAt: d.fetchedAt,
          channelTitle: titles.get(d.channelId) ?? given.get(d.channelId) ?? null,
        }),
      );
    },

    async subscriptionFeedVersion(keyId) {
      const [written, counter, listed] = await Promise.all([
        videos.findOne({ inFeed: true }, { sort: { fetchedAt: -1 }, projection: { fetchedAt: 1 } }),
        changes.findOne({ _id: keyId }),
        db.collection<PlaylistVideoIds>('playlists').findOne({}, { sort: { changedAt: -1 }, projection: { changedAt: 1 } }),
      ]);
      return `${written?.fetchedAt.getTime() ?? 0}:${counter?.changes ?? 0}:${listed?.changedAt?.getTime() ?? 0}`;
    },

    /** Each key's due handles oldest first, then its asks of the hour: the turns are dealt here, as SQLite's query deals them. */
    async subscribedHandlesToResolve(retryBefore, limit, perKeyHour, now) {
      if (asksNothing(limit) || asksNothing(perKeyHour)) return [];
      const [due, asked] = await Promise.all([
        col
          .aggregate<{ _id: string; handles: string[] }>([
            { $match: { handle: { $ne: null }, $or: [{ checkedAt: null }, { checkedAt: { $lt: retryBefore } }] } },
            { $sort: { keyId: 1, since: 1, handle: 1 } },
            { $group: { _id: '$keyId', handles: { $push: '$handle' } } },
            { $project: { handles: { $slice: ['$handles', perKeyHour] } } },
          ])
          .toArray(),
        col
          .aggregate<{ _id: string; asks: number; last: Date }>([
            { $match: { handleAskedAt: { $gte: new Date(now.getTime() - HOUR_MS) } } },
            { $group: { _id: '$keyId', asks: { $sum: 1 }, last: { $max: '$handleAskedAt' } } },
          ])
          .toArray(),
      ]);
      const asks = new Map(asked.map((a) => [a._id, a]));
      const keys = due
        .map((d) => ({ keyId: d._id, handles: d.handles.slice(0, Math.max(0, perKeyHour - (asks.get(d._id)?.asks ?? 0))), last: asks.get(d._id)?.last.getTime() ?? 0 }))
        .sort((a, b) => a.last - b.last || (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
      const turns: HandleTurn[] = [];
      for (let turn = 0; turns.length < limit && keys.some((k) => k.handles.length > turn); turn++) {
        for (const k of keys) {
          if (turns.length >= limit) break;
          const handle = k.handles[turn];
          if (handle !== undefined && handle !== null) turns.push({ keyId: k.keyId, handle });
        }
      }
      return turns;
    },

    async resolveSubscribedHandle(handle, channelId, wanted, now, opts = {}) {
      const h = normalizeHandle(handle);
      const askedBy = opts.askedBy ?? null;
      if (askedBy !== null) await col.updateMany({ keyId: askedBy, handle: h }, { $set: { handleAskedAt: now } });
      if (channelId === null) {
        await col.updateMany({ handle: h }, { $set: { checkedAt: now } });
        return;
      }
      await handles.updateOne({ _id: h }, { $set: { channelId, resolvedAt: now } }, { upsert: true });
      const waiting = await col.find({ handle: h }).toArray();
      if (waiting.length > 0) {
        // With queueNew, an unknown channel waits in each key's queue; a known one is followed at once.
        const isKnown = opts.queueNew !== true || (await channels.countDocuments({ _id: channelId }, { limit: 1 })) > 0;
        // The channel's subscriptions first, then the handle's go: a crash in between leaves both, and the next run moves none twice.
        const ops: AnyBulkWriteOperation<SubscriptionDoc>[] = waiting.map((d) => ({
          updateOne: {
            filter: { _id: docId(d.keyId, channelId) },
            update: {
              $setOnInsert: {
                keyId: d.keyId, ref: channelId, channelId, handle: null, title: d.title, source: d.source, since: d.since, checkedAt: null,
                ...(d.handleAskedAt ? { handleAskedAt: d.handleAskedAt } : {}),
                ...(isKnown ? {} : { queuedKind: 'channel' as const }),
              },
            },
            upsert: true,
          },
        }));
        await retryOnDuplicateKey(() => col.bulkWrite(ops, { ordered: false }));
        if (isKnown) await retryOnDuplicateKey(() => channels.bulkWrite([followChannelOp(channelId, 'channel', h, wanted, now)], { ordered: false }));
        await col.deleteMany({ handle: h });
        await changed(waiting.map((d) => d.keyId));
      }
    },

    async queuedImports(keyId, limit) {
      if (asksNothing(limit)) return [];
      const docs = await col.find({ keyId, queuedKind: { $type: 'string' } }, { projection: { channelId: 1, queuedKind: 1 } }).sort({ since: 1, ref: 1 }).limit(limit).toArray();
      return docs.flatMap((d) => (d.channelId === null ? [] : [{ channelId: d.channelId, kind: d.queuedKind === 'playlist' ? ('playlist' as const) : ('channel' as const) }]));
    },

    async dequeueImports(keyId, channelIds, now) {
      if (asksNothing(channelIds)) return;
      const ids = [...new Set(channelIds)];
      // The work item is marked followed first: a crash in between leaves the import queued, and the next release repeats both.
      await channels.updateMany({ _id: { $in: ids } }, { $set: { followed: true }, $max: { askedAt: now } });
      await col.updateMany({ _id: { $in: ids.map((id) => docId(keyId, id)) } }, { $unset: { queuedKind: '' } });
    },

    async importQueues(keyId = null) {
      const rows = await col
        .aggregate<{ _id: string; queued: number; handles: number }>([
          { $match: { ...(keyId === null ? {} : { keyId }), $or: [{ queuedKind: { $type: 'string' } }, { handle: { $type: 'string' } }] } },
          {
            $group: {
              _id: '$keyId',
              queued: { $sum: { $cond: [{ $eq: [{ $type: '$queuedKind' }, 'string'] }, 1, 0] } },
              handles: { $sum: { $cond: [{ $eq: [{ $type: '$handle' }, 'string'] }, 1, 0] } },
            },
          },
          { $sort: { _id: 1 } },
        ])
        .toArray();
      const queues = rows.map((r) => ({ keyId: r._id, queued: r.queued, handles: r.handles }));
      if (keyId !== null && queues.length === 0) return [{ keyId, queued: 0, handles: 0 }];
      return queues;
    },
  } satisfies Partial<BackendMethods>;
}
