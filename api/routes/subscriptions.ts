// A key's subscription list: POST /subscriptions imports a file (any format import-file.ts reads,
// sent as the body or as a multipart form's file, upload.ts),
// GET /subscriptions exports the list as OPML 2.0 (or JSON with format=Json), DELETE
// /subscriptions/<channel_id, @handle or playlist_id> takes one channel (or playlist) off it. A
// followed playlist is listed like a channel, with its own feed and page. The key is known to the store
// only by its keyId. An import is read and checked whole (as it arrives) before one batched store
// write, so a file refused as a whole stores nothing; its channels the store does not know become
// crawler work within the key's hourly allowance and wait in the key's queue beyond it
// (shared/store/import-queue.ts), the answer saying how many wait; handles are followed as they are and resolved by the crawler.

import { normalizeHandle } from '../../shared/channel-ref';
import type { SubscriptionListStore } from '../../shared/store/types';
import type { ApiCache } from '../cache';
import { ApiError, type ErrorName } from '../errors';
import type { Handler } from '../http/keyed';
import { requireKeyId, queryOf } from '../http/request-state';
import type { FollowRef } from '../subscriptions/channel-refs';
import { FollowRecorder } from '../registration/follow-recorder';
import { readUpload } from '../subscriptions/upload';
import { unfollowRef } from '../subscriptions/unfollow';
import { ImportFileError, type ImportProblem } from '../subscriptions/parsed-import';
import { linksFor, type LinkDeps } from '../subscriptions/links';
import { OPML_CONTENT_TYPE } from '../subscriptions/opml-export';
import { applyImport, listed, opmlOf } from '../subscriptions/key-list';
import type { ImportQueueStore } from '../../shared/store/import-queue';
import { json, text } from '../http/answer';

export interface SubscriptionDeps extends LinkDeps {
  store: SubscriptionListStore & ImportQueueStore;
  cache: ApiCache;
  clock: () => Date;
  /** CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR; left out: its default. */
  importChannelsPerKeyHour?: number;
}

export const PROBLEMS: Readonly<Record<ImportProblem, ErrorName>> = {
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

/** How an answer names one followed channel or playlist. */
const refFields = (ref: FollowRef): Record<string, string> =>
  ref.kind === 'id' ? { channel_id: ref.channelId } : ref.kind === 'playlist' ? { playlist_id: ref.playlistId } : { handle: normalizeHandle(ref.handle) };

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
    const outcome = await applyImport(deps, requireKeyId(res), parsed, deps.clock());
    const links = linksFor(req, deps);
    json(res, 200, {
      imported: outcome.imported,
      already: outcome.unique.length - outcome.imported,
      queued: outcome.queued,
      handles_to_resolve: outcome.handles,
      new_channels_per_hour: outcome.perKeyHour,
      format: parsed.format,
      channels: outcome.unique.map((e) => ({
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
    const list = listed(await deps.store.listSubscriptions(requireKeyId(res)), linksFor(req, deps));
    if (typeof format === 'string' && format.toLowerCase() === 'json') {
      json(res, 200, {
        subscriptions: list.map(({ record, ref, title, feedUrl, pageUrl }) => ({
          ...refFields(ref),
          title,
          feed_url: feedUrl,
          html_url: pageUrl,
          source: record.source,
          since: record.since.toISOString(),
        })),
      });
      return;
    }
    const body = opmlOf(list, deps.clock());
    // It carries the caller's key in every xmlUrl: never kept by a shared cache (no-store).
    text(res, 200, OPML_CONTENT_TYPE, body);
  };

  const remove: Handler = async (req, res) => {
    const raw = String((req.params as Record<string, string | undefined>).ref ?? '');
    const ref = await unfollowRef(deps.store, follows, requireKeyId(res), raw, deps.clock());
    json(res, 200, { removed: ref });
  };

  return { importList, exportList, remove };
}
