// The channels collection: the crawler's work queue. Every write is one single-document atomic
// operation (findOneAndUpdate / updateOne), so no transactions are needed. Due times and leases are
// on the server's clock (clock.ts), so hosts with skewed clocks agree on them. Updates that depend on
// the document's own fields use update pipelines; values from callers go in as $literal so a
// string starting with `$` is never read as a field path (and no value is read as an operator).

import type { Collection, Db, Filter } from 'mongodb';
import type { BackendMethods } from '../call';
import { refreshCutoff } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import type { ChannelRecord, WorkKind } from '../types';
import { lit, type StoreClock } from './clock';
import { retryOnDuplicateKey } from './errors';

export interface ChannelDoc {
  _id: string;
  /** Absent on documents written before playlists existed: a channel. */
  kind?: WorkKind;
  handle: string | null;
  title: string | null;
  wanted: number;
  dueAt: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  /** `wanted` when the current lease was taken; a larger `wanted` at release means "due again now". */
  claimedWanted: number | null;
  lastCrawlAt: Date | null;
  lastOutcome: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  createdAt: Date;
  /** Absent on documents written before it existed: read as null (unknown). */
  coveredWanted?: number | null;
  /** Some key follows the channel; absent on documents written before subscriptions: false. */
  followed?: boolean;
  /** Last time a reader asked for it; absent on documents written before it was kept (rules.ts). */
  askedAt?: Date | null;
  /** Since when a reader waits for what no run has served yet (new channel, larger wanted); absent = none. */
  awaitedAt?: Date | null;
}

/** The field's current value, or `fallback` on a document being inserted by an upsert. */
const keep = (field: string, fallback: unknown) => ({ $ifNull: [`$${field}`, lit(fallback)] });

export function toRecord(d: ChannelDoc): ChannelRecord {
  return {
    channelId: d._id,
    kind: d.kind === 'playlist' ? 'playlist' : 'channel',
    handle: d.handle ?? null,
    title: d.title ?? null,
    wanted: d.wanted,
    dueAt: d.dueAt,
    leaseOwner: d.leaseOwner ?? null,
    leaseExpiresAt: d.leaseExpiresAt ?? null,
    lastCrawlAt: d.lastCrawlAt ?? null,
    lastOutcome: d.lastOutcome ?? null,
    lastError: d.lastError ?? null,
    consecutiveFailures: d.consecutiveFailures ?? 0,
    createdAt: d.createdAt,
    coveredWanted: d.coveredWanted ?? null,
    followed: d.followed ?? false,
    askedAt: d.askedAt ?? null,
  };
}

/** rules.ts isRefreshed as a filter: followed, asked for since the cutoff, or never stamped. */
export function refreshedFilter(now: Date): Filter<ChannelDoc> {
  return { $or: [{ followed: true }, { askedAt: null }, { askedAt: { $gte: refreshCutoff(now) } }] };
}

export async function channelsIndexes(db: Db): Promise<void> {
  await db.collection<ChannelDoc>('channels').createIndexes([
    { key: { dueAt: 1, _id: 1 }, name: 'due' },
    { key: { followed: 1, _id: 1 }, name: 'followed' },
    { key: { awaitedAt: 1, _id: 1 }, name: 'awaited' },
  ]);
}

