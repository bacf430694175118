// End to end, two measurements on the compiled API process over SQLite files of 1k and 100k stored
// videos: feed latency over HTTP (does the store stay flat as it grows?), cached and with every
// answer rendered, and the API's resident memory after ~100k requests, beside an idle bare node
// process. Load from wrk (bench/wrk.ts) with 10 connections: these are latency figures at a
// moderate load, not throughput (bench/api.ts measures throughput). Run alone:
// `npx tsx bench/feed-at-scale.ts`.

import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore, type Store } from '../shared/store';
import { startFakePlatform } from '../test/fake-platform';
import { memoryKb, TreeSampler } from '../test/support/process-tree';
import { ensureBuilt, type Started } from '../test/support/processes';
import { Cleanup, cpuMicrosOf, getFeed, idleNodeRssKb, KEY, mb, progressOf, serviceEnv, splitOf, startApiLoggingToFile, stopService, tempDir, waitForHealth } from './services';
import { benchChannelId, loadBenchVideos, median, round, runStandalone, transcriptOf } from './support';
import type { Benchmark, BenchSection } from './types';
import { wrk, wrkAvailable, WRK_INSTALL } from './wrk';

const LATENCY_ROUNDS = 3;
const LATENCY_ROUND_SECONDS = 2;
const CONNECTIONS = 10;
const API_TOTAL_REQUESTS = 100_000;
/** Makes every answer a render; see the script's header. */
const UNIQUE_HOST = path.join(__dirname, 'wrk-unique-host.lua');
const TITLE = 'End to end: the feed at 1k vs 100k stored videos, and API memory (compiled API process, SQLite, wrk)';
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
  requests: number;
  seconds: number;
  /** ms */
  p50: number;
  p99: number;
  /** The API process's CPU time (user + system) during the load, µs. */
  cpuMicros: number;
}

let runs = 0;

/**
 * wrk against one feed URL. `render`: each request with a Host of its own (bench/wrk-unique-host.lua),
 * so none can be a render-cache hit; throws unless every answer had an ETag not seen before.
 */
async function load(api: Started, base: string, channelId: string, seconds: number, render: boolean): Promise<LoadResult> {
  const pid = api.child.pid!;
  const cpuBefore = cpuMicrosOf(pid);
  const r = await wrk({
    url: `${base}/?channel_id=${channelId}`,
    headers: { 'X-API-Key': KEY },
    seconds,
    connections: CONNECTIONS,
    ...(render ? { script: { file: UNIQUE_HOST, args: [`run${process.pid}x${++runs}`] } } : {}),
  });
  const cpuAfter = cpuMicrosOf(pid);
  if (cpuBefore === null || cpuAfter === null) throw new Error('the API exited under load');
  if (render) {
    const check = /unique-host: (\d+) answers with a repeated ETag, (\d+) not a 200 with an ETag/.exec(r.stdout);
    if (!check) throw new Error(`wrk-unique-host.lua printed no check:\n${r.stdout}`);
    if (check[1] !== '0' || check[2] !== '0') throw new Error(`"every request rendered" is not what was measured: ${check[0]}`);
  }
  return { requests: r.requests, seconds: r.seconds, p50: r.p50, p99: r.p99, cpuMicros: cpuAfter - cpuBefore };
}

