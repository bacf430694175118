// The crawler_heartbeats collection: one document per crawler (its owner name), replaced about every
// 10 s with what it is doing. A crawler gone for HEARTBEAT_KEPT_MS is dropped at the next write.

import type { Collection, Db } from 'mongodb';
import type { BackendMethods } from '../call';
import { HEARTBEAT_KEPT_MS } from '../rules';
import type { CrawlerHeartbeat } from '../types';

type HeartbeatDoc = Omit<CrawlerHeartbeat, 'owner' | 'playerClientsLeftOut'> & { _id: string; playerClientsLeftOut?: CrawlerHeartbeat['playerClientsLeftOut'] };

export function heartbeatsCollection(db: Db) {
  const col: Collection<HeartbeatDoc> = db.collection<HeartbeatDoc>('crawler_heartbeats');
  return {
    async putHeartbeat(h) {
      const { owner, ...rest } = h;
      await col.replaceOne({ _id: owner }, {
        ...rest, proxies: rest.proxies.map((p) => ({ proxy: p.proxy, state: p.state })),
        playerClientsLeftOut: rest.playerClientsLeftOut.map((c) => ({ client: c.client, version: c.version, why: c.why, reason: c.reason, since: c.since, retryAt: c.retryAt, advice: c.advice })),
      }, { upsert: true });
      await col.deleteMany({ at: { $lt: new Date(h.at.getTime() - HEARTBEAT_KEPT_MS) } });
    },

    async listHeartbeats() {
      const docs = await col.find({}).sort({ _id: 1 }).toArray();
      return docs.map(({ _id, ...d }) => ({
        owner: _id, startedAt: d.startedAt, version: d.version, state: d.state, until: d.until ?? null, channelId: d.channelId ?? null,
        batch: d.batch ?? null, requestsLastHour: d.requestsLastHour, budgetPerHour: d.budgetPerHour, proxies: d.proxies ?? [],
        // Written by crawlers since the left-out list existed; older documents have none.
        browserRuns: d.browserRuns, playerClientsLeftOut: (d.playerClientsLeftOut ?? []).map((c) => ({ ...c, retryAt: c.retryAt ?? null })), at: d.at,
      }));
    },
  } satisfies Partial<BackendMethods>;
}
