// End to end, two measurements on the compiled API process over SQLite files of 1k and 100k stored
// videos: feed latency over HTTP (does the store stay flat as it grows?), and the API's resident
// memory after 100k requests, beside an idle bare node process. Load from autocannon with 10
// connections in this process: these are latency figures, not throughput (bench/api.ts measures
// throughput with wrk). Run alone: `npx tsx bench/feed-at-scale.ts`.

import path from 'node:path';
import autocannon from 'autocannon';
import { silentLogger } from '../shared/logger';
import { openStore, type Store } from '../shared/store';
import { startFakePlatform } from '../test/fake-platform';
import { memoryKb, TreeSampler } from '../test/support/process-tree';
import { ensureBuilt, freePort, type Started } from '../test/support/processes';
import { Cleanup, getFeed, idleNodeRssKb, KEY, mb, progressOf, serviceEnv, splitOf, startApiLoggingToFile, stopService, tempDir, waitForHealth } from './services';
import { benchChannelId, loadBenchVideos, median, percentile, round, runStandalone, transcriptOf } from './support';
import type { Benchmark, BenchSection } from './types';

const LATENCY_ROUNDS = 3;
const LATENCY_ROUND_SECONDS = 2;
const API_TOTAL_REQUESTS = 100_000;
const progress = progressOf('feed-at-scale');

/** `total` videos in channels of 100, as bench/store.ts loads them. */
async function fillDatabase(file: string, total: number): Promise<void> {
  const store: Store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
  try {
    await loadBenchVideos(store, total, transcriptOf(1024));
  } finally {
    await store.close();
  }
}

interface LoadResult {
  latencies: number[];
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
}

/** autocannon against one feed URL; `bust` adds a unique unknown parameter so no render-cache hit. */
function load(base: string, channelId: string, opts: { seconds?: number; amount?: number; bust: boolean; keep?: boolean }): Promise<LoadResult> {
  const plain = `/?channel_id=${channelId}`;
  let n = 0;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: 10,
        ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.seconds ?? 2 }),
        headers: { 'x-api-key': KEY },
        requests: [
          opts.bust
            ? { method: 'GET', setupRequest: (req: autocannon.Request): autocannon.Request => ({ ...req, path: `${plain}&r=${n++}` }) }
            : { method: 'GET', path: plain },
        ],
      },
      (err: Error | null, result: autocannon.Result) => {
        if (err) return reject(err);
        resolve({
          latencies: opts.keep === false ? [] : latencies,
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          seconds: result.duration,
        });
      },
    );
    if (opts.keep !== false) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

const feedAtScaleBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const idleKb = await idleNodeRssKb();
    const fake = await startFakePlatform({ channels: [] }); // never asked: feeds are requested by channel id
    cleanup.add('fake platform', () => fake.close());
    const sizes = [1_000, 100_000] as const;
    const apis: { size: number; dir: string; api: Started; base: string; served: number; rendered: number }[] = [];
    for (const size of sizes) {
      const dir = tempDir(cleanup, `api${size}`);
      const fillStart = performance.now();
      await fillDatabase(path.join(dir, 'feeds.db'), size);
      progress(`filled ${size} videos in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
      const port = await freePort();
      const api = startApiLoggingToFile(cleanup, serviceEnv(dir, port, fake.url), dir);
      apis.push({ size, dir, api, base: `http://127.0.0.1:${port}`, served: 0, rendered: 0 });
    }
    for (const a of apis) await waitForHealth(a.api, a.base);
    // The measured channel sits in the middle of the channel range, its 100 videos interleaved with others.
    const channelOf = (size: number): string => benchChannelId(Math.floor(size / 100 / 2));

    const plain = new Map<number, number[]>(sizes.map((s) => [s, []]));
    const busted = new Map<number, number[]>(sizes.map((s) => [s, []]));
    const rps = new Map<string, number[]>();
    let bad = 0;
    const record = (a: (typeof apis)[number], r: LoadResult, into: number[], key: string): void => {
      a.served += r.requests;
      bad += r.non2xx + r.errors;
      into.push(...r.latencies);
      rps.set(key, [...(rps.get(key) ?? []), r.requests / r.seconds]);
    };
    for (const a of apis) {
      const check = await getFeed(a.base, `channel_id=${channelOf(a.size)}`);
      if (check.status !== 200) throw new Error(`feed at ${a.size} answered ${check.status}`);
      await check.arrayBuffer();
      a.served += 1;
      // Warm-up: JIT, SQLite page cache, render cache.
      record(a, await load(a.base, channelOf(a.size), { seconds: 1, bust: false, keep: false }), [], 'warm');
    }
    // Rounds alternate between the two databases, in A-B then B-A order, so that machine noise
    // and whatever runs just before hit both alike.
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      const order = round % 2 === 0 ? apis : [...apis].reverse();
      for (const a of order) record(a, await load(a.base, channelOf(a.size), { seconds: LATENCY_ROUND_SECONDS, bust: false }), plain.get(a.size)!, `plain${a.size}`);
      for (const a of order) {
        const before = a.served;
        record(a, await load(a.base, channelOf(a.size), { seconds: LATENCY_ROUND_SECONDS, bust: true }), busted.get(a.size)!, `bust${a.size}`);
        a.rendered += a.served - before;
      }
    }
    if (bad > 0) throw new Error(`${bad} non-2xx answers or errors under load`);
    const p = (m: Map<number, number[]>, s: number): number => median(m.get(s)!);
    const p99 = (m: Map<number, number[]>, s: number): number => percentile(m.get(s)!, 99);
    const plainRatio = p(plain, 100_000) / p(plain, 1_000);
    const bustRatio = p(busted, 100_000) / p(busted, 1_000);
    const rpsOf = (key: string): string => median(rps.get(key) ?? []).toFixed(0);
    progress(`latency plain ${p(plain, 1_000).toFixed(3)} → ${p(plain, 100_000).toFixed(3)} ms; uncached ${p(busted, 1_000).toFixed(3)} → ${p(busted, 100_000).toFixed(3)} ms`);

    // The 100k latency API after its mixed load (render cache filled by the uncached renders).
    const big = apis.find((a) => a.size === 100_000)!;
    const mixed = memoryKb(big.api.child.pid!);
    if (!mixed) throw new Error('the 100k API exited under load');
    for (const a of apis) await stopService(a.api);

    // 4a. API memory: a fresh API process over the 100k database, API_TOTAL_REQUESTS plain GETs.
    const port = await freePort();
    const fresh = startApiLoggingToFile(cleanup, serviceEnv(big.dir, port, fake.url), big.dir);
    const freshBase = `http://127.0.0.1:${port}`;
    await waitForHealth(fresh, freshBase);
    const pid = fresh.child.pid!;
    const startKb = memoryKb(pid)?.rss ?? NaN;
    const sampler = new TreeSampler(pid);
    const loadStart = performance.now();
    let served = 0;
    try {
      const r = await load(freshBase, channelOf(100_000), { amount: API_TOTAL_REQUESTS, bust: false, keep: false });
      served = r.requests;
      if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx + r.errors} non-2xx answers or errors in the memory run`);
    } finally {
      sampler.stop();
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const after = memoryKb(pid);
    if (!after) throw new Error('API exited under load');
    progress(`API RSS ${mb(after.rss).toFixed(1)} MB after ${served} requests (peak ${mb(after.hwm).toFixed(1)} MB); mixed-load API ${mb(mixed.rss).toFixed(1)} MB`);

    return {
      title: 'End to end: the feed at 1k vs 100k stored videos, and API memory (compiled API process, SQLite)',
      rows: [
        {
          readme: 'feed latency over HTTP at 100k stored videos, median (autocannon, 10 conn.)',
          metric: 'feed latency over HTTP, median at 100k stored videos (10 items, plain GET, 10 connections); lower is better',
          value: round(p(plain, 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p(plain, 1_000), 3) },
          ratio: round(plainRatio, 2),
          target: '<= 1.3x of 1k',
          met: plainRatio <= 1.3,
        },
        {
          readme: 'the same, every request rendered (render cache bypassed)',
          metric: 'feed latency over HTTP, median at 100k stored videos, every request rendered (render cache bypassed); lower is better',
          value: round(p(busted, 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p(busted, 1_000), 3) },
          ratio: round(bustRatio, 2),
          target: '<= 1.3x of 1k',
          met: bustRatio <= 1.3,
        },
        {
          readme: 'API memory after 100k feed requests at 100k stored videos',
          metric: `API resident memory (VmRSS) after ${served.toLocaleString('en-US')} plain feed GETs at 100k stored videos, fresh process; lower is better`,
          value: round(mb(after.rss), 1),
          unit: 'MB',
          baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
          ratio: round(after.rss / idleKb, 1),
          target: '< 150 MB',
          met: mb(after.rss) < 150,
        },
        {
          metric: `API resident memory (VmRSS) after ${big.served.toLocaleString('en-US')} requests of which ${big.rendered.toLocaleString('en-US')} uncached renders (the 100k latency process); lower is better`,
          value: round(mb(mixed.rss), 1),
          unit: 'MB',
          baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
          ratio: round(mixed.rss / idleKb, 1),
        },
      ],
      notes: [
        `latency: one API process per database (1k = 10 channels, 100k = 1000 channels of 100 videos, 1 KB transcripts, 5% awaiting retry, 5% given up, loaded in mixed-channel batches of 500), ` +
          `GET /?channel_id=… with X-API-Key, LOG_LEVEL=info (access log lines to a file), autocannon 10 connections in this process, ${LATENCY_ROUNDS} rounds of ${LATENCY_ROUND_SECONDS} s per database and variant (A-B, B-A, A-B) after a 1 s warm-up; ` +
          `median and p99 over every response's own latency (float ms from autocannon's response event, not its integer histogram). ` +
          `p99: plain ${p99(plain, 1_000).toFixed(2)} / ${p99(plain, 100_000).toFixed(2)} ms, rendered ${p99(busted, 1_000).toFixed(2)} / ${p99(busted, 100_000).toFixed(2)} ms (1k / 100k); ` +
          `throughput: plain ${rpsOf('plain1000')} / ${rpsOf('plain100000')} req/s, rendered ${rpsOf('bust1000')} / ${rpsOf('bust100000')} req/s. ` +
          `"Rendered" adds a unique unknown query parameter (&r=N): it is part of the self link, hence of the ETag, so the render cache never hits (a cold-ish path); the store query runs on every request in both variants`,
        `API memory: a fresh API process over the 100k database, ${served.toLocaleString('en-US')} plain GETs of the 10-item feed in ${loadSeconds.toFixed(1)} s (autocannon, 10 connections); ` +
          `VmRSS ${mb(startKb).toFixed(1)} MB idle after start, ${mb(after.rss).toFixed(1)} MB after (${splitOf(after)}), peak VmHWM ${mb(after.hwm).toFixed(1)} MB. ` +
          `The latency process at 100k, after its mixed load: ${mb(mixed.rss).toFixed(1)} MB (${splitOf(mixed)}), peak ${mb(mixed.hwm).toFixed(1)} MB. Idle bare node measured the same way: ${mb(idleKb).toFixed(1)} MB`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default feedAtScaleBenchmark;

if (require.main === module) runStandalone(feedAtScaleBenchmark);
