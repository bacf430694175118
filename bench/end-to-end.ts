// End-to-end benchmark (issue 6): the compiled API and crawler started as separate OS processes (as
// PM2 starts them) against the fake platform on loopback, on real SQLite files in temp dirs.
//   1. time from a reader's first feed request to the first 200, `fast` profile, against the
//      platform client alone doing the same platform work in-process;
//   2. platform requests per stored video (first crawl of 40, steady state of 5 new uploads, an
//      unchanged channel) against the floor of 2 (player + timed text);
//   3. feed latency over HTTP with 1k vs 100k stored videos (autocannon, 10 connections);
//   4. resident memory: API after ~100k requests, crawler crawling 100 videos with and without the
//      browser fallback, each beside an idle bare `node` process.
// Run alone: `npx tsx bench/end-to-end.ts` (Markdown) or `npx tsx bench/end-to-end.ts --json`.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../shared/config/load';
import { silentLogger } from '../shared/logger';
import { createPlatformClient, PlatformError } from '../shared/platform';
import { openStore, type Store } from '../shared/store';
import { makeChannel, startFakePlatform, type FakeChannelSpec, type FakeCounters, type FakePlatform } from '../test/fake-platform';
import { ensureBuilt, freePort, ROOT, startEntry, waitFor, type Started } from '../test/support/processes';
import { benchChannelId, loadBenchVideos, median, round, runStandalone, transcriptOf } from './support';
import type { Benchmark, BenchRow, BenchSection } from './types';

const KEY = 'bench-e2e-key-0123456789abcdef';
const CHROMIUM = '/usr/bin/chromium';
/** The spec's default poll interval; item 1 runs with it (the fair figure). */
const DEFAULT_POLL_SECONDS = 5;
const FIRST_FEED_RUNS = 3;
const READER_POLL_MS = 100;
const COUNT_CHANNEL_WANTED = 40;
const NEW_UPLOADS = 5;
const LATENCY_ROUNDS = 3;
const LATENCY_ROUND_SECONDS = 2;
const API_TOTAL_REQUESTS = 100_000;
const MEMORY_CHANNEL_VIDEOS = 100;
const RSS_SAMPLE_MS = 200;

// ── small helpers ───────────────────────────────────────────────────────────────────────────────

const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const progress = (msg: string): void => console.error(`  end-to-end: ${msg}`);
const mb = (kb: number): number => kb / 1024;

/** Everything started or created by the benchmark, undone in reverse order (always, in finally). */
class Cleanup {
  private readonly steps: { what: string; run: () => Promise<void> | void }[] = [];
  add(what: string, run: () => Promise<void> | void): void {
    this.steps.push({ what, run });
  }
  async runAll(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`  end-to-end: cleanup of ${step.what} failed: ${String(err)}`);
      }
    }
  }
}

function tempDir(cleanup: Cleanup, name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tf-bench-e2e-${name}-`));
  fs.writeFileSync(
    path.join(dir, 'security.yaml'),
    `security:\n  api_keys:\n    ${KEY}:\n      name: "bench reader"\n      rate_limit: 100000000\n      enabled: true\n`,
  );
  cleanup.add(`temp dir ${dir}`, () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Environment as the e2e test sets it, minus its shortened waits: the profile's own values apply. */
function serviceEnv(dir: string, port: number, platformUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dir, 'feeds.db')}`,
    SECURITY_CONFIG: path.join(dir, 'security.yaml'),
    PLATFORM_BASE_URL: platformUrl,
    CRAWL_PROFILE: 'fast',
    BROWSER_EXECUTABLE_PATH: 'off',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

// ── processes and /proc ─────────────────────────────────────────────────────────────────────────

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pid → parent pid for every process visible in /proc. */
function parentMap(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may contain spaces and parentheses, so cut after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(Number(name), ppid);
    } catch {
      // The process ended between readdir and read.
    }
  }
  return out;
}

