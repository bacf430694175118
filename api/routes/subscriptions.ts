// A key's subscription list: POST /subscriptions imports a file (any format import-file.ts reads,
// sent as the body or as a multipart form's file, upload.ts),
// GET /subscriptions exports the list as OPML 2.0 (or JSON with format=Json), DELETE
// /subscriptions/<channel_id, @handle or playlist_id> takes one channel (or playlist) off it. A
// followed playlist is listed like a channel, with its own feed and page. The key is known to the store
// only by its keyId. An import is read and checked whole (as it arrives) before one batched store
// write, so a file refused as a whole stores nothing; its channels the store does not know become
// crawler work within the key's hourly allowance and wait in the key's queue beyond it
// (shared/store/import-queue.ts), the answer saying how many wait; handles are followed as they are and resolved by the crawler.

import type { ServerResponse } from 'node:http';
import { CHANNEL_ID } from '../../shared/ids';
import { normalizeHandle, parseHandle } from '../../shared/channel-ref';
import { isPlaylistId } from '../../shared/playlist-ref';
import type { SubscriptionInput, SubscriptionListStore } from '../../shared/store/types';
import { shownJson } from '../../shared/transcript/shown-text';
import type { ApiCache } from '../cache';
import { ApiError, type ErrorName } from '../errors';
import type { Handler } from '../http/keyed';
import { requireKeyId, queryOf } from '../http/locals';
import { DEFAULT_MAX_ITEMS } from '../query/feed-query';
import type { FollowRef } from '../subscriptions/channel-refs';
import { FollowRecorder } from '../registration/follow-recorder';
import { readUpload } from '../subscriptions/upload';
import { ImportFileError, type ImportEntry, type ImportProblem } from '../subscriptions/parsed-import';
import { linksFor, type LinkDeps } from '../subscriptions/links';
import { OPML_CONTENT_TYPE, renderOpml } from '../subscriptions/opml-export';
import { DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR, releaseImports, type ImportQueueStore } from '../../shared/store/import-queue';

export interface SubscriptionDeps extends LinkDeps {
  store: SubscriptionListStore & ImportQueueStore;
  cache: ApiCache;
  clock: () => Date;
  /** CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR; left out: its default. */
  importChannelsPerKeyHour?: number;
}

const PROBLEMS: Readonly<Record<ImportProblem, ErrorName>> = {
  empty: 'importEmpty',
  binary: 'importBinary',
  xmlDeclarations: 'importXmlDeclarations',
  badXml: 'importBadXml',
  notOpml: 'importNotOpml',
  badCsv: 'importBadCsv',
  badJson: 'importBadJson',
  jsonShape: 'importJsonShape',
  tooMany: 'importTooMany',
};

const refKey = (ref: FollowRef): string => (ref.kind === 'id' ? ref.channelId : ref.kind === 'playlist' ? ref.playlistId : `@${normalizeHandle(ref.handle)}`);
const toInput = (e: ImportEntry): SubscriptionInput =>
  e.ref.kind === 'id'
    ? { channelId: e.ref.channelId, title: e.title }
    : e.ref.kind === 'playlist'
      ? { channelId: e.ref.playlistId, kind: 'playlist', title: e.title }
      : { handle: e.ref.handle, title: e.title };
