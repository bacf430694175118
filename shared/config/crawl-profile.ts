// The two batch configurations of the spec (Limits), as named crawl profiles, plus single-value
// overrides. Waits are [min, max] in milliseconds; min === max means a fixed wait.

import type { RawSettings } from './settings';

export type ProfileName = 'fast' | 'gentle';
export type MsRange = readonly [number, number];

export interface CrawlProfile {
  readonly name: ProfileName;
  readonly batchSize: number;
  readonly batchWaitMs: MsRange;
  readonly requestWaitMs: MsRange;
  readonly blockedWaitMs: MsRange;
}

export const PROFILES: Readonly<Record<ProfileName, CrawlProfile>> = {
  // Configuration A: 20 per batch, 2 s between batches, no wait between requests.
  fast: { name: 'fast', batchSize: 20, batchWaitMs: [2000, 2000], requestWaitMs: [0, 0], blockedWaitMs: [30000, 60000] },
  // Configuration B: 5 per batch, 60–90 s between batches, 10–20 s between requests, 30–60 s after a block.
  gentle: { name: 'gentle', batchSize: 5, batchWaitMs: [60000, 90000], requestWaitMs: [10000, 20000], blockedWaitMs: [30000, 60000] },
};

export function resolveCrawlProfile(s: Pick<RawSettings, 'crawlProfile' | 'crawlBatchSize' | 'crawlBatchWait' | 'crawlRequestWait' | 'crawlBlockedWait'>): CrawlProfile {
  const base = PROFILES[s.crawlProfile];
  return {
    name: base.name,
    batchSize: s.crawlBatchSize ?? base.batchSize,
    batchWaitMs: s.crawlBatchWait ?? base.batchWaitMs,
    requestWaitMs: s.crawlRequestWait ?? base.requestWaitMs,
    blockedWaitMs: s.crawlBlockedWait ?? base.blockedWaitMs,
  };
}
