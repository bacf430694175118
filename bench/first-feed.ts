// End to end, one measurement: from a reader's first feed request for a new channel to the first
// 200, with the compiled API and crawler as separate processes (fast profile, default 5 s poll)
// against the fake platform, beside the platform client alone doing the same platform work
// in-process. Run alone: `npx tsx bench/first-feed.ts` (`--json` for the raw section).

import { loadConfig } from '../shared/config/load';
import { silentLogger } from '../shared/logger';
import { createPlatformClient, PlatformError } from '../shared/platform';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakePlatform } from '../test/fake-platform';
import { ensureBuilt } from '../test/support/processes';
import { Cleanup, getFeed, logsWith, progressOf, sleep, startPair, tempDir, timeOf } from './services';
import { median, round, runStandalone } from './support';
import type { Benchmark, BenchSection } from './types';

/** The shipped default poll interval: the fair figure. */
const DEFAULT_POLL_SECONDS = 5;
const RUNS = 3;
const READER_POLL_MS = 100;
const progress = progressOf('first-feed');

interface Run {
  ms: number;
  /** Request → the crawler's 'run started'. */
  waitMs: number;
  /** 'run started' → first 'batch stored'. */
  crawlMs: number;
  offsetMs: number;
}

async function oneRun(fake: FakePlatform, channel: FakeChannelSpec, offsetMs: number): Promise<Run> {
  const cleanup = new Cleanup();
  try {
    const dir = tempDir(cleanup, 'first');
    // No CRAWL_POLL_SECONDS, CRAWL_BATCH_WAIT…: the fast profile and the default poll as shipped.
    const { crawler, base } = await startPair(cleanup, dir, fake.url, {});
    // The crawler polled once at start; a reader arrives at some phase of its poll cycle. The runs
    // are stratified over the cycle so the median sees the average poll wait, not the worst one.
    await sleep(offsetMs);
    const t0 = Date.now();
    const start = performance.now();
    const first = await getFeed(base, `channel=@${channel.handle}`);
    if (first.status !== 404 && first.status !== 200) throw new Error(`first feed request answered ${first.status}`);
    let ok = first.status === 200;
    while (!ok) {
      if (performance.now() - start > 60_000) throw new Error('no 200 within 60 s');
      await sleep(READER_POLL_MS);
      ok = (await getFeed(base, `channel=@${channel.handle}`)).status === 200;
    }
    const ms = performance.now() - start;
    const runStarted = timeOf(logsWith(crawler, 'run started')[0]);
    const batchStored = timeOf(logsWith(crawler, 'batch stored')[0]);
    return { ms, waitMs: runStarted - t0, crawlMs: batchStored - runStarted, offsetMs };
  } finally {
    await cleanup.runAll();
  }
}

/** The same platform work in-process: resolve the handle, list 10, fetch those 10 transcripts. */
async function platformAlone(fake: FakePlatform, channel: FakeChannelSpec, configDir: string): Promise<{ ms: number; requests: number }> {
  const config = loadConfig({ PLATFORM_BASE_URL: fake.url }, configDir);
  const client = createPlatformClient(config, silentLogger());
  const start = performance.now();
  const channelId = await client.resolveHandle(channel.handle);
  if (channelId === null) throw new Error('baseline: handle not resolved');
  const listing = await client.listVideos(channelId, 10);
  for (const v of listing.videos) {
    if (v.publishedAt === null) await client.fetchPublishedAt(v.videoId);
    try {
      await client.fetchTranscript(v.videoId);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
    }
  }
  return { ms: performance.now() - start, requests: client.requestCount() };
}

const firstFeedBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const channel = makeChannel({ handle: 'benchfirst', count: 60, seed: 11 });
    const fake = await startFakePlatform({ channels: [channel] });
    cleanup.add('fake platform', () => fake.close());
    const configDir = tempDir(cleanup, 'cfg');
    const runs: Run[] = [];
    const base: number[] = [];
    let baseRequests = 0;
    for (let i = 0; i < RUNS; i++) {
      const offsetMs = Math.round(((i + 0.5) / RUNS) * DEFAULT_POLL_SECONDS * 1000);
      const r = await oneRun(fake, channel, offsetMs);
      runs.push(r);
      const b = await platformAlone(fake, channel, configDir);
      base.push(b.ms);
      baseRequests = b.requests;
      progress(`first 200 after ${(r.ms / 1000).toFixed(2)} s (poll phase ${offsetMs} ms); platform alone ${b.ms.toFixed(0)} ms`);
    }
    const s = median(runs.map((r) => r.ms)) / 1000;
    const b = median(base) / 1000;
    return {
      title: 'End to end: first feed request → first 200 (api + crawler processes, fake platform)',
      rows: [
        {
          readme: 'first request → first 200, `fast` profile, default 5 s poll', headline: true,
          metric: `first feed request → first 200, fast profile, CRAWL_POLL_SECONDS=${DEFAULT_POLL_SECONDS} (default), median of ${RUNS}; lower is better`,
          value: round(s, 2),
          unit: 's',
          baseline: { label: `platform client alone: resolve + list + the first batch's 10 transcripts (${baseRequests} requests), median of ${RUNS}`, value: round(b, 3) },
          ratio: round(s / b, 1),
          target: '< 10 s',
          met: s < 10,
        },
      ],
      notes: [
        `api + crawler spawned from dist/ with a fresh SQLite file each run, CRAWL_PROFILE=fast with no overrides, default poll ${DEFAULT_POLL_SECONDS} s; ` +
          `the reader asks by handle (default max_items 10) and retries every ${READER_POLL_MS} ms. Runs start at poll phases ${runs.map((r) => `${r.offsetMs} ms`).join(', ')} after the crawler's start-up poll (stratified over one cycle). ` +
          `Per run: request → claim ${runs.map((r) => (r.waitMs / 1000).toFixed(2)).join(' / ')} s, claim → first batch stored ${runs.map((r) => (r.crawlMs / 1000).toFixed(2)).join(' / ')} s, total ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(' / ')} s`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default firstFeedBenchmark;

if (require.main === module) runStandalone(firstFeedBenchmark);
