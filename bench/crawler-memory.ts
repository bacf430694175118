// End to end, one measurement: the compiled crawler's resident memory while it crawls 100 videos
// from the fake platform, without a browser and with the browser fallback clearing a JavaScript
// challenge in a real Chromium (summed VmRSS and PSS of the crawler and its Chromium processes),
// beside an idle bare node process. Run alone: `npx tsx bench/crawler-memory.ts`.

import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore } from '../shared/store';
import { makeChannel, startFakePlatform, type FakeCounters } from '../test/fake-platform';
import { chromiumPath, memoryKb, TreeSampler, type MemoryKb } from '../test/support/process-tree';
import { ensureBuilt } from '../test/support/processes';
import { Cleanup, describeCounters, getFeed, idleNodeRssKb, logsWith, mb, progressOf, runEnded, splitOf, startPair, tempDir } from './services';
import { round, runStandalone } from './support';
import type { Benchmark, BenchRow, BenchSection } from './types';
import { refreshAll } from '../test/support/refresh';

const MEMORY_CHANNEL_VIDEOS = 100;
const RSS_SAMPLE_MS = 200;
const progress = progressOf('crawler-memory');
const CHROMIUM = chromiumPath();

interface CrawlMemory {
  peakCrawlerKb: number;
  peakTreeKb: number;
  peakTreePssKb: number;
  peakChildren: number;
  crawlerAtPeak: MemoryKb | null;
  treeAtPeak: TreeSampler['treeAtPeak'];
  childrenAtEnd: number;
  treeAtEndKb: number;
  stored: number;
  seconds: number;
  samples: number;
  browserCleared: number;
  outcome: string;
  /** Videos listed but never stored because no exact publish date was found. */
  undated: number;
  /** Requests of a second, nothing-new run (only without the browser). */
  refresh: FakeCounters | null;
}

