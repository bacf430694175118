// The operator's channel endpoints (admin keys only, api/http/admin.ts):
//   GET    /admin/channels?limit=&after=   every channel, in channel id order, a page at a time
//   GET    /admin/channels/<id>            one channel and its last 20 runs (404 when not known)
//   POST   /admin/channels/<id>/refresh    due now: the next free crawler takes it
//   DELETE /admin/channels/<id>[?purge=1]  stop crawling it; purge=1 also deletes its stored videos
//                                          and transcripts, PURGE_BATCH at a time
// `after` is opaque to clients: the page's `next`, which encodes the last channel id of the page.

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Request } from 'express';
import { CHANNEL_ID } from '../../shared/ids';
import { isPlaylistId } from '../../shared/playlist-ref';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { Store } from '../../shared/store/types';
import { channelViews, runView } from '../admin/channel-view';
import { ApiError } from '../errors';
import type { Handler } from '../http/keyed';
import { json } from '../http/answer';

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;
/** Videos (with their transcripts) deleted in one store write by a purge. */
export const PURGE_BATCH = 200;
export const RUNS_SHOWN = 20;

export interface AdminChannelDeps {
  store: Store;
  clock: () => Date;
  logger: Logger;
}

const CURSOR_PREFIX = 'c1.';

/** A channel's id, or a playlist's: both are work items in the same list. */
const isWorkId = (id: string): boolean => CHANNEL_ID.test(id) || isPlaylistId(id);

export const encodeCursor = (channelId: string): string => CURSOR_PREFIX + Buffer.from(channelId, 'utf8').toString('base64url');

function decodeCursor(raw: string): string {
  if (!raw.startsWith(CURSOR_PREFIX) || !/^[A-Za-z0-9_-]{1,64}$/.test(raw.slice(CURSOR_PREFIX.length))) throw new ApiError('invalidCursor');
  const id = Buffer.from(raw.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8');
  if (!isWorkId(id)) throw new ApiError('invalidCursor');
  return id;
}

/** One value of a query parameter: absent → undefined; repeated → 400 naming it. */
function single(req: Request, name: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ApiError('repeatedParameter', { param: name });
  return v;
}

function pageLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE;
  if (!/^[0-9]{1,4}$/.test(raw)) throw new ApiError('invalidAdminLimit');
  const n = Number(raw);
  if (n < 1 || n > MAX_PAGE) throw new ApiError('invalidAdminLimit');
  return n;
}

function channelIdParam(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isWorkId(id)) throw new ApiError('invalidChannelId');
  return id;
}

export function adminChannels(deps: AdminChannelDeps): { list: Handler; one: Handler; refresh: Handler; remove: Handler } {
  const { store, clock } = deps;
  const log = categoryLogger(deps.logger, 'api.admin');
  return {
    async list(req, res) {
      const limit = pageLimit(single(req, 'limit'));
      const afterRaw = single(req, 'after');
      const after = afterRaw === undefined || afterRaw === '' ? null : decodeCursor(afterRaw);
      const page = await store.listChannels(after, limit + 1);
      const shown = page.slice(0, limit);
      const next = page.length > limit ? encodeCursor(shown.at(-1)!.channelId) : null;
      json(res, 200, { channels: await channelViews(store, shown, clock()), next });
    },

    async one(req, res) {
      const id = channelIdParam(req);
      const channel = await store.getChannel(id);
      if (!channel) throw new ApiError('unknownChannel', { channelId: id });
      const [view] = await channelViews(store, [channel], clock());
      const runs = await store.listRuns(id, RUNS_SHOWN);
      json(res, 200, { ...view, runs: runs.map(runView) });
    },

    async refresh(req, res) {
      const id = channelIdParam(req);
      const now = clock();
      if (!(await store.makeChannelDue(id, now))) throw new ApiError('unknownChannel', { channelId: id });
      const channel = await store.getChannel(id);
      const running = channel?.leaseOwner && channel.leaseExpiresAt && channel.leaseExpiresAt > now ? channel.leaseOwner : null;
      log.info({ channelId: id, running }, 'channel made due now by an admin');
      json(res, 200, { id, next_due: now.toISOString(), running });
    },

    async remove(req, res) {
      const id = channelIdParam(req);
      const purgeRaw = single(req, 'purge');
      if (purgeRaw !== undefined && purgeRaw !== '0' && purgeRaw !== '1') throw new ApiError('invalidPurge');
      const removed = await store.removeChannel(id);
      let purged = 0;
      if (purgeRaw === '1') {
        // Bounded writes, with the event loop free between them: other requests keep being answered.
        for (;;) {
          const n = await store.purgeChannelVideos(id, PURGE_BATCH);
          purged += n;
          if (n < PURGE_BATCH) break;
          await nextTurn();
        }
      }
      if (!removed && purged === 0) throw new ApiError('unknownChannel', { channelId: id });
      log.info({ channelId: id, removed, purgedVideos: purged }, purgeRaw === '1' ? 'channel removed and its videos purged by an admin' : 'channel removed by an admin');
      json(res, 200, { id, removed, purged_videos: purged });
    },
  };
}
