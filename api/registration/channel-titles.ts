// The channel's name for its feed (api/routes/feed.ts).

import type { ChannelRecord, ChannelLookupStore } from '../../shared/store/types';
import { ApiCache, type CacheSlot } from '../cache';

/**
 * The channel's title for its feed at a version. The crawler names a channel before it stores the
 * first batch, so the store, read after the version was, has the name of every entry the feed
 * shows; the registration remembered below may be older than both (a channel asked for by id has
 * no title until its first run). A remembered record without a title is therefore checked in the
 * store once per feed version.
 */
export class ChannelTitles {
  private readonly titles: CacheSlot<string>;

  constructor(
    private readonly store: ChannelLookupStore,
    cache: ApiCache = new ApiCache(),
  ) {
    this.titles = cache.slot('title-at-version');
  }

  /** Null when the crawler has not seen one. */
  async at(record: ChannelRecord, version: Date): Promise<string | null> {
    if (record.title !== null) return record.title;
    const key = `${record.channelId}\n${version.getTime()}`;
    const known = this.titles.get(key);
    if (known !== undefined) return known === '' ? null : known;
    const title = (await this.store.getChannel(record.channelId))?.title ?? null;
    this.titles.set(key, title ?? '');
    return title;
  }
}
