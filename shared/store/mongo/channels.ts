// The channels collection: the crawler's work queue. Every write is one single-document atomic
// operation (findOneAndUpdate / updateOne), so no transactions are needed. Due times and leases are
// on the server's clock (clock.ts), so hosts with skewed clocks agree on them. Updates that depend on
// the document's own fields use update pipelines; values from callers go in as $literal so a
// string starting with `$` is never read as a field path (and no value is read as an operator).

import type { Collection, Db, Filter } from 'mongodb';
import type { BackendMethods } from '../call';
import { refreshCutoff } from '../rules';
import { normalizeHandle } from '../../channel-ref';
import type { ChannelRecord } from '../types';
import { lit, type StoreClock } from './clock';
import { retryOnDuplicateKey } from './errors';

/**
 * Fields added after the first documents were written: absent on older ones, which toRecord reads
 * as a channel (kind), unknown (coveredWanted), not followed, never stamped (askedAt) and nothing
 * awaited.
 */
type AddedLater = 'kind' | 'coveredWanted' | 'followed' | 'askedAt' | 'awaitedAt' | 'awaitedBy';

/** The record under its id as `_id`, with what only the collection keeps. */
export type ChannelDoc = Omit<ChannelRecord, 'channelId' | AddedLater> & Partial<Pick<ChannelRecord, AddedLater>> & {
  _id: string;
  /** `wanted` when the current lease was taken; a larger `wanted` at release means "due again now". */
  claimedWanted: number | null;
  /** The awaited work's round (claimAskedChannel); absent = 0. */
  awaitedRound?: number;
  /** The key whose request created the channel; absent = none (an import, an operator, older documents). */
  createdBy?: string | null;
};

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
    awaitedAt: d.awaitedAt ?? null,
    awaitedBy: d.awaitedAt == null ? null : (d.awaitedBy ?? null),
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

/** Awaited work by round and by key (claimAskedChannel, awaitedRoundFor), and a key's new channels. */
export async function fairnessIndexes(db: Db): Promise<void> {
  await db.collection<ChannelDoc>('channels').createIndexes([
    { key: { awaitedRound: 1, awaitedAt: 1, _id: 1 }, name: 'awaited_round', partialFilterExpression: { awaitedAt: { $type: 'date' } } },
    { key: { awaitedBy: 1, awaitedRound: -1 }, name: 'awaited_by', partialFilterExpression: { awaitedAt: { $type: 'date' } } },
    { key: { createdBy: 1, createdAt: 1 }, name: 'created_by', partialFilterExpression: { createdBy: { $type: 'string' } } },
  ]);
}

/**
 * Make a known channel awaited by a key (null for none), as registerChannel does for new work: due
 * now, in the key's next round. One already awaited keeps its place; one backing off after
 * failures keeps its schedule.
 */
export async function awaitChannel(col: Collection<ChannelDoc>, clock: StoreClock, channelId: string, keyId: string | null, now: Date): Promise<void> {
  const round = await awaitedRoundFor(col, keyId);
  const present = clock.now(now);
  const waiting = { $ne: [{ $ifNull: ['$awaitedAt', null] }, null] };
  await col.updateOne({ _id: channelId, consecutiveFailures: 0 }, [
    {
      $set: {
        awaitedBy: { $cond: [waiting, { $ifNull: ['$awaitedBy', null] }, lit(keyId)] },
        awaitedRound: { $cond: [waiting, { $ifNull: ['$awaitedRound', 0] }, lit(round)] },
        awaitedAt: { $cond: [waiting, '$awaitedAt', present] },
        dueAt: { $min: ['$dueAt', present] },
      },
    },
  ]);
}

/** A document waiting for a run (awaitedAt set). */
const AWAITED: Filter<ChannelDoc> = { awaitedAt: { $type: 'date' } };

