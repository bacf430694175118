// A search feed kept between polls. Readers poll a saved search like any feed, and the search is
// the costly part of its answer, so what a search answered is remembered per representation (its
// self link, the links' key, the key for a subscriptions scope) with the token of the store's
// version of its scope (search-version.ts) taken before it ran. A request whose token is the same
// is answered from what is remembered: its validators for a 304, its body from the app's cache by
// ETag (compressed once per coding by the answer tail), with no search at all. A new token (a batch
// stored in the scope: a matching video could have arrived) makes the next request search again;
// SEARCH_RESULT_TTL_MS bounds what a token cannot see (a hit taken out of the feed, a channel's new
// name), as the channel feed's state TTL does, for the same minute readers are told to keep it
// (Cache-Control max-age=60). A search that ran out of its time budget is remembered the same way,
// so repeating it answers the same 429 without searching again.

import { remembered } from '../../shared/ttl-memo';
import type { ApiCache, CacheSlot } from '../cache';
import type { Validators } from '../feed/state';

export const SEARCH_RESULT_TTL_MS = 60_000;

/**
 * `shown`: the hits' ids and their stored summaries' digest. A summary stored since is not a batch
 * in the scope (the token does not move), so a request reads the summaries again and searches
 * again only when the digest moved.
 */
export type SearchOutcome = { readonly validators: Validators; readonly shown: { readonly ids: readonly string[]; readonly summaries: string } } | { readonly exceededMs: number };

interface Remembered {
  readonly token: string;
  readonly at: number;
  readonly outcome: SearchOutcome;
}

export class SearchResults {
  private readonly slot: CacheSlot<Remembered>;

  constructor(cache: ApiCache) {
    this.slot = cache.slot('search-result');
  }

  /** What the search answered under this token within the TTL, if remembered. */
  get(key: string, token: string, now: Date): SearchOutcome | undefined {
    const seen = remembered(this.slot, key, now.getTime(), SEARCH_RESULT_TTL_MS);
    return seen !== undefined && seen.token === token ? seen.outcome : undefined;
  }

  set(key: string, token: string, now: Date, outcome: SearchOutcome): void {
    this.slot.set(key, { token, at: now.getTime(), outcome });
  }
}
