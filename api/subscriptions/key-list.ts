// What POST /subscriptions and the web app's subscriptions page both do with a key's list, so the
// two answer alike: an import read whole is followed in one batched store write, its new channels
// going to the crawler within the key's hourly allowance and waiting in the key's queue beyond it;
// and the key's list as its entries, feed and page links, and OPML.

import { normalizeHandle } from '../../shared/channel-ref';
import { DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR, releaseImports, type ImportQueueStore } from '../../shared/store/import-queue';
import type { SubscriptionInput, SubscriptionListStore, SubscriptionRecord } from '../../shared/store/types';
import { DEFAULT_MAX_ITEMS } from '../query/feed-query';
import type { FollowRef } from './channel-refs';
import type { Links } from './links';
import { renderOpml } from './opml-export';
import type { ImportEntry, ParsedImport } from './parsed-import';

export interface ImportDeps {
  store: SubscriptionListStore & ImportQueueStore;
  /** CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR; left out: its default. */
  importChannelsPerKeyHour?: number;
}

export interface ImportOutcome {
  /** The file's entries, each channel once, in the file's order. */
  readonly unique: readonly ImportEntry[];
  /** For each of `unique`: whether the key did not follow it before. */
  readonly added: readonly boolean[];
  readonly imported: number;
  /** The key's channels waiting for its hourly allowance, and its handles waiting to be resolved. */
  readonly queued: number;
  readonly handles: number;
  readonly perKeyHour: number;
}

export const refKey = (ref: FollowRef): string => (ref.kind === 'id' ? ref.channelId : ref.kind === 'playlist' ? ref.playlistId : `@${normalizeHandle(ref.handle)}`);

const toInput = (e: ImportEntry): SubscriptionInput =>
  e.ref.kind === 'id'
    ? { channelId: e.ref.channelId, title: e.title }
    : e.ref.kind === 'playlist'
      ? { channelId: e.ref.playlistId, kind: 'playlist', title: e.title }
      : { handle: e.ref.handle, title: e.title };

/** Follows what a parsed file names for `keyId`, and hands the crawler the key's allowance of the hour. */
export async function applyImport(deps: ImportDeps, keyId: string, parsed: ParsedImport, now: Date): Promise<ImportOutcome> {
  // A channel named twice (FreeTube repeats channels across profiles) is one channel.
  const seen = new Set<string>();
  const unique = parsed.entries.filter((e) => !seen.has(refKey(e.ref)) && seen.add(refKey(e.ref)));
  const added = await deps.store.follow(keyId, unique.map(toInput), 'import', DEFAULT_MAX_ITEMS, now, { queueNew: true });
  const perKeyHour = deps.importChannelsPerKeyHour ?? DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR;
  await releaseImports(deps.store, { perKeyHour, wanted: DEFAULT_MAX_ITEMS }, now, keyId);
  const [waiting] = await deps.store.importQueues(keyId);
  return { unique, added, imported: added.filter(Boolean).length, queued: waiting?.queued ?? 0, handles: waiting?.handles ?? 0, perKeyHour };
}

export interface ListedSubscription {
  readonly record: SubscriptionRecord;
  readonly ref: FollowRef;
  /** What to call it: the crawler's title, else the import's, else its handle or id. */
  readonly title: string;
  /** How DELETE /subscriptions/<ref> and /app/unfollow name it. */
  readonly key: string;
  readonly feedUrl: string;
  readonly pageUrl: string;
}

export function listed(subs: readonly SubscriptionRecord[], links: Links): ListedSubscription[] {
  return subs.map((record) => {
    const ref: FollowRef =
      record.channelId === null
        ? { kind: 'handle', handle: record.handle ?? '' }
        : record.kind === 'playlist'
          ? { kind: 'playlist', playlistId: record.channelId }
          : { kind: 'id', channelId: record.channelId };
    // Until the crawler has seen the channel (playlist): the title the import gave, else its handle or id.
    const title = record.title?.trim() || (ref.kind === 'handle' ? `@${ref.handle}` : refKey(ref));
    return { record, ref, title, key: refKey(ref), feedUrl: links.feedUrl(ref), pageUrl: links.pageUrl(ref) };
  });
}

/** The list as OPML 2.0, as GET /subscriptions writes it. */
export const opmlOf = (list: readonly ListedSubscription[], created: Date): Buffer =>
  Buffer.from(renderOpml(list.map((l) => ({ title: l.title, xmlUrl: l.feedUrl, htmlUrl: l.pageUrl })), created), 'utf8');