export function channelsCollection(db: Db, clock: StoreClock) {
  const col: Collection<ChannelDoc> = db.collection<ChannelDoc>('channels');
  return {
    /**
     * One upsert pipeline: every expression reads the document as it was before this update, so
     * `$wanted` is the old value. An insert is told apart explicitly ($type "missing") instead of
     * leaning on how $gt/$max treat a missing operand. A title, even an empty one, replaces the
     * stored one as in SQLite's COALESCE(excluded.title, title); only null/undefined keeps it.
     */
    async registerChannel(input, now) {
      const title = input.title ?? null;
      const present = clock.now(now);
      const isInsert = { $eq: [{ $type: '$createdAt' }, 'missing'] };
      const grew = { $gt: [lit(input.wanted), '$wanted'] };
      const doc = await retryOnDuplicateKey(() =>
        col.findOneAndUpdate(
          { _id: input.channelId },
          [
            {
              $set: {
                dueAt: { $cond: [isInsert, present, { $cond: [grew, { $min: ['$dueAt', present] }, '$dueAt'] }] },
                awaitedAt: { $cond: [isInsert, present, { $cond: [grew, { $ifNull: ['$awaitedAt', present] }, { $ifNull: ['$awaitedAt', lit(null)] }] }] },
                wanted: { $cond: [isInsert, lit(input.wanted), { $max: ['$wanted', lit(input.wanted)] }] },
                kind: keep('kind', input.kind ?? 'channel'),
                handle: keep('handle', input.handle ? normalizeHandle(input.handle) : null),
                title: title === null ? keep('title', null) : lit(title),
                leaseOwner: keep('leaseOwner', null),
                leaseExpiresAt: keep('leaseExpiresAt', null),
                claimedWanted: keep('claimedWanted', null),
                lastCrawlAt: keep('lastCrawlAt', null),
                lastOutcome: keep('lastOutcome', null),
                lastError: keep('lastError', null),
                consecutiveFailures: keep('consecutiveFailures', 0),
                createdAt: { $ifNull: ['$createdAt', present] },
                coveredWanted: keep('coveredWanted', null),
                followed: keep('followed', false),
                askedAt: { $max: [keep('askedAt', now), lit(now)] },
              },
            },
          ],
          { upsert: true, returnDocument: 'after' },
        ),
      );
      if (!doc) throw new Error(`registerChannel ${input.channelId}: upsert returned no document`);
      return toRecord(doc);
    },

    async getChannel(channelId) {
      const doc = await col.findOne({ _id: channelId });
      return doc ? toRecord(doc) : null;
    },

    async nameChannel(channelId, title) {
      await col.updateOne({ _id: channelId, title: { $ne: title } }, { $set: { title } });
    },

    /** Due and lease free or expired by the server's clock, so a host whose clock runs ahead takes no live lease. */
    async claimDueChannel(owner, leaseMs, now) {
      const present = clock.now(now);
      const doc = await col.findOneAndUpdate(
        {
          $expr: { $lte: ['$dueAt', present] },
          $and: [{ $or: [{ leaseOwner: null }, { $expr: { $lte: ['$leaseExpiresAt', present] } }] }, refreshedFilter(now)],
        },
        [{ $set: { leaseOwner: lit(owner), leaseExpiresAt: clock.after(now, leaseMs), claimedWanted: '$wanted' } }],
        { sort: { dueAt: 1, _id: 1 }, returnDocument: 'after' },
      );
      return doc ? toRecord(doc) : null;
    },

    /** What a reader is waiting for runs before the rhythm's backlog: the one waiting longest first. */
    async claimAskedChannel(owner, leaseMs, now) {
      const doc = await col.findOneAndUpdate(
        { awaitedAt: { $ne: null }, dueAt: { $lte: now }, $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lte: now } }] },
        [{ $set: { leaseOwner: lit(owner), leaseExpiresAt: lit(new Date(now.getTime() + leaseMs)), claimedWanted: '$wanted' } }],
        { sort: { awaitedAt: 1, _id: 1 }, returnDocument: 'after' },
      );
      return doc ? toRecord(doc) : null;
    },

    async listingBacklog(now) {
      const filter: Filter<ChannelDoc> = { dueAt: { $lte: now }, $and: [{ $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lte: now } }] }, refreshedFilter(now)] };
      const [due, oldest] = await Promise.all([
        col.countDocuments(filter),
        col.find(filter, { projection: { dueAt: 1 } }).sort({ dueAt: 1, _id: 1 }).limit(1).next(),
      ]);
      return { due, oldestDueAt: oldest?.dueAt ?? null };
    },

    /** Succeeds while nobody took the channel over, even a little after the lease expired. */
    async renewLease(channelId, owner, leaseMs, now) {
      const res = await col.updateOne({ _id: channelId, leaseOwner: owner }, [{ $set: { leaseExpiresAt: clock.after(now, leaseMs) } }]);
      return res.matchedCount === 1;
    },

    async releaseChannel(channelId, owner, result, now) {
      const title = result.title ?? null;
      const grewDuringLease = { $gt: ['$wanted', { $ifNull: ['$claimedWanted', '$wanted'] }] };
      // The caller chose the next due time on its own clock: the same delay, on the server's.
      const nextDue = clock.shift(result.nextDueAt, now);
      const present = clock.now(now);
      const res = await col.updateOne({ _id: channelId, leaseOwner: owner }, [
        {
          $set: {
            dueAt: { $cond: [grewDuringLease, { $min: [nextDue, present] }, nextDue] },
            awaitedAt: { $cond: [grewDuringLease, { $ifNull: ['$awaitedAt', lit(null)] }, lit(null)] },
            leaseOwner: lit(null),
            leaseExpiresAt: lit(null),
            claimedWanted: lit(null),
            lastCrawlAt: present,
            lastOutcome: lit(result.outcome),
            lastError: lit(result.error ?? null),
            consecutiveFailures: lit(result.consecutiveFailures),
            title: title === null ? '$title' : lit(title),
            coveredWanted: lit(result.coveredWanted ?? null),
          },
        },
      ]);
      return res.matchedCount === 1;
    },

    async reclaimLeases(owner, now) {
      const res = await col.updateMany({ leaseOwner: owner }, [
        { $set: { leaseOwner: lit(null), leaseExpiresAt: lit(null), claimedWanted: lit(null), dueAt: { $min: ['$dueAt', clock.now(now)] } } },
      ]);
      return res.modifiedCount;
    },

    /** Returns how many channels were moved earlier (those already due or backing off are left alone). */
    async markAllDue(now) {
      // A channel backing off after failures keeps its due time: the refresh must not cancel a backoff.
      const present = clock.now(now);
      const res = await col.updateMany({ $expr: { $gt: ['$dueAt', present] }, consecutiveFailures: 0, ...refreshedFilter(now) }, [{ $set: { dueAt: present } }]);
      return res.modifiedCount;
    },
  } satisfies Partial<BackendMethods>;
}