/**
 * The round a key's newly awaited work joins: one after the key's last awaited channel, and never
 * before the lowest round still waiting; work no key asked for joins the lowest round (as SQLite's
 * AWAITED_ROUND_SQL). Two reads; a race between
 * two processes can put two channels of a key in one round, which only bends the turn order.
 */
export async function awaitedRoundFor(col: Collection<ChannelDoc>, keyId: string | null): Promise<number> {
  const [own, lowest] = await Promise.all([
    keyId === null ? null : col.find({ ...AWAITED, awaitedBy: keyId }, { projection: { awaitedRound: 1 } }).sort({ awaitedRound: -1 }).limit(1).next(),
    col.find(AWAITED, { projection: { awaitedRound: 1 } }).sort({ awaitedRound: 1, awaitedAt: 1, _id: 1 }).limit(1).next(),
  ]);
  return Math.max(own ? (own.awaitedRound ?? 0) + 1 : 0, lowest?.awaitedRound ?? 0);
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
      const keyId = input.keyId ?? null;
      // Only a request that makes the channel awaited takes a round; the others keep theirs.
      const becomesAwaited = { $or: [isInsert, { $and: [grew, { $eq: [{ $ifNull: ['$awaitedAt', null] }, null] }] }] };
      const round = await awaitedRoundFor(col, keyId);
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
                awaitedBy: { $cond: [becomesAwaited, lit(keyId), keep('awaitedBy', null)] },
                awaitedRound: { $cond: [becomesAwaited, lit(round), keep('awaitedRound', 0)] },
                createdBy: { $cond: [isInsert, lit(keyId), keep('createdBy', null)] },
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
        { sort: { awaitedRound: 1, awaitedAt: 1, _id: 1 }, returnDocument: 'after' },
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
      const yielded = result.yielded === true;
      const stillAwaited = yielded ? true : grewDuringLease;
      const res = await col.updateOne({ _id: channelId, leaseOwner: owner }, [
        {
          $set: {
            dueAt: yielded ? present : { $cond: [grewDuringLease, { $min: [nextDue, present] }, nextDue] },
            awaitedAt: { $cond: [stillAwaited, { $ifNull: ['$awaitedAt', lit(null)] }, lit(null)] },
            awaitedBy: { $cond: [stillAwaited, { $ifNull: ['$awaitedBy', lit(null)] }, lit(null)] },
            awaitedRound: yielded ? { $add: [{ $ifNull: ['$awaitedRound', 0] }, 1] } : { $ifNull: ['$awaitedRound', 0] },
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

    async awaitedWorkWaiting(channelId, now) {
      const own = await col.findOne({ _id: channelId }, { projection: { awaitedAt: 1, awaitedBy: 1, awaitedRound: 1 } });
      const filter: Filter<ChannelDoc> = { ...AWAITED, _id: { $ne: channelId }, dueAt: { $lte: now }, $or: [{ leaseOwner: null }, { leaseExpiresAt: { $lte: now } }] };
      if (own?.awaitedAt != null) {
        filter.awaitedBy = { $ne: own.awaitedBy ?? null };
        filter.awaitedRound = { $lte: own.awaitedRound ?? 0 };
      }
      return (await col.findOne(filter, { projection: { _id: 1 } })) !== null;
    },

    async newChannelsOfKey(keyId, since) {
      const filter: Filter<ChannelDoc> = { createdBy: keyId, createdAt: { $gte: since } };
      const [count, oldest] = await Promise.all([
        col.countDocuments(filter),
        col.find(filter, { projection: { createdAt: 1 } }).sort({ createdAt: 1 }).limit(1).next(),
      ]);
      return { count, oldest: oldest?.createdAt ?? null };
    },

    async reclaimLeases(owner, now) {
      const res = await col.updateMany({ leaseOwner: owner }, [
        { $set: { leaseOwner: lit(null), leaseExpiresAt: lit(null), claimedWanted: lit(null), dueAt: { $min: ['$dueAt', clock.now(now)] } } },
      ]);
      return res.modifiedCount;
    },
  } satisfies Partial<BackendMethods>;
}
