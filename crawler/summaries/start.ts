// The summary queue as the settings ask for it: none while SUMMARY_API_URL is empty (nothing is
// ever sent anywhere), else started with the endpoint, the caps and the crawler's metrics.

import type { Registry } from 'prom-client';
import type { Config } from '../../shared/config/load';
import { maskUrlCredentials } from '../../shared/config/load';
import type { Logger } from '../../shared/logger';
import { askEndpoint } from '../../shared/summary/summarise';
import { realTiming } from '../timing';
import { startSummaryQueue, type SummaryQueue, type SummaryQueueStore } from './queue';
import { summaryKeyOf } from './summary-job';
import { SummaryMetrics } from './summary-metrics';

/** Requests one video may need (parts, combining, one retry each) before its lease may end. */
const REQUESTS_PER_LEASE = 8;

export function startConfiguredSummaries(config: Config, store: SummaryQueueStore, owner: string, registry: Registry, logger: Logger): SummaryQueue | null {
  if (config.summaryApiUrl === null) return null;
  const endpoint = { url: config.summaryApiUrl, apiKey: config.summaryApiKey, model: config.summaryModel, timeoutMs: config.summaryTimeoutMs };
  const metrics = new SummaryMetrics(registry);
  const settings = { language: config.summaryLanguage, model: config.summaryModel, contextTokens: config.summaryContextTokens };
  metrics.readQueueFrom(async () => (await store.summaryCounts(summaryKeyOf(settings), new Date())).waiting);
  logger.info({ endpoint: maskUrlCredentials(endpoint.url), model: endpoint.model, language: settings.language }, 'summaries on: stored transcripts are summarised by the model at SUMMARY_API_URL');
  return startSummaryQueue({
    store,
    askFor: (stop) => askEndpoint(endpoint, stop),
    settings,
    caps: { videosPerDay: config.summaryVideosPerDay, tokensPerDay: config.summaryTokensPerDay },
    owner,
    pollMs: config.crawlPollSeconds * 1000,
    leaseMs: config.summaryTimeoutMs * REQUESTS_PER_LEASE,
    timing: realTiming,
    logger,
    metrics,
  });
}