function descendants(root: number): number[] {
  const parents = parentMap();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const todo = [...(children.get(root) ?? [])];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

interface MemoryKb {
  rss: number;
  /** Peak RSS as the kernel recorded it. */
  hwm: number;
  /** RSS split: anonymous (heap, stacks), file-backed (code, mmapped files), shared memory. */
  anon: number;
  file: number;
  shmem: number;
}

/** VmRSS, VmHWM and the RSS split of one process in kB; null once it is gone. */
function memoryKb(pid: number): MemoryKb | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM'), anon: field('RssAnon'), file: field('RssFile'), shmem: field('RssShmem') };
  } catch {
    return null;
  }
}

const splitOf = (m: MemoryKb): string =>
  `anon ${mb(m.anon).toFixed(1)} + file ${mb(m.file).toFixed(1)} + shmem ${mb(m.shmem).toFixed(1)} MB`;

/** What a process is, for the breakdown: node, or Chromium's --type (browser when none). */
function kindOf(pid: number): string {
  try {
    // Chromium rewrites its argv into one space-separated string; node keeps NUL separators.
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    const type = /--type=(\S+)/.exec(cmdline)?.[1];
    const sub = /--utility-sub-type=\S*?(\w+)\.mojom/.exec(cmdline)?.[1];
    if (type) return sub ? `${type}:${sub}` : type;
    const exe = path.basename(cmdline.split(' ')[0] ?? '?');
    if (/crashpad/.test(exe)) return 'crashpad';
    return /chrom/i.test(exe) || /--remote-debugging-pipe/.test(cmdline) ? 'browser' : exe;
  } catch {
    return '?';
  }
}