/** How an answer names one followed channel or playlist. */
const refFields = (ref: FollowRef): Record<string, string> =>
  ref.kind === 'id' ? { channel_id: ref.channelId } : ref.kind === 'playlist' ? { playlist_id: ref.playlistId } : { handle: normalizeHandle(ref.handle) };

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = shownJson(value);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export function subscriptionRoutes(deps: SubscriptionDeps): { importList: Handler; exportList: Handler; remove: Handler } {
  const follows = new FollowRecorder(deps.store, deps.cache);

  const importList: Handler = async (req, res) => {
    let parsed;
    try {
      parsed = await readUpload(req, res);
    } catch (err) {
      if (err instanceof ImportFileError) throw new ApiError(PROBLEMS[err.problem], { detail: err.detail, line: err.line });
      throw err;
    }
    // A channel named twice (FreeTube repeats channels across profiles) is one channel.
    const seen = new Set<string>();
    const unique = parsed.entries.filter((e) => !seen.has(refKey(e.ref)) && seen.add(refKey(e.ref)));
    const keyId = requireKeyId(res);
    const now = deps.clock();
    const added = await deps.store.follow(keyId, unique.map(toInput), 'import', DEFAULT_MAX_ITEMS, now, { queueNew: true });
    // The key's allowance of the hour goes to the crawler now; the rest waits in the key's queue.
    const perKeyHour = deps.importChannelsPerKeyHour ?? DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR;
    await releaseImports(deps.store, { perKeyHour, wanted: DEFAULT_MAX_ITEMS }, now, keyId);
    const [waiting] = await deps.store.importQueues(keyId);
    const imported = added.filter(Boolean).length;
    const links = linksFor(req, deps);
    sendJson(res, 200, {
      imported,
      already: unique.length - imported,
      queued: waiting?.queued ?? 0,
      handles_to_resolve: waiting?.handles ?? 0,
      new_channels_per_hour: perKeyHour,
      format: parsed.format,
      channels: unique.map((e) => ({
        ...refFields(e.ref),
        title: e.title,
        feed_url: links.feedUrl(e.ref),
      })),
      rejected: parsed.rejected,
    });
  };

  const exportList: Handler = async (req, res) => {
    const format = queryOf(req).format;
    if (format !== undefined && (typeof format !== 'string' || !['', 'opml', 'json'].includes(format.toLowerCase()))) throw new ApiError('invalidExportFormat');
    const subs = await deps.store.listSubscriptions(requireKeyId(res));
    const links = linksFor(req, deps);
    const listed = subs.map((s) => {
      const ref: FollowRef =
        s.channelId === null
          ? { kind: 'handle', handle: s.handle ?? '' }
          : s.kind === 'playlist'
            ? { kind: 'playlist', playlistId: s.channelId }
            : { kind: 'id', channelId: s.channelId };
      // Until the crawler has seen the channel (playlist): the title the import gave, else its handle or id.
      const title = s.title?.trim() || (ref.kind === 'handle' ? `@${ref.handle}` : refKey(ref));
      return { s, ref, title, feedUrl: links.feedUrl(ref), pageUrl: links.pageUrl(ref) };
    });
    if (typeof format === 'string' && format.toLowerCase() === 'json') {
      sendJson(res, 200, {
        subscriptions: listed.map(({ s, ref, title, feedUrl, pageUrl }) => ({
          ...refFields(ref),
          title,
          feed_url: feedUrl,
          html_url: pageUrl,
          source: s.source,
          since: s.since.toISOString(),
        })),
      });
      return;
    }
    const body = Buffer.from(renderOpml(listed.map((l) => ({ title: l.title, xmlUrl: l.feedUrl, htmlUrl: l.pageUrl })), deps.clock()), 'utf8');
    res.statusCode = 200;
    res.setHeader('Content-Type', OPML_CONTENT_TYPE);
    // It carries the caller's key in every xmlUrl: never kept by a shared cache.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  };

  const remove: Handler = async (req, res) => {
    const raw = String((req.params as Record<string, string | undefined>).ref ?? '');
    const handle = raw.startsWith('@') ? parseHandle(raw) : null;
    if (!CHANNEL_ID.test(raw) && !isPlaylistId(raw) && handle === null) throw new ApiError('invalidSubscription');
    const ref = handle !== null && handle.kind === 'handle' ? `@${normalizeHandle(handle.handle)}` : raw;
    const keyId = requireKeyId(res);
    if (!(await deps.store.unfollow(keyId, ref, deps.clock()))) throw new ApiError('subscriptionNotFound');
    follows.forget(keyId, ref);
    sendJson(res, 200, { removed: ref });
  };

  return { importList, exportList, remove };
}
