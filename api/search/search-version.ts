// The store's version of a search's scope, as a token: it changes whenever a video in the scope
// may have been stored, so equal tokens mean nothing the search could match has arrived. Each is a
// few index reads, never one per followed channel:
//   * every channel: the newest write among all feed entries;
//   * named channels (at most 20): the newest of their feed versions;
//   * subscriptions=1: the combined feed's version token of the key (the newest write among all
//     feed entries and the key's count of subscription changes), so a new follow or unfollow
//     changes it too.

import type { SearchVersionStore } from '../../shared/store/types';

export interface ScopeRef {
  /** The channels the request named, resolved to ids. */
  readonly named: readonly string[];
  /** subscriptions=1: the key's followed channels (with `named`, those of them it follows). */
  readonly subscriptions: boolean;
  readonly keyId: string | undefined;
}

export async function scopeToken(store: SearchVersionStore, scope: ScopeRef): Promise<string> {
  if (scope.subscriptions) return `s:${scope.keyId === undefined ? '' : await store.subscriptionFeedVersion(scope.keyId)}`;
  if (scope.named.length > 0) {
    const versions = await Promise.all(scope.named.map((id) => store.feedVersion(id)));
    return `c:${Math.max(0, ...versions.map((v) => v?.getTime() ?? 0))}`;
  }
  return `a:${(await store.newestFeedWrite())?.getTime() ?? 0}`;
}