/** Proportional set size (shared pages split among sharers) in kB; null when unreadable. */
function pssKb(pid: number): number | null {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const m = /^Pss:\s+(\d+) kB/m.exec(rollup);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Samples a process and its descendants every RSS_SAMPLE_MS until stopped. */
class TreeSampler {
  peakRootKb = 0;
  peakTreeKb = 0;
  peakTreePssKb = 0;
  peakChildren = 0;
  samples = 0;
  /** The root's memory at its own peak sample. */
  rootAtPeak: MemoryKb | null = null;
  /** Each process of the tree at the tree's peak sample: kind, VmRSS, RssAnon, PSS (kB). */
  treeAtPeak: { kind: string; rss: number; anon: number; pss: number }[] = [];
  /** Descendants and summed VmRSS at the last sample (after stop(): at the end). */
  lastChildren = 0;
  lastTreeKb = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly root: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
  }
  private sample(): void {
    const own = memoryKb(this.root);
    if (!own) return;
    const kids = descendants(this.root);
    const rows = [{ kind: 'node (root)', rss: own.rss, anon: own.anon, pss: pssKb(this.root) ?? 0 }];
    for (const pid of kids) {
      const m = memoryKb(pid);
      if (m) rows.push({ kind: kindOf(pid), rss: m.rss, anon: m.anon, pss: pssKb(pid) ?? 0 });
    }
    const tree = rows.reduce((sum, r) => sum + r.rss, 0);
    const pss = rows.reduce((sum, r) => sum + r.pss, 0);
    this.samples += 1;
    if (own.rss > this.peakRootKb) {
      this.peakRootKb = own.rss;
      this.rootAtPeak = own;
    }
    if (tree > this.peakTreeKb) {
      this.peakTreeKb = tree;
      this.treeAtPeak = rows;
    }
    this.peakTreePssKb = Math.max(this.peakTreePssKb, pss);
    this.peakChildren = Math.max(this.peakChildren, kids.length);
    this.lastChildren = kids.length;
    this.lastTreeKb = tree;
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}

/**
 * SIGTERM (the service's own clean shutdown), SIGKILL after 10 s; then any descendant still alive
 * (a Chromium the crawler started) is killed by its pid.
 */
async function stopService(p: Started): Promise<void> {
  const pid = p.child.pid;
  const kids = pid !== undefined ? descendants(pid) : [];
  const killer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  try {
    await p.stop('SIGTERM');
  } finally {
    clearTimeout(killer);
  }
  for (const k of kids) {
    if (pidAlive(k)) {
      try {
        process.kill(k, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

function start(cleanup: Cleanup, entry: 'api' | 'crawler', env: Record<string, string>, cwd: string): Started {
  const p = startEntry(entry, env, cwd);
  cleanup.add(`${entry} pid ${p.child.pid ?? '?'}`, () => stopService(p));
  return p;
}

/**
 * The API for the load runs, its JSON log lines written to a file as PM2's out_file would hold
 * them, rather than piped into this process: parsing and keeping 100k access-log lines here would
 * take CPU from autocannon (same 2 cores) and could push back on the API through a full pipe.
 */
function startApiLoggingToFile(cleanup: Cleanup, env: Record<string, string>, dir: string): Started {
  const out = fs.openSync(path.join(dir, 'api.out.log'), 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/api/main.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', out, 'pipe'],
  });
  fs.closeSync(out);
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const p: Started = {
    child,
    logs: [],
    stderr,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  cleanup.add(`api pid ${child.pid ?? '?'}`, () => stopService(p));
  return p;
}

async function startPair(cleanup: Cleanup, dir: string, platformUrl: string, extra: Record<string, string>): Promise<{ api: Started; crawler: Started; base: string }> {
  const port = await freePort();
  const env = serviceEnv(dir, port, platformUrl, extra);
  const api = start(cleanup, 'api', env, dir);
  const crawler = start(cleanup, 'crawler', env, dir);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(api, base);
  await waitFor('the crawler to start', () => (hasLog(crawler, 'crawler started') ? true : undefined), 30_000, 20);
  return { api, crawler, base };
}

async function waitForHealth(api: Started, base: string): Promise<void> {
  await waitFor(`the API at ${base} (stderr: ${api.stderr.join('').slice(0, 300)})`, async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 30_000, 50);
}

const msgOf = (l: Record<string, unknown>): string => (typeof l.msg === 'string' ? l.msg : '');
const hasLog = (p: Started, msg: string): boolean => p.logs.some((l) => msgOf(l) === msg);
const logsWith = (p: Started, msg: string): Record<string, unknown>[] => p.logs.filter((l) => msgOf(l) === msg);
const timeOf = (l: Record<string, unknown> | undefined): number =>
  l === undefined ? NaN : typeof l.time === 'number' ? l.time : typeof l.time === 'string' ? Date.parse(l.time) : NaN;

/** Waits for the crawler's `n`-th 'run ended' line and returns it. */
async function runEnded(crawler: Started, n: number, timeoutMs: number): Promise<Record<string, unknown>> {
  return waitFor(`crawler run #${n} to end`, () => logsWith(crawler, 'run ended')[n - 1], timeoutMs, 50);
}

function feedUrl(base: string, query: string): string {
  return `${base}/?${query}`;
}
const getFeed = (base: string, query: string): Promise<Response> => fetch(feedUrl(base, query), { headers: { 'X-API-Key': KEY } });

async function idleNodeRssKb(cleanup: Cleanup): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(()=>{},1e3)'], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  cleanup.add(`idle node pid ${child.pid ?? '?'}`, async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  await sleep(1500);
  const m = child.pid !== undefined ? memoryKb(child.pid) : null;
  child.kill('SIGKILL');
  await exited;
  if (!m) throw new Error('idle node: could not read its VmRSS');
  return m.rss;
}

// ── 1. first feed request → first 200 ───────────────────────────────────────────────────────────

interface FirstFeedRun {
  ms: number;
  /** Request → the crawler's 'run started'. */
  waitMs: number;
  /** 'run started' → first 'batch stored'. */
  crawlMs: number;
  offsetMs: number;
}

async function firstFeedRun(fake: FakePlatform, channel: FakeChannelSpec, offsetMs: number): Promise<FirstFeedRun> {
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
async function platformAloneMs(fake: FakePlatform, channel: FakeChannelSpec, configDir: string): Promise<{ ms: number; requests: number }> {
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

async function benchFirstFeed(): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const cleanup = new Cleanup();
  try {
    const channel = makeChannel({ handle: 'benchfirst', count: 60, seed: 11 });
    const fake = await startFakePlatform({ channels: [channel] });
    cleanup.add('fake platform', () => fake.close());
    const configDir = tempDir(cleanup, 'cfg');
    const runs: FirstFeedRun[] = [];
    const base: number[] = [];
    let baseRequests = 0;
    for (let i = 0; i < FIRST_FEED_RUNS; i++) {
      const offsetMs = Math.round(((i + 0.5) / FIRST_FEED_RUNS) * DEFAULT_POLL_SECONDS * 1000);
      const r = await firstFeedRun(fake, channel, offsetMs);
      runs.push(r);
      const b = await platformAloneMs(fake, channel, configDir);
      base.push(b.ms);
      baseRequests = b.requests;
      progress(`first 200 after ${(r.ms / 1000).toFixed(2)} s (poll phase ${offsetMs} ms); platform alone ${b.ms.toFixed(0)} ms`);
    }
    const s = median(runs.map((r) => r.ms)) / 1000;
    const b = median(base) / 1000;
    return {
      rows: [
        {
          metric: `first feed request → first 200, fast profile, CRAWL_POLL_SECONDS=${DEFAULT_POLL_SECONDS} (default), median of ${FIRST_FEED_RUNS}; lower is better`,
          value: round(s, 2),
          unit: 's',
          baseline: { label: `platform client alone: resolve + list + the first batch's 10 transcripts (${baseRequests} requests), median of ${FIRST_FEED_RUNS}`, value: round(b, 3) },
          ratio: round(s / b, 1),
          target: '< 10 s',
          met: s < 10,
        },
      ],
      notes: [
        `first 200: api + crawler spawned from dist/ with a fresh SQLite file each run, CRAWL_PROFILE=fast with no overrides, default poll ${DEFAULT_POLL_SECONDS} s; ` +
          `the reader asks by handle (default max_items 10) and retries every ${READER_POLL_MS} ms. Runs start at poll phases ${runs.map((r) => `${r.offsetMs} ms`).join(', ')} after the crawler's start-up poll (stratified over one cycle). ` +
          `Per run: request → claim ${runs.map((r) => `${(r.waitMs / 1000).toFixed(2)}`).join(' / ')} s, claim → first batch stored ${runs.map((r) => `${(r.crawlMs / 1000).toFixed(2)}`).join(' / ')} s, total ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(' / ')} s`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
}

// ── 2. platform requests per stored video ───────────────────────────────────────────────────────

const ENDPOINTS = ['resolve', 'handlePage', 'channelPage', 'feed', 'browse', 'browseContinuation', 'watch', 'player', 'timedtext', 'other'] as const;
const describeCounters = (c: FakeCounters): string =>
  ENDPOINTS.filter((k) => c[k] > 0).map((k) => `${k} ${c[k]}`).join(', ') || 'none';
const perVideo = (c: FakeCounters, stored: number): string =>
  ENDPOINTS.filter((k) => c[k] > 0).map((k) => `${k} ${(c[k] / stored).toFixed(2)}`).join(', ');

async function benchRequestCounts(): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const cleanup = new Cleanup();
  try {
    const channel = makeChannel({ handle: 'benchforty', count: 60, seed: 12 });
    const fake = await startFakePlatform({ channels: [channel] });
    cleanup.add('fake platform', () => fake.close());
    const dir = tempDir(cleanup, 'count');
    // Poll every second only to save wall time; counts do not depend on it. Profile values as shipped.
    const { crawler, base } = await startPair(cleanup, dir, fake.url, { CRAWL_POLL_SECONDS: '1' });
    const store = await openStore(`sqlite:${path.join(dir, 'feeds.db')}`, { logger: silentLogger() });
    cleanup.add('bench store handle', () => store.close());

    fake.resetCounters();
    const reg = await getFeed(base, `channel_id=${channel.channelId}&max_items=${COUNT_CHANNEL_WANTED}`);
    if (reg.status !== 404) throw new Error(`first feed request answered ${reg.status}, expected 404`);
    const first = await runEnded(crawler, 1, 90_000);
    const firstCounters = fake.counters;
    const firstStored = Number(first.stored);
    if (first.outcome !== 'ok' || firstStored <= 0) throw new Error(`first crawl: ${JSON.stringify(first)}`);

    // Steady state: new uploads, then the scheduled refresh (what the cron does: markAllDue).
    for (let i = 0; i < NEW_UPLOADS; i++) fake.addUpload(channel.channelId, { title: `Bench upload ${i}` });
    fake.resetCounters();
    await store.markAllDue(new Date());
    const second = await runEnded(crawler, 2, 60_000);
    const steadyCounters = fake.counters;
    const steadyStored = Number(second.stored);

    // Nothing new.
    fake.resetCounters();
    await store.markAllDue(new Date());
    const third = await runEnded(crawler, 3, 60_000);
    const idleCounters = fake.counters;
    progress(`requests: first ${firstCounters.total}/${firstStored}, steady ${steadyCounters.total}/${steadyStored}, unchanged ${idleCounters.total} (stored ${String(third.stored)})`);

    const firstPer = firstCounters.total / firstStored;
    const videoRequests = (c: FakeCounters): number => c.watch + c.player + c.timedtext;
    const steadyVideoPer = steadyStored > 0 ? videoRequests(steadyCounters) / steadyStored : NaN;
    const listingRequests = steadyCounters.total - videoRequests(steadyCounters);
    const steadyPer = steadyStored > 0 ? steadyCounters.total / steadyStored : NaN;
    const floor = { label: 'floor: player + timed text', value: 2 };
    return {
      rows: [
        {
          metric: `platform requests per stored video, steady state (${NEW_UPLOADS} new uploads after a refresh, wanted ${COUNT_CHANNEL_WANTED}, listing included); lower is better`,
          value: round(steadyPer, 2),
          unit: 'requests',
          baseline: floor,
          ratio: round(steadyPer / 2, 2),
          // The issue bounds the two parts separately: at most 2 requests per new video and at most
          // 1 listing request per refresh, so with the listing spread over the new videos the
          // bound is 2 + 1/n.
          target: `<= 2 per video + 1 listing = ${round(2 + 1 / Math.max(1, steadyStored), 2)}`,
          met: steadyPer <= 2 + 1 / Math.max(1, steadyStored) + 1e-9,
        },
        {
          metric: `platform requests per stored video, steady state, the videos' own requests only (watch + player + timed text; listing left out); lower is better`,
          value: round(steadyVideoPer, 2),
          unit: 'requests',
          baseline: floor,
          ratio: round(steadyVideoPer / 2, 2),
          target: '<= 2',
          met: steadyVideoPer <= 2,
        },
        {
          metric: `platform requests per stored video, first crawl of ${firstStored} (listing, continuations and date lookups included); lower is better`,
          value: round(firstPer, 2),
          unit: 'requests',
          baseline: floor,
          ratio: round(firstPer / 2, 2),
        },
        {
          metric: `platform requests to learn an unchanged channel (wanted ${COUNT_CHANNEL_WANTED}) has nothing new; lower is better`,
          value: idleCounters.total,
          unit: 'requests',
          baseline: { label: 'one channel-feed request', value: 1 },
          ratio: idleCounters.total,
          target: '<= 1',
          met: idleCounters.total <= 1,
        },
      ],
      notes: [
        `requests: fake platform counters over a channel of 60 uploads (default captions mix: some without captions, unavailable, age-restricted), registered with channel_id & max_items=${COUNT_CHANNEL_WANTED} (no handle resolution); crawler with CRAWL_PROFILE=fast as shipped, CRAWL_POLL_SECONDS=1 (timing only); refreshes triggered with store.markAllDue, as the refresh cron does`,
        `first crawl: ${firstCounters.total} requests for ${firstStored} stored videos (${describeCounters(firstCounters)}; per video: ${perVideo(firstCounters, firstStored)})`,
        `steady state: ${steadyCounters.total} requests for ${steadyStored} stored (${describeCounters(steadyCounters)}): ${listingRequests} of them list the channel, so with listing included the floor is 2 + 1/${steadyStored} = ${(2 + 1 / Math.max(1, steadyStored)).toFixed(1)} (one feed request), not 2`,
        `unchanged channel: ${idleCounters.total} requests (${describeCounters(idleCounters)})`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
}

// ── 3 & 4a. feed latency at 1k vs 100k stored videos, API memory under load ──────────────────────

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

async function benchApi(idleKb: number): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const cleanup = new Cleanup();
  try {
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
      rows: [
        {
          metric: 'feed latency over HTTP, median at 100k stored videos (10 items, plain GET, 10 connections); lower is better',
          value: round(p(plain, 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p(plain, 1_000), 3) },
          ratio: round(plainRatio, 2),
          target: '<= 1.3x of 1k',
          met: plainRatio <= 1.3,
        },
        {
          metric: 'feed latency over HTTP, median at 100k stored videos, every request rendered (render cache bypassed); lower is better',
          value: round(p(busted, 100_000), 3),
          unit: 'ms',
          baseline: { label: 'same at 1k stored videos', value: round(p(busted, 1_000), 3) },
          ratio: round(bustRatio, 2),
          target: '<= 1.3x of 1k',
          met: bustRatio <= 1.3,
        },
        {
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
}

// ── 4b. crawler memory with and without the browser fallback ────────────────────────────────────

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
      extra.BROWSER_EXECUTABLE_PATH = CHROMIUM;
      // The profile waits 30–60 s after a block before escalating; memory does not depend on that
      // idle wait, the benchmark's time budget does.
      extra.CRAWL_BLOCKED_WAIT = '1';
    }
    const { crawler, base } = await startPair(cleanup, dir, fake.url, extra);
    if (withBrowser) fake.scenario.jsChallenge(true);
    const pid = crawler.child.pid!;
    const sampler = new TreeSampler(pid);
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
      await store.markAllDue(new Date());
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

async function benchCrawlerMemory(idleKb: number): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const plain = await crawlMemory(false);
  progress(`crawler peak ${mb(plain.peakCrawlerKb).toFixed(1)} MB, ${plain.stored} stored in ${plain.seconds.toFixed(1)} s`);
  const rows: BenchRow[] = [
    {
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
  if (fs.existsSync(CHROMIUM)) {
    const browser = await crawlMemory(true);
    progress(`crawler + Chromium peak ${mb(browser.peakTreeKb).toFixed(1)} MB (${browser.peakChildren} children), ${browser.stored} stored in ${browser.seconds.toFixed(1)} s`);
    const used = browser.browserCleared > 0 && browser.peakChildren > 0;
    rows.push({
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
    notes.push(`browser fallback not measured: ${CHROMIUM} is absent`);
  }
  return { rows, notes };
}

// ── the benchmark ───────────────────────────────────────────────────────────────────────────────

const endToEndBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const started = performance.now();
  const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const add = (part: { rows: BenchRow[]; notes: string[] }): void => {
    rows.push(...part.rows);
    notes.push(...part.notes);
  };
  const cleanup = new Cleanup();
  try {
    const idleKb = await idleNodeRssKb(cleanup);
    progress(`idle node VmRSS ${mb(idleKb).toFixed(1)} MB`);
    add(await benchFirstFeed());
    add(await benchRequestCounts());
    add(await benchApi(idleKb));
    add(await benchCrawlerMemory(idleKb));
  } finally {
    await cleanup.runAll();
  }
  notes.push(
    `whole end-to-end benchmark: ${((performance.now() - started) / 1000).toFixed(0)} s on ${os.cpus().length} CPU(s), node ${process.version}; ` +
      `load average at start ${loadAtStart}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine shows here)`,
  );
  return { title: 'End to end (api + crawler processes, fake platform)', rows, notes };
};

export default endToEndBenchmark;

if (require.main === module) runStandalone(endToEndBenchmark);
