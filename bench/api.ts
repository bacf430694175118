// API benchmark, autocannon with 50 connections against every target (same tool, same settings):
//   1. a bare node:http server returning the bytes of the real 10-item feed,
//   2. a minimal Express 5 app sending the same bytes from one route,
//   3. the real app (createApp: real SQLite, API key + store-counted rate limit, every header,
//      access log at INFO), cache-warm 10-item feed,
//   4. the real app, 100-item feed,
//   5. the real app, the 304 path (If-None-Match).
// Each server runs in a child process of its own so that autocannon (here) and the server do not
// share one event loop; each child also reports its CPU time, so the cost per request can be
// compared even on a busy machine. The real app's resident memory is read after ~100k requests.
// Run alone: `npx tsx bench/api.ts`.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { silentLogger } from '../shared/logger';
import { openStore } from '../shared/store';
import { videoFactory } from '../test/support/factories';
import type { Benchmark, BenchRow, BenchSection } from './types';
import { ensureBuilt } from '../test/support/processes';
import { runStandalone } from './support';

const ROOT = path.resolve(__dirname, '..');
const CONNECTIONS = 50;
const RUN_SECONDS = 5;
const WARM_SECONDS = 1;
/** Length of one interleaved slice; RUN_SECONDS / SLICE_SECONDS rounds. */
const SLICE_SECONDS = 1;
const MEMORY_AFTER_REQUESTS = 100_000;
/** Longest extra run spent reaching MEMORY_AFTER_REQUESTS, to keep the whole bench near 90 s. */
const FILL_MAX_SECONDS = 25;
const KEY = 'bench-key-0123456789abcdef';
const CHANNEL = 'UCbenchbenchbenchbench01';
const STORED_VIDEOS = 100;
const TRANSCRIPT_BYTES = 5 * 1024;

type Kind = 'bare' | 'express' | 'real';
type ToChild = { type: 'stats' } | { type: 'stop' };
type FromChild = { type: 'ready'; port: number } | { type: 'stats'; rss: number; heapUsed: number; cpuMicros: number };

// ── servers (child side) ──────────────────────────────────────────────────────────────────────
// Every server runs as plain compiled JavaScript (`node -e`, the API from dist/ as `npm start` runs
// it), so no TypeScript loader sits in the measured process or its memory.