const feedAtScaleBenchmark: Benchmark = async (): Promise<BenchSection> => {
  if (!wrkAvailable()) {
    console.error(`bench feed-at-scale: ${WRK_INSTALL}`);
    return { title: TITLE, rows: [], notes: [`Skipped: ${WRK_INSTALL}.`] };
  }
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
      const { api, base } = await startApiLoggingToFile(cleanup, serviceEnv(dir, fake.url), dir);
      apis.push({ size, dir, api, base, served: 0, rendered: 0 });
    }
    for (const a of apis) await waitForHealth(a.api, a.base);
    // The measured channel sits in the middle of the channel range, its 100 videos interleaved with others.
    const channelOf = (size: number): string => benchChannelId(Math.floor(size / 100 / 2));

    type Variant = 'plain' | 'render';
    const rounds = new Map<string, LoadResult[]>();
    const key = (v: Variant, size: number): string => `${v}${size}`;
    const measure = async (a: (typeof apis)[number], v: Variant, seconds: number, keep: boolean): Promise<void> => {
      const r = await load(a.api, a.base, channelOf(a.size), seconds, v === 'render');
      a.served += r.requests;
      if (v === 'render') a.rendered += r.requests;
      if (keep) rounds.set(key(v, a.size), [...(rounds.get(key(v, a.size)) ?? []), r]);
    };
    for (const a of apis) {
      const check = await getFeed(a.base, `channel_id=${channelOf(a.size)}`);
      if (check.status !== 200) throw new Error(`feed at ${a.size} answered ${check.status}`);
      await check.arrayBuffer();
      a.served += 1;
      // Warm-up: JIT, SQLite page cache, render cache.
      await measure(a, 'plain', 1, false);
    }
    // Rounds alternate between the two databases, in A-B then B-A order, so that machine noise
    // and whatever runs just before hit both alike.
    for (let r = 0; r < LATENCY_ROUNDS; r++) {
      const order = r % 2 === 0 ? apis : [...apis].reverse();
      for (const v of ['plain', 'render'] as const) for (const a of order) await measure(a, v, LATENCY_ROUND_SECONDS, true);
    }
    const of = (v: Variant, size: number): LoadResult[] => rounds.get(key(v, size))!;
    // wrk gives each round's latency distribution; a figure is the median over the rounds.
    const p50 = (v: Variant, size: number): number => median(of(v, size).map((r) => r.p50));
    const p99 = (v: Variant, size: number): number => median(of(v, size).map((r) => r.p99));
    const sum = (xs: LoadResult[], f: (r: LoadResult) => number): number => xs.reduce((t, r) => t + f(r), 0);
    const rps = (v: Variant, size: number): string => (sum(of(v, size), (r) => r.requests) / sum(of(v, size), (r) => r.seconds)).toFixed(0);
    const cpu = (v: Variant, size: number): string => (sum(of(v, size), (r) => r.cpuMicros) / sum(of(v, size), (r) => r.requests)).toFixed(0);
    const plainRatio = p50('plain', 100_000) / p50('plain', 1_000);
    const renderRatio = p50('render', 100_000) / p50('render', 1_000);
    progress(`latency cached ${p50('plain', 1_000).toFixed(3)} → ${p50('plain', 100_000).toFixed(3)} ms; rendered ${p50('render', 1_000).toFixed(3)} → ${p50('render', 100_000).toFixed(3)} ms`);
    progress(`API CPU per request cached ${cpu('plain', 1_000)} / ${cpu('plain', 100_000)} µs, rendered ${cpu('render', 1_000)} / ${cpu('render', 100_000)} µs (1k / 100k)`);

    // The 100k latency API after its mixed load (render cache filled by the rendered answers).
    const big = apis.find((a) => a.size === 100_000)!;
    const mixed = memoryKb(big.api.child.pid!);
    if (!mixed) throw new Error('the 100k API exited under load');
    for (const a of apis) await stopService(a.api);

    // API memory: a fresh API process over the 100k database, plain GETs until API_TOTAL_REQUESTS
    // are served (wrk runs for a time, not a count: slices sized from the rate so far).
    const { api: fresh, base: freshBase } = await startApiLoggingToFile(cleanup, serviceEnv(big.dir, fake.url), big.dir);
    await waitForHealth(fresh, freshBase);
    const pid = fresh.child.pid!;
    const startKb = memoryKb(pid)?.rss ?? NaN;
    const sampler = new TreeSampler(pid);
    const loadStart = performance.now();
    let served = 0;
    try {
      let rate = 0;
      while (served < API_TOTAL_REQUESTS) {
        const seconds = rate === 0 ? 2 : Math.min(10, Math.max(1, Math.ceil((API_TOTAL_REQUESTS - served) / rate)));
        const r = await load(fresh, freshBase, channelOf(100_000), seconds, false);
        served += r.requests;
        rate = r.requests / r.seconds;
      }
    } finally {
      sampler.stop();
    }
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const after = memoryKb(pid);
    if (!after) throw new Error('API exited under load');
    progress(`API RSS ${mb(after.rss).toFixed(1)} MB after ${served} requests (peak ${mb(after.hwm).toFixed(1)} MB); mixed-load API ${mb(mixed.rss).toFixed(1)} MB`);

    return {
      title: TITLE,
      rows: [
        {
          readme: 'feed latency over HTTP at 100k stored videos, median (wrk, 10 conn.)',
          metric: 'feed latency over HTTP, median at 100k stored videos (10 items, plain GET, render cache warm, 10 connections); lower is better',
          value: round(p50('plain', 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p50('plain', 1_000), 3) },
          ratio: round(plainRatio, 2),
          target: '<= 1.3x of 1k',
          met: plainRatio <= 1.3,
        },
        {
          readme: 'the same, every request rendered (a new Host each, so a new self link and ETag)',
          metric: 'feed latency over HTTP, median at 100k stored videos, every request listed and rendered (each with its own Host header); lower is better',
          value: round(p50('render', 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p50('render', 1_000), 3) },
          ratio: round(renderRatio, 2),
          target: '<= 1.3x of 1k',
          met: renderRatio <= 1.3,
        },
        {
          readme: 'API memory after ~100k feed requests at 100k stored videos',
          metric: `API resident memory (VmRSS) after ${served.toLocaleString('en-US')} plain feed GETs at 100k stored videos, fresh process; lower is better`,
          value: round(mb(after.rss), 1),
          unit: 'MB',
          baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
          ratio: round(after.rss / idleKb, 1),
          target: '< 150 MB',
          met: mb(after.rss) < 150,
        },
        {
          metric: `API resident memory (VmRSS) after ${big.served.toLocaleString('en-US')} requests of which ${big.rendered.toLocaleString('en-US')} rendered (the 100k latency process); lower is better`,
          value: round(mb(mixed.rss), 1),
          unit: 'MB',
          baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
          ratio: round(mixed.rss / idleKb, 1),
        },
      ],
      notes: [
        `latency: one API process per database (1k = 10 channels, 100k = 1000 channels of 100 videos, 1 KB transcripts, 5% awaiting retry, 5% given up, loaded in mixed-channel batches of 500), ` +
          `GET /?channel_id=… with X-API-Key, LOG_LEVEL=info (access log lines to a file), wrk 1 thread ${CONNECTIONS} connections, ${LATENCY_ROUNDS} rounds of ${LATENCY_ROUND_SECONDS} s per database and variant (A-B, B-A, A-B) after a 1 s warm-up; ` +
          `median and p99 from each round's wrk latency distribution (--latency), the median over the rounds. ` +
          `p99: cached ${p99('plain', 1_000).toFixed(2)} / ${p99('plain', 100_000).toFixed(2)} ms, rendered ${p99('render', 1_000).toFixed(2)} / ${p99('render', 100_000).toFixed(2)} ms (1k / 100k); ` +
          `throughput: cached ${rps('plain', 1_000)} / ${rps('plain', 100_000)} req/s, rendered ${rps('render', 1_000)} / ${rps('render', 100_000)} req/s; ` +
          `API CPU per request: cached ${cpu('plain', 1_000)} / ${cpu('plain', 100_000)} µs, rendered ${cpu('render', 1_000)} / ${cpu('render', 100_000)} µs. ` +
          `"Rendered": bench/wrk-unique-host.lua gives each request a Host header of its own; the self link is built from it, so every answer has a new ETag and misses the render cache ` +
          `(the run is refused unless every answer's ETag was new). Unknown query parameters cannot do this: they are ignored. The feed's version is read from the store on every request in both variants`,
        `API memory: a fresh API process over the 100k database, ${served.toLocaleString('en-US')} plain GETs of the 10-item feed in ${loadSeconds.toFixed(1)} s (wrk, ${CONNECTIONS} connections); ` +
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
