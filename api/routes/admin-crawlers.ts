// GET /admin/crawlers: every crawler's last heartbeat as JSON, with `down` when it has been silent
// for more than a minute (a crawler that shut down cleanly says `stopped` and is not down). What a
// monitor polls to alert on a dead crawler or a long cool-down.

import type { Store } from '../../shared/store/types';
import { isDown } from '../admin/status-data';
import type { Handler } from '../http/keyed';
import { json } from '../http/answer';

export function adminCrawlers(deps: { store: Store; clock: () => Date }): Handler {
  return async (_req, res) => {
    const now = deps.clock();
    const crawlers = (await deps.store.listHeartbeats()).map((h) => ({
      owner: h.owner,
      state: h.state,
      until: h.until?.toISOString() ?? null,
      down: h.state !== 'stopped' && isDown(h, now),
      channel_id: h.channelId,
      batch: h.batch,
      requests_last_hour: h.requestsLastHour,
      budget_per_hour: h.budgetPerHour,
      proxies: h.proxies,
      browser_runs: h.browserRuns,
      player_clients_left_out: h.playerClientsLeftOut.map((c) => ({
        client: c.client, version: c.version, why: c.why, reason: c.reason, since: c.since.toISOString(), retry_at: c.retryAt?.toISOString() ?? null, advice: c.advice,
      })),
      version: h.version,
      started_at: h.startedAt.toISOString(),
      heartbeat_at: h.at.toISOString(),
    }));
    json(res, 200, { crawlers });
  };
}