async function crawlMemory(withBrowser: boolean): Promise<CrawlMemory> {
  const cleanup = new Cleanup();
  try {
    const channel = makeChannel({ handle: withBrowser ? 'benchmembrowser' : 'benchmem', count: MEMORY_CHANNEL_VIDEOS + 20, seed: withBrowser ? 14 : 13 });
    const fake = await startFakePlatform({ channels: [channel] });
    cleanup.add('fake platform', () => fake.close());
    const dir = tempDir(cleanup, withBrowser ? 'browser' : 'crawl');
    const extra: Record<string, string> = { CRAWL_POLL_SECONDS: '1' };
    if (withBrowser) {
      extra.BROWSER_EXECUTABLE_PATH = CHROMIUM ?? 'off';
      // The profile waits 30–60 s after a block before escalating; memory does not depend on that
      // idle wait, the benchmark's time budget does.
      extra.CRAWL_BLOCKED_WAIT = '1';
    }
    const { crawler, base } = await startPair(cleanup, dir, fake.url, extra);
    if (withBrowser) fake.scenario.jsChallenge(true);
    const pid = crawler.child.pid!;
    const sampler = new TreeSampler(pid, RSS_SAMPLE_MS);
    const started = performance.now();
    let ended: Record<string, unknown>;
    try {
      const reg = await getFeed(base, `channel_id=${channel.channelId}&max_items=${MEMORY_CHANNEL_VIDEOS}`);
      await reg.arrayBuffer();
      ended = await runEnded(crawler, 1, 150_000);
    } finally {
      sampler.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const end = memoryKb(pid);
    const undated = logsWith(crawler, 'publish date unknown; retried next run').length;
    let refresh: FakeCounters | null = null;
    if (!withBrowser) {
      // A second run with nothing new: what do the never-stored (undated) videos cost each refresh?
      const store = await openStore(`sqlite:${path.join(dir, 'feeds.db')}`, { logger: silentLogger() });
      cleanup.add('bench store handle', () => store.close());
      fake.resetCounters();
      await refreshAll(store, new Date());
      await runEnded(crawler, 2, 60_000);
      refresh = fake.counters;
    }
    return {
      peakCrawlerKb: Math.max(sampler.peakRootKb, end?.hwm ?? 0),
      peakTreeKb: sampler.peakTreeKb,
      peakTreePssKb: sampler.peakTreePssKb,
      peakChildren: sampler.peakChildren,
      crawlerAtPeak: sampler.rootAtPeak,
      treeAtPeak: sampler.treeAtPeak,
      childrenAtEnd: sampler.lastChildren,
      treeAtEndKb: sampler.lastTreeKb,
      stored: Number(ended.stored),
      seconds,
      samples: sampler.samples,
      browserCleared: logsWith(crawler, 'browser fallback cleared the block; its session is reused').length,
      outcome: String(ended.outcome),
      undated,
      refresh,
    };
  } finally {
    await cleanup.runAll();
  }
}

const crawlerMemoryBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const idleKb = await idleNodeRssKb();
  const plain = await crawlMemory(false);
  progress(`crawler peak ${mb(plain.peakCrawlerKb).toFixed(1)} MB, ${plain.stored} stored in ${plain.seconds.toFixed(1)} s`);
  const rows: BenchRow[] = [
    {
      readme: 'crawler memory, no browser',
      metric: `crawler peak resident memory crawling ${MEMORY_CHANNEL_VIDEOS} videos, no browser (BROWSER_EXECUTABLE_PATH=off); lower is better`,
      value: round(mb(plain.peakCrawlerKb), 1),
      unit: 'MB',
      baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
      ratio: round(plain.peakCrawlerKb / idleKb, 1),
      target: '< 250 MB',
      met: mb(plain.peakCrawlerKb) < 250,
    },
  ];
  const notes = [
    `crawler memory: a fresh ${MEMORY_CHANNEL_VIDEOS + 20}-upload channel (default captions mix) registered with max_items=${MEMORY_CHANNEL_VIDEOS}, fast profile, poll 1 s; VmRSS sampled every ${RSS_SAMPLE_MS} ms from the request to the run's end (max with the kernel's VmHWM). ` +
      `No browser: ${plain.stored} videos stored in ${plain.seconds.toFixed(1)} s (outcome ${plain.outcome}), ${plain.samples} samples` +
      (plain.crawlerAtPeak ? `, at peak ${splitOf(plain.crawlerAtPeak)}` : '') +
      `; ${plain.undated} listed video(s) left unstored for want of a publish date, which the crawler looks up again on every run: a second run with nothing new cost ${plain.refresh?.total ?? '?'} requests (${plain.refresh ? describeCounters(plain.refresh) : '?'})`,
  ];
  if (CHROMIUM !== null) {
    const browser = await crawlMemory(true);
    progress(`crawler + Chromium peak ${mb(browser.peakTreeKb).toFixed(1)} MB (${browser.peakChildren} children), ${browser.stored} stored in ${browser.seconds.toFixed(1)} s`);
    const used = browser.browserCleared > 0 && browser.peakChildren > 0;
    rows.push({
      readme: 'crawler + Chromium memory (summed RSS of every process)',
      metric: `crawler + its Chromium processes, peak of the summed VmRSS, crawling ${MEMORY_CHANNEL_VIDEOS} videos behind the JS challenge (browser fallback active); lower is better`,
      value: round(mb(browser.peakTreeKb), 1),
      unit: 'MB',
      baseline: { label: 'idle bare node process', value: round(mb(idleKb), 1) },
      ratio: round(browser.peakTreeKb / idleKb, 1),
      target: '< 600 MB',
      met: used ? mb(browser.peakTreeKb) < 600 : false,
    });
    const byKind = browser.treeAtPeak.map((r) => `${r.kind} ${mb(r.rss).toFixed(0)}/${mb(r.anon).toFixed(0)}/${mb(r.pss).toFixed(0)}`).join(', ');
    notes.push(
      `with the browser: fake jsChallenge on, BROWSER_EXECUTABLE_PATH=${CHROMIUM}, CRAWL_BLOCKED_WAIT=1 (the profile's 30–60 s wait before escalating is idle time, cut for the time budget); ` +
        `the browser cleared the block ${browser.browserCleared} time(s); ${browser.stored} videos stored in ${browser.seconds.toFixed(1)} s (outcome ${browser.outcome}); ` +
        `up to ${browser.peakChildren} child processes, ${browser.childrenAtEnd} still alive at the run's end holding ${mb(browser.treeAtEndKb).toFixed(0)} MB summed VmRSS. ` +
        `At the peak, per process VmRSS/RssAnon/PSS in MB: ${byKind}. ` +
        `Summed VmRSS counts pages shared between Chromium processes (binary, fonts, shared memory) once per process: the summed PSS peak was ${mb(browser.peakTreePssKb).toFixed(0)} MB; the crawler alone peaked at ${mb(browser.peakCrawlerKb).toFixed(1)} MB` +
        (used ? '' : ' — WARNING: the browser fallback was not seen clearing the block, so the figure does not measure it'),
    );
  } else {
    notes.push('browser fallback not measured: no Chromium found (apt-get install chromium, or set BROWSER_EXECUTABLE_PATH)');
  }
  return { title: 'End to end: crawler memory, without and with the browser fallback (crawler process and its Chromium)', rows, notes };
};

export default crawlerMemoryBenchmark;

if (require.main === module) runStandalone(crawlerMemoryBenchmark);
