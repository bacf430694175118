// A refresh on demand for tests and benches: every channel the crawler would list again by its rhythm
// becomes due now, through the store's own operator methods (the store keeps no method only tests
// use). Channels in a failure backoff keep their later due time, so a refresh never cancels a
// backoff; channels no longer refreshed (rules.ts isRefreshed) and those already due are left alone.

import { isRefreshed } from '../../shared/store/rules';
import type { Store } from '../../shared/store/types';

const PAGE = 500;

/** Make every refreshed, not backing-off channel due at `now`; returns how many were moved earlier. */
export async function refreshAll(store: Pick<Store, 'listChannels' | 'makeChannelDue'>, now: Date): Promise<number> {
  let moved = 0;
  let after: string | null = null;
  for (;;) {
    const page = await store.listChannels(after, PAGE);
    for (const c of page) {
      if (c.consecutiveFailures !== 0 || c.dueAt.getTime() <= now.getTime() || !isRefreshed(c, now)) continue;
      if (await store.makeChannelDue(c.channelId, now)) moved += 1;
    }
    if (page.length < PAGE) return moved;
    after = page[page.length - 1]!.channelId;
  }
}