const CHILD = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const { kind, arg, root } = JSON.parse(process.env.BENCH_CHILD);
const ready = (port) => process.send({ type: 'ready', port });
process.on('message', (m) => {
  if (m.type === 'stats') {
    const u = process.memoryUsage();
    const c = process.cpuUsage();
    process.send({ type: 'stats', rss: u.rss, heapUsed: u.heapUsed, cpuMicros: c.user + c.system });
  } else process.exit(0);
});
if (kind === 'bare') {
  const body = fs.readFileSync(arg);
  const server = require('node:http').createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/atom+xml', 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else if (kind === 'express') {
  const body = fs.readFileSync(arg);
  const app = require('express')();
  // Without Express's default weak ETag, which would hash the body on every request and so
  // flatter the real app's ratio.
  app.set('etag', false);
  app.get('/', (req, res) => { res.type('application/atom+xml').send(body); });
  const server = app.listen(0, '127.0.0.1', () => ready(server.address().port));
} else {
  const dist = (p) => require(path.join(root, 'dist', p));
  const { createApp } = dist('api/create-app');
  const { listen } = dist('api/server');
  const { KeyRing } = dist('shared/config/security');
  const { createLogger } = dist('shared/logger');
  const { openStore } = dist('shared/store');
  // Production logging: JSON at INFO, one access line per request, written where it costs what a
  // file costs but fills no disk.
  const pino = require('pino');
  const logger = createLogger({ level: 'info', format: 'json', stream: pino.destination({ dest: '/dev/null', sync: true }) });
  (async () => {
    const store = await openStore('sqlite:' + path.join(arg, 'bench.db'), { logger });
    const keys = KeyRing.open(path.join(arg, 'security.yaml'), { defaultRateLimit: 60, logger });
    const app = createApp({ store, keys, platform: { resolveHandle: async () => null }, logger });
    ready((await listen(app, 0, '127.0.0.1')).port);
  })();
}
`;

function transcript(seed: number): string {
  const words = 'the quick brown fox jumps over a lazy dog while ç ğ ı ö ş ü İ & < > appear now and then'.split(' ');
  const paragraphs: string[] = [];
  let size = 0;
  for (let p = 0; size < TRANSCRIPT_BYTES; p++) {
    const text = Array.from({ length: 40 }, (_, i) => words[(seed * 7 + p * 13 + i) % words.length]).join(' ');
    const para = `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}.</p>`;
    paragraphs.push(para);
    size += Buffer.byteLength(para);
  }
  return paragraphs.join('\n');
}

const benchVideo = videoFactory({
  videoId: (i) => `benchvid${String(i).padStart(3, '0')}`,
  channelId: CHANNEL,
  title: (i) => `Benchmark video ${i}: a title & some <symbols> 😀`,
  publishedAt: (i) => new Date(Date.UTC(2025, 0, 1) - i * 3_600_000),
  transcriptHtml: (i) => transcript(i),
  fetchedAt: (i) => new Date(Date.UTC(2025, 0, 2) - i * 1000),
});

/** The real app's data: a key with a huge limit, and the stored videos. */
async function seed(dir: string): Promise<void> {
  writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: bench\n      rate_limit: 1000000000\n      enabled: true\n`);
  const store = await openStore(`sqlite:${path.join(dir, 'bench.db')}`, { logger: silentLogger() });
  try {
    await store.upsertVideos(Array.from({ length: STORED_VIDEOS }, (_, i) => benchVideo(i)));
  } finally {
    await store.close();
  }
}

// ── load (parent side) ────────────────────────────────────────────────────────────────────────

interface Child {
  port: number;
  ask(m: ToChild): Promise<FromChild>;
  stop(): Promise<void>;
}

function spawnServer(kind: Kind, arg: string): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CHILD: JSON.stringify({ kind, arg, root: ROOT }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { resolve: (m: FromChild) => void; reject: (e: Error) => void } | null = null;
  child.on('message', (m: FromChild) => waiting?.resolve(m));
  child.on('exit', (code) => waiting?.reject(new Error(`bench server "${kind}" exited with code ${code}`)));
  const nextMessage = () => new Promise<FromChild>((resolve, reject) => {
    waiting = { resolve, reject };
  });
  return nextMessage().then((ready) => {
    if (ready.type !== 'ready') throw new Error('unexpected first message');
    return {
      port: ready.port,
      ask: (m) => {
        const answer = nextMessage();
        child.send(m);
        return answer;
      },
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.send({ type: 'stop' } satisfies ToChild);
        }),
    };
  });
}

interface Run {
  rps: number;
  p99: number;
  requests: number;
  /** Server CPU time (user + system) per answered request: what the server itself spends. */
  cpuMicrosPerRequest: number;
}

async function statsOf(server: Child): Promise<{ rss: number; cpuMicros: number }> {
  const m = await server.ask({ type: 'stats' });
  if (m.type !== 'stats') throw new Error('unexpected answer to stats');
  return m;
}

async function cannon(server: Child, urlPath: string, headers: Record<string, string>, expect: '2xx' | '3xx', opts: { seconds?: number; amount?: number } = {}): Promise<Run> {
  const before = await statsOf(server);
  const r = await autocannon({
    url: `http://127.0.0.1:${server.port}${urlPath}`,
    connections: CONNECTIONS,
    headers,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds ?? RUN_SECONDS }),
  });
  const after = await statsOf(server);
  const total = r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'];
  // A benchmark of error answers would measure the wrong thing: every answer must be the expected kind.
  if (r[expect] !== total || r.errors > 0) {
    throw new Error(`${urlPath}: expected only ${expect}, got ${JSON.stringify({ '2xx': r['2xx'], '3xx': r['3xx'], '4xx': r['4xx'], '5xx': r['5xx'], errors: r.errors })}`);
  }
  return { rps: total / r.duration, p99: r.latency.p99, requests: total, cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / total };
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

