// What the crawler knows of a channel that has no feed entry yet, read from its work item as the
// feed request registered it: the 404 says it (api/errors.ts noVideosYet) instead of always "a few
// minutes". A leased channel is being looked at now; otherwise its last run's outcome and due time
// tell what happened and when the crawler tries again.

import type { ChannelRecord } from '../../shared/store/types';

/**
 * What the crawler knows of a channel that has no feed entry yet (api/feed/crawl-view.ts), for the
 * 404's message: not looked at yet, being looked at now, or its last run's outcome and next try.
 */
export type CrawlView =
  | { readonly state: 'waiting' | 'running' }
  | { readonly state: 'not_found' | 'blocked' | 'unreachable' | 'empty'; readonly nextTryAt: Date; readonly now: Date };

export function crawlViewOf(c: Pick<ChannelRecord, 'leaseOwner' | 'leaseExpiresAt' | 'lastOutcome' | 'dueAt'>, now: Date): CrawlView {
  if (c.leaseOwner !== null && c.leaseExpiresAt !== null && c.leaseExpiresAt.getTime() > now.getTime()) return { state: 'running' };
  const next = { nextTryAt: c.dueAt, now };
  switch (c.lastOutcome) {
    case 'not_found':
      return { state: 'not_found', ...next };
    case 'blocked':
      return { state: 'blocked', ...next };
    case 'error':
      return { state: 'unreachable', ...next };
    case 'ok':
      return { state: 'empty', ...next };
    default:
      // Never run, or a run cut short (due again at once).
      return { state: 'waiting' };
  }
}
