// Store benchmark on real SQLite files in a temp dir: is the feed query flat as the database
// grows (a channel among 1k vs 100k stored videos), how fast are batch upserts of realistic
// transcripts, and what does one rate-limit hit cost. Run alone: `npx tsx bench/store.ts`.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore, type Store } from '../shared/store';
import { BENCH_VIDEOS_PER_CHANNEL, benchChannelId, benchTranscripts, benchVideo, loadBenchVideos, median, msSince, round, runStandalone, transcriptOf } from './support';
import { makeRng } from '../test/support/random';
import type { Benchmark, BenchSection } from './types';

const BATCH = 500;
const FEED_SAMPLES_PER_ROUND = 500;
const FEED_ROUNDS = 4;
const UPSERT_VIDEOS = 10_000;
const RATE_HITS = 5_000;
const T0 = Date.UTC(2025, 0, 1);


/** Feed reads of channels picked at random (seeded: every run reads the same channels). */
async function feedSamples(store: Store, channels: number, count: number, out: number[]): Promise<void> {
  const rng = makeRng(`feed-${channels}-${out.length}`);
  for (let i = 0; i < count; i++) {
    const channelId = benchChannelId(Math.floor(rng() * channels));
    const start = process.hrtime.bigint();
    await store.listFeedEntries(channelId, 10);
    await store.feedVersion(channelId);
    out.push(msSince(start));
  }
}

async function withStore<T>(dir: string, name: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(`sqlite:${path.join(dir, name)}`, { logger: silentLogger() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const storeBenchmark: Benchmark = async (): Promise<BenchSection> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-bench-store-'));
  try {
    // Feed query: the same channel shape among 1k and among 100k stored videos. Rounds alternate
    // between the two databases so that machine noise hits both alike.
    const feedTranscript = transcriptOf(1024);
    const small = await openStore(`sqlite:${path.join(dir, 'feed-1k.db')}`, { logger: silentLogger() });
    const large = await openStore(`sqlite:${path.join(dir, 'feed-100k.db')}`, { logger: silentLogger() });
    let smallMs: number[] = [];
    let largeMs: number[] = [];
    try {
      const smallChannels = await loadBenchVideos(small, 1_000, feedTranscript);
      const largeChannels = await loadBenchVideos(large, 100_000, feedTranscript);
      await feedSamples(small, smallChannels, 200, []); // warm-up
      await feedSamples(large, largeChannels, 200, []);
      for (let r = 0; r < FEED_ROUNDS; r++) {
        await feedSamples(small, smallChannels, FEED_SAMPLES_PER_ROUND, smallMs);
        await feedSamples(large, largeChannels, FEED_SAMPLES_PER_ROUND, largeMs);
      }
    } finally {
      await small.close();
      await large.close();
    }
    const feed1k = median(smallMs);
    const feed100k = median(largeMs);
    smallMs = largeMs = [];

    // Upsert throughput with 10 KB transcripts, in the crawler's write shape (one batch, one transaction).
    const bigTranscript = transcriptOf(10 * 1024);
    const upsertSeconds = await withStore(dir, 'upsert.db', async (store) => {
      const videos = Array.from({ length: UPSERT_VIDEOS }, (_, i) => benchVideo(benchChannelId(i % 100), i));
      const start = process.hrtime.bigint();
      for (let i = 0; i < videos.length; i += BATCH) {
        const batch = videos.slice(i, i + BATCH);
        await store.upsertVideos(batch, benchTranscripts(batch, bigTranscript));
      }
      return msSince(start) / 1000;
    });
    const videosPerSecond = UPSERT_VIDEOS / upsertSeconds;

    // Rate-limit hits: a few keys, several windows, on a file of its own.
    const hitMs = await withStore(dir, 'rate.db', async (store) => {
      const samples: number[] = [];
      for (let i = 0; i < RATE_HITS; i++) {
        const now = new Date(T0 + i * 50); // 5000 hits over ~4 minutes of simulated time
        const start = process.hrtime.bigint();
        await store.hitRateLimit(`key-${i % 50}`, 1_000_000, now);
        samples.push(msSince(start));
      }
      return median(samples);
    });

    const feedRatio = feed100k / feed1k;
    return {
      title: 'Store (SQLite)',
      rows: [
        {
          metric: 'feed query (10 entries + feed version), median at 100k stored videos; lower is better',
          value: round(feed100k, 4),
          unit: 'ms',
          baseline: { label: 'same query at 1k stored videos', value: round(feed1k, 4) },
          ratio: round(feedRatio, 2),
          target: '<= 1.3x of 1k',
          met: feedRatio <= 1.3,
        },
        {
          metric: `batch upsert, 10 KB transcripts, batches of ${BATCH}`,
          value: Math.round(videosPerSecond),
          unit: 'videos/s',
          target: '>= 2000 videos/s',
          met: videosPerSecond >= 2000,
        },
        {
          metric: 'rate-limit hit, median',
          value: round(hitMs, 4),
          unit: 'ms',
          target: '< 0.2 ms',
          met: hitMs < 0.2,
        },
      ],
      notes: [
        `feed databases: 1k and 100k videos in channels of ${BENCH_VIDEOS_PER_CHANNEL} (5% awaiting retry, 5% given up), 1 KB transcripts, loaded in mixed-channel batches of ${BATCH}`,
        `upsert: ${UPSERT_VIDEOS} videos into a fresh file in ${upsertSeconds.toFixed(2)} s`,
        `rate limit: ${RATE_HITS} hits over 50 keys; WAL, synchronous=NORMAL`,
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

export default storeBenchmark;

if (require.main === module) runStandalone(storeBenchmark);