interface Target {
  server: Child;
  path: string;
  headers: Record<string, string>;
  expect: '2xx' | '3xx';
}

/**
 * Every target gets the same total time, in interleaved one-second slices (round-robin), so that
 * the load of whatever else runs on the machine falls on all of them alike instead of on whichever
 * ran at a bad moment. Preceded by one warm-up slice each (JIT, caches).
 */
async function measureInterleaved<K extends string>(targets: Record<K, Target>): Promise<Record<K, Run> & { requests: number }> {
  const names = Object.keys(targets) as K[];
  const acc = new Map<K, { requests: number; seconds: number; cpu: number; p99s: number[] }>(names.map((n) => [n, { requests: 0, seconds: 0, cpu: 0, p99s: [] }]));
  let requests = 0;
  for (const n of names) {
    const t = targets[n];
    requests += (await cannon(t.server, t.path, t.headers, t.expect, { seconds: WARM_SECONDS })).requests;
  }
  for (let round = 0; round < RUN_SECONDS / SLICE_SECONDS; round++) {
    for (const n of names) {
      const t = targets[n];
      const r = await cannon(t.server, t.path, t.headers, t.expect, { seconds: SLICE_SECONDS });
      const a = acc.get(n)!;
      a.requests += r.requests;
      a.seconds += r.requests / r.rps;
      a.cpu += r.cpuMicrosPerRequest * r.requests;
      a.p99s.push(r.p99);
      requests += r.requests;
    }
  }
  const out = { requests } as Record<K, Run> & { requests: number };
  for (const n of names) {
    const a = acc.get(n)!;
    const p99 = [...a.p99s].sort((x, y) => x - y)[a.p99s.length >> 1]!;
    (out as Record<K, Run>)[n] = { rps: a.requests / a.seconds, p99, requests: a.requests, cpuMicrosPerRequest: a.cpu / a.requests };
  }
  return out;
}

const apiBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'tf-bench-api-'));
  const children: Child[] = [];
  try {
    await seed(dir);
    const real = await spawnServer('real', dir);
    children.push(real);
    const auth = { 'X-API-Key': KEY };
    const feed10 = `/?channel_id=${CHANNEL}`;
    const feed100 = `/?channel_id=${CHANNEL}&max_items=100`;
    const first = await fetch(`http://127.0.0.1:${real.port}${feed10}`, { headers: auth });
    if (first.status !== 200) throw new Error(`real app answered ${first.status} to the 10-item feed`);
    const etag = first.headers.get('etag')!;
    const bodyFile = path.join(dir, 'feed10.xml');
    writeFileSync(bodyFile, Buffer.from(await first.arrayBuffer()));
    const bodyBytes = readFileSync(bodyFile).length;

    const bareServer = await spawnServer('bare', bodyFile);
    children.push(bareServer);
    const expressServer = await spawnServer('express', bodyFile);
    children.push(expressServer);
    const runs = await measureInterleaved({
      bare: { server: bareServer, path: '/', headers: {}, expect: '2xx' },
      minimal: { server: expressServer, path: '/', headers: {}, expect: '2xx' },
      r10: { server: real, path: feed10, headers: auth, expect: '2xx' },
      r100: { server: real, path: feed100, headers: auth, expect: '2xx' },
      r304: { server: real, path: feed10, headers: { ...auth, 'If-None-Match': etag }, expect: '3xx' },
    });
    const { bare, minimal, r10, r100, r304 } = runs;
    let served = 1 + runs.requests - bare.requests - minimal.requests;
    if (served < MEMORY_AFTER_REQUESTS) {
      const amount = Math.min(MEMORY_AFTER_REQUESTS - served, Math.round(r10.rps * FILL_MAX_SECONDS));
      served += (await cannon(real, feed10, auth, '2xx', { amount })).requests;
    }
    const rssMb = (await statsOf(real)).rss / 1024 / 1024;

    const vs = (label: string, run: Run) => ({ label, value: round(run.rps, 0) });
    const cpu = (run: Run) => round(run.cpuMicrosPerRequest, 0);
    const rows: BenchRow[] = [
      { metric: 'bare node:http, 10-item feed bytes', value: round(bare.rps, 0), unit: 'req/s' },
      { metric: 'minimal Express 5, same bytes', value: round(minimal.rps, 0), unit: 'req/s' },
      {
        metric: 'real app, 10-item feed (cache-warm) / minimal Express',
        value: round(r10.rps, 0), unit: 'req/s', baseline: vs('minimal Express', minimal),
        ratio: round(r10.rps / minimal.rps), target: '>= 0.8x', met: r10.rps / minimal.rps >= 0.8,
      },
      { metric: 'real app, 10-item feed / bare node:http', value: round(r10.rps, 0), unit: 'req/s', baseline: vs('bare node:http', bare), ratio: round(r10.rps / bare.rps) },
      { metric: 'real app, 10-item feed, p99 latency (median of the slices)', value: round(r10.p99, 1), unit: 'ms', baseline: { label: 'minimal Express p99', value: round(minimal.p99, 1) }, target: '< 25 ms', met: r10.p99 < 25 },
      { metric: 'real app, 100-item feed', value: round(r100.rps, 0), unit: 'req/s', baseline: vs('minimal Express, 10-item bytes', minimal), ratio: round(r100.rps / minimal.rps) },
      {
        metric: 'real app, 304 (If-None-Match) / minimal Express',
        value: round(r304.rps, 0), unit: 'req/s', baseline: vs('minimal Express', minimal),
        ratio: round(r304.rps / minimal.rps), target: '>= 1.0x', met: r304.rps / minimal.rps >= 1.0,
      },
      {
        metric: 'server CPU per request, real app 10-item feed (lower is better)',
        value: cpu(r10), unit: 'µs', baseline: { label: 'minimal Express', value: cpu(minimal) }, ratio: round(r10.cpuMicrosPerRequest / minimal.cpuMicrosPerRequest),
      },
      { metric: 'server CPU per request, real app 304 (lower is better)', value: cpu(r304), unit: 'µs', baseline: { label: 'minimal Express', value: cpu(minimal) }, ratio: round(r304.cpuMicrosPerRequest / minimal.cpuMicrosPerRequest) },
      { metric: `real app RSS after ${served.toLocaleString('en-US')} requests`, value: round(rssMb, 1), unit: 'MB', target: '< 150 MB', met: rssMb < 150 },
    ];
    return {
      title: `API (autocannon, ${CONNECTIONS} connections, ${RUN_SECONDS} s per target in interleaved ${SLICE_SECONDS} s slices after a ${WARM_SECONDS} s warm-up, each server a compiled child process)`,
      rows,
      notes: [
        `10-item feed body: ${bodyBytes.toLocaleString('en-US')} bytes (${STORED_VIDEOS} stored videos, ~${TRANSCRIPT_BYTES / 1024} KB transcripts); both baselines send exactly these bytes.`,
        'Real app per request: helmet + CORS headers, SHA-256 key check, rate-limit upsert in SQLite, channel registration, feed version read, ETag, rendered-body cache, JSON access log at INFO.',
        'The load generator shares the machine with the server; server CPU per request is the figure that does not depend on how busy the machine is.',
        `Bare node:http CPU per request: ${cpu(bare)} µs; 100-item feed: ${cpu(r100)} µs.`,
      ],
    };
  } finally {
    await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  }
};

export default apiBenchmark;

if (require.main === module) runStandalone(apiBenchmark);
