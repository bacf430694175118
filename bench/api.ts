// API benchmark with wrk (one thread, 50 connections) against every target, same tool, same run:
//   1. bare node:http returning the bytes of the real 10-item feed (the ceiling a framework-free
//      hot path could approach),
//   2. a minimal Express 5 app sending the same bytes from one route (the baseline of the targets),
//   3. the real app (createApp: real SQLite, API key + store-counted rate limit, every header,
//      access log at INFO), cache-warm 10-item feed,
//   4. the real app, 100-item feed,
//   5. the real app, the 304 path (If-None-Match), at that ~110 KB body and at a ~13 KB one (10 items
//      with short transcripts), each beside its own full-body feed; and bare node:http's own 304
//      beside its own ~13 KB answer: the most any server can gain from a 304 at that body on this
//      machine, with wrk on it,
//   6. the real app, the 10-item feed gzip-compressed (cache-warm: no compression per request),
//   7. the 10-item feed from twin real apps, metrics recording on and off (`recordMetrics`), each
//      serving only that: what recording costs the hot feed path.
// Plus the bytes of a 10- and a 100-item feed raw, gzip and br.
// wrk, not a Node load generator: on a 2-core machine a JavaScript generator is slower than bare
// node:http and would be the ceiling it reports. Each server runs in a child process of its own and
// reports its CPU time, so the cost per request can be compared even on a busy machine.
// Without wrk on the PATH the HTTP load part is skipped with a note saying how to install it.
// Run alone: `npx tsx bench/api.ts`.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore } from '../shared/store';
import type { TranscriptRecord } from '../shared/store/types';
import { transcriptRecord, videoFactory } from '../test/support/factories';
import type { Benchmark, BenchRow, BenchSection } from './types';
import { ensureBuilt } from '../test/support/processes';
import { median, runStandalone } from './support';
import { spawnServer, statsOf, type Child } from './api-servers';
import { wrk, wrkAvailable, WRK_INSTALL, type WrkResult } from './wrk';

const CONNECTIONS = 50;
const THREADS = 1;
/** Interleaved rounds per target, each SLICE_SECONDS long, after one WARM_SECONDS warm-up each. */
const ROUNDS = 5;
const SLICE_SECONDS = 2;
const WARM_SECONDS = 1;
const KEY = 'bench-key-0123456789abcdef';
const CHANNEL = 'UCbenchbenchbenchbench01';
const STORED_VIDEOS = 100;
const TRANSCRIPT_BYTES = 5 * 1024;
/** A second channel whose 10-item feed is about 13 KB: short transcripts, so the body is small. */
const SMALL_CHANNEL = 'UCbenchbenchbenchsmall01';
const SMALL_TRANSCRIPT_BYTES = 300;

/** About `bytes` of text in timed paragraphs, as the crawler stores a transcript. */
function transcript(seed: number, bytes = TRANSCRIPT_BYTES): TranscriptRecord['paragraphs'] {
  const words = 'the quick brown fox jumps over a lazy dog while ç ğ ı ö ş ü İ & < > appear now and then'.split(' ');
  const paragraphs: TranscriptRecord['paragraphs'] = [];
  let size = 0;
  for (let p = 0; size < bytes; p++) {
    const text = `${Array.from({ length: 40 }, (_, i) => words[(seed * 7 + p * 13 + i) % words.length]).join(' ')}.`;
    paragraphs.push({ startMs: p * 20_000, text });
    size += Buffer.byteLength(text);
  }
  return paragraphs;
}

const benchVideo = videoFactory({
  videoId: (i) => `benchvid${String(i).padStart(3, '0')}`,
  channelId: CHANNEL,
  title: (i) => `Benchmark video ${i}: a title & some <symbols> 😀`,
  publishedAt: (i) => new Date(Date.UTC(2025, 0, 1) - i * 3_600_000),
  fetchedAt: (i) => new Date(Date.UTC(2025, 0, 2) - i * 1000),
});

/** The real app's data: a key with a huge limit, and the stored videos. */
async function seed(dir: string): Promise<void> {
  writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: bench\n      rate_limit: 1000000000\n      enabled: true\n`);
  const store = await openStore(`sqlite:${path.join(dir, 'bench.db')}`, { logger: silentLogger() });
  try {
    const videos = Array.from({ length: STORED_VIDEOS }, (_, i) => benchVideo(i));
    await store.upsertVideos(videos, videos.map((v, i) => transcriptRecord(v, transcript(i))));
    const small = Array.from({ length: 10 }, (_, i) => benchVideo(STORED_VIDEOS + i, { videoId: `smallvid${String(i).padStart(3, '0')}`, channelId: SMALL_CHANNEL }));
    await store.upsertVideos(small, small.map((v, i) => transcriptRecord(v, transcript(i, SMALL_TRANSCRIPT_BYTES))));
  } finally {
    await store.close();
  }
}

// ── load (wrk, bench/wrk.ts) ──────────────────────────────────────────────────────────────────

const load = (url: string, headers: Record<string, string>, seconds: number): Promise<WrkResult> => wrk({ url, headers, seconds, connections: CONNECTIONS, threads: THREADS });

interface Target {
  server: Child;
  path: string;
  headers: Record<string, string>;
  /** The status every answer must have; checked once before the load (wrk only counts non-2xx/3xx). */
  status: 200 | 304;
}

interface Run {
  rps: number;
  /** Median of the slices' p99, ms. */
  p99: number;
  requests: number;
  /** Server CPU time (user + system) per answered request. */
  cpuMicrosPerRequest: number;
}

/**
 * Every target gets the same total time, in interleaved slices (round-robin), so the load of
 * whatever else runs on the machine falls on all of them alike. One warm-up slice each first.
 */
async function measureInterleaved<K extends string>(targets: Record<K, Target>): Promise<Record<K, Run>> {
  const names = Object.keys(targets) as K[];
  for (const n of names) {
    const t = targets[n];
    const res = await fetch(`http://127.0.0.1:${t.server.port}${t.path}`, { headers: t.headers });
    await res.arrayBuffer();
    if (res.status !== t.status) throw new Error(`${n}: expected ${t.status}, got ${res.status}`);
    await load(`http://127.0.0.1:${t.server.port}${t.path}`, t.headers, WARM_SECONDS);
  }
  const acc = new Map(names.map((n) => [n, { requests: 0, seconds: 0, cpu: 0, p99s: [] as number[] }]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const t = targets[n];
      const before = await statsOf(t.server);
      const w = await load(`http://127.0.0.1:${t.server.port}${t.path}`, t.headers, SLICE_SECONDS);
      const after = await statsOf(t.server);
      const a = acc.get(n)!;
      a.requests += w.requests;
      a.seconds += w.seconds;
      a.cpu += after.cpuMicros - before.cpuMicros;
      a.p99s.push(w.p99);
    }
  }
  const out = {} as Record<K, Run>;
  for (const n of names) {
    const a = acc.get(n)!;
    out[n] = { rps: a.requests / a.seconds, p99: median(a.p99s), requests: a.requests, cpuMicrosPerRequest: a.cpu / a.requests };
  }
  return out;
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** The bytes a feed is sent in, raw and in each coding (Content-Length as sent). */
async function feedBytes(port: number, target: string, headers: Record<string, string>): Promise<Record<'identity' | 'gzip' | 'br', number>> {
  const out = { identity: 0, gzip: 0, br: 0 };
  for (const coding of ['identity', 'gzip', 'br'] as const) {
    const res = await fetch(`http://127.0.0.1:${port}${target}`, { headers: { ...headers, 'Accept-Encoding': coding } });
    await res.arrayBuffer();
    if (res.status !== 200 || (coding !== 'identity' && res.headers.get('content-encoding') !== coding)) throw new Error(`${target} in ${coding}: ${res.status} ${res.headers.get('content-encoding')}`);
    out[coding] = Number(res.headers.get('content-length'));
  }
  return out;
}

const TITLE = `API (wrk, ${THREADS} thread, ${CONNECTIONS} connections, ${ROUNDS} interleaved ${SLICE_SECONDS} s slices per target after a ${WARM_SECONDS} s warm-up, each server a compiled child process)`;

const apiBenchmark: Benchmark = async (): Promise<BenchSection> => {
  if (!wrkAvailable()) {
    console.error(`bench api: ${WRK_INSTALL}`);
    return { title: TITLE, rows: [], notes: [`Skipped: ${WRK_INSTALL}.`] };
  }
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'tf-bench-api-'));
  const children: Child[] = [];
  try {
    await seed(dir);
    const real = await spawnServer('real', dir);
    children.push(real);
    // Metrics recording on against off: two twin processes that serve nothing else, so both have
    // the same history (warm-up, JIT, heap) and differ only in the setting.
    const metered = await spawnServer('real', dir);
    children.push(metered);
    const unmetered = await spawnServer('real-unmetered', dir);
    children.push(unmetered);
    // Every request to the real app says its Accept-Encoding, as wrk sends none of its own.
    const auth = { 'X-API-Key': KEY, 'Accept-Encoding': 'identity' };
    const gzip = { ...auth, 'Accept-Encoding': 'gzip' };
    const feed10 = `/?channel_id=${CHANNEL}`;
    const feed100 = `/?channel_id=${CHANNEL}&max_items=100`;
    const small10 = `/?channel_id=${SMALL_CHANNEL}`;
    const first = await fetch(`http://127.0.0.1:${real.port}${feed10}`, { headers: auth });
    if (first.status !== 200) throw new Error(`real app answered ${first.status} to the 10-item feed`);
    const etag = first.headers.get('etag')!;
    const bodyFile = path.join(dir, 'feed10.xml');
    writeFileSync(bodyFile, Buffer.from(await first.arrayBuffer()));
    const bodyBytes = readFileSync(bodyFile).length;
    const small = await fetch(`http://127.0.0.1:${real.port}${small10}`, { headers: auth });
    const smallEtag = small.headers.get('etag')!;
    const smallFile = path.join(dir, 'small10.xml');
    writeFileSync(smallFile, Buffer.from(await small.arrayBuffer()));
    const smallBytes = readFileSync(smallFile).length;
    const sizes = { 10: await feedBytes(real.port, feed10, auth), 100: await feedBytes(real.port, feed100, auth) };

    const bareServer = await spawnServer('bare', bodyFile);
    children.push(bareServer);
    const expressServer = await spawnServer('express', bodyFile);
    children.push(expressServer);
    // The ceiling at the small body: bare node:http sending its bytes.
    const bareSmallServer = await spawnServer('bare', smallFile);
    children.push(bareSmallServer);
    const { bare, bareSmall, bareSmall304, minimal, r10, r100, r304, s10, s304, gz10, on10, off10 } = await measureInterleaved({
      bare: { server: bareServer, path: '/', headers: {}, status: 200 },
      bareSmall: { server: bareSmallServer, path: '/', headers: {}, status: 200 },
      bareSmall304: { server: bareSmallServer, path: '/', headers: { 'If-None-Match': '"bare"' }, status: 304 },
      minimal: { server: expressServer, path: '/', headers: {}, status: 200 },
      r10: { server: real, path: feed10, headers: auth, status: 200 },
      r100: { server: real, path: feed100, headers: auth, status: 200 },
      r304: { server: real, path: feed10, headers: { ...auth, 'If-None-Match': etag }, status: 304 },
      s10: { server: real, path: small10, headers: auth, status: 200 },
      s304: { server: real, path: small10, headers: { ...auth, 'If-None-Match': smallEtag }, status: 304 },
      gz10: { server: real, path: feed10, headers: gzip, status: 200 },
      on10: { server: metered, path: feed10, headers: auth, status: 200 },
      off10: { server: unmetered, path: feed10, headers: auth, status: 200 },
    });
    const served = r10.requests + r100.requests + r304.requests + s10.requests + s304.requests + gz10.requests;
    const rssMb = (await statsOf(real)).rss / 1024 / 1024;

    const rps = (label: string, run: Run) => ({ label, value: round(run.rps, 0) });
    const cpu = (run: Run) => round(run.cpuMicrosPerRequest, 0);
    const rows: BenchRow[] = [
      { metric: 'bare node:http, 10-item feed bytes (ceiling)', readme: 'bare `node:http` sending the same feed bytes (the ceiling, wrk)', value: round(bare.rps, 0), unit: 'req/s' },
      { metric: 'minimal Express 5, same bytes', value: round(minimal.rps, 0), unit: 'req/s', baseline: rps('bare node:http', bare), ratio: round(minimal.rps / bare.rps) },
      {
        metric: 'real app, 10-item feed (cache-warm) / minimal Express',
        readme: 'feed, 10 items, cache-warm, key check + store rate limit + all headers (wrk, 50 conn.)', headline: true,
        value: round(r10.rps, 0), unit: 'req/s', baseline: rps('minimal Express', minimal),
        ratio: round(r10.rps / minimal.rps), target: '>= 0.8x', met: r10.rps / minimal.rps >= 0.8,
      },
      { metric: 'real app, 10-item feed / bare node:http', readme: 'the same feed against bare `node:http`', value: round(r10.rps, 0), unit: 'req/s', baseline: rps('bare node:http', bare), ratio: round(r10.rps / bare.rps) },
      {
        metric: 'real app, 304 (If-None-Match) / full-body 10-item feed',
        readme: '304 path (If-None-Match) against the full-body feed', headline: true,
        value: round(r304.rps, 0), unit: 'req/s', baseline: rps('real app, full body', r10),
        ratio: round(r304.rps / r10.rps), target: '>= 1.3x', met: r304.rps / r10.rps >= 1.3,
      },
      {
        metric: `real app, 304 / full-body 10-item feed of ${Math.round(smallBytes / 1024)} KB (short transcripts)`,
        readme: `304 path against the full-body feed at a small body (${Math.round(smallBytes / 1024)} KB)`,
        value: round(s304.rps, 0), unit: 'req/s', baseline: rps('real app, small full body', s10),
        ratio: round(s304.rps / s10.rps), target: '>= 1.3x', met: s304.rps / s10.rps >= 1.3,
      },
      {
        metric: `real app, small full-body feed / bare node:http sending the same ${Math.round(smallBytes / 1024)} KB`,
        readme: `small full-body feed against bare \`node:http\` sending the same bytes`,
        value: round(s10.rps, 0), unit: 'req/s', baseline: rps('bare node:http, small body', bareSmall), ratio: round(s10.rps / bareSmall.rps),
      },
      {
        metric: 'server CPU per request, 304 / small full body (lower is better)', readme: 'server CPU per 304 against the small full-body feed',
        value: cpu(s304), unit: 'µs', baseline: { label: 'small full body', value: cpu(s10) }, ratio: round(s304.cpuMicrosPerRequest / s10.cpuMicrosPerRequest),
      },
      {
        metric: `bare node:http, its own 304 / its own ${Math.round(smallBytes / 1024)} KB 200 (the ceiling of the 304 ratio at this body)`,
        readme: `bare \`node:http\`: its 304 against its own ${Math.round(smallBytes / 1024)} KB answer (what a 304 can gain at this body, wrk on the machine)`,
        value: round(bareSmall304.rps, 0), unit: 'req/s', baseline: rps(`bare node:http, ${Math.round(smallBytes / 1024)} KB`, bareSmall), ratio: round(bareSmall304.rps / bareSmall.rps),
      },
      {
        metric: `server CPU per request, bare node:http 304 / its ${Math.round(smallBytes / 1024)} KB 200 (lower is better)`, readme: `server CPU per bare \`node:http\` 304 against its ${Math.round(smallBytes / 1024)} KB answer`,
        value: cpu(bareSmall304), unit: 'µs', baseline: { label: `${Math.round(smallBytes / 1024)} KB answer`, value: cpu(bareSmall) }, ratio: round(bareSmall304.cpuMicrosPerRequest / bareSmall.cpuMicrosPerRequest),
      },
      {
        metric: 'real app, 10-item feed gzip (cache-warm) / the same feed raw',
        readme: 'gzip feed, 10 items, cache-warm, against the raw feed',
        value: round(gz10.rps, 0), unit: 'req/s', baseline: rps('real app, raw', r10),
        ratio: round(gz10.rps / r10.rps), target: '>= 0.9x', met: gz10.rps / r10.rps >= 0.9,
      },
      ...([10, 100] as const).flatMap((n): BenchRow[] => [
        { metric: `${n}-item feed bytes, gzip / raw`, readme: `${n}-item feed bytes, gzip against raw`, value: sizes[n].gzip, unit: 'bytes', baseline: { label: 'raw', value: sizes[n].identity }, ratio: round(sizes[n].gzip / sizes[n].identity, 3) },
        { metric: `${n}-item feed bytes, br / raw`, readme: `${n}-item feed bytes, br against raw`, value: sizes[n].br, unit: 'bytes', baseline: { label: 'raw', value: sizes[n].identity }, ratio: round(sizes[n].br / sizes[n].identity, 3) },
      ]),
      {
        metric: 'real app, 10-item feed, metrics recorded / not recorded (twin processes on the same store)',
        readme: 'feed with metrics recording on, against recording off',
        value: round(on10.rps, 0), unit: 'req/s', baseline: rps('recording off', off10),
        ratio: round(on10.rps / off10.rps), target: '>= 0.9x', met: on10.rps / off10.rps >= 0.9,
      },
      {
        metric: 'server CPU per request, metrics recorded / not recorded (lower is better)', readme: 'server CPU per feed request, metrics recorded against not',
        value: cpu(on10), unit: 'µs', baseline: { label: 'recording off', value: cpu(off10) }, ratio: round(on10.cpuMicrosPerRequest / off10.cpuMicrosPerRequest),
      },
      { metric: 'real app, 304 / bare node:http', value: round(r304.rps, 0), unit: 'req/s', baseline: rps('bare node:http', bare), ratio: round(r304.rps / bare.rps) },
      { metric: 'real app, 100-item feed / minimal Express (10-item bytes)', value: round(r100.rps, 0), unit: 'req/s', baseline: rps('minimal Express', minimal), ratio: round(r100.rps / minimal.rps) },
      {
        metric: 'real app, 10-item feed, p99 latency (median of the slices; lower is better)',
        readme: 'feed p99 latency, 50 connections',
        value: round(r10.p99, 1), unit: 'ms', baseline: { label: 'minimal Express p99', value: round(minimal.p99, 1) },
        ratio: round(r10.p99 / minimal.p99), target: "<= minimal Express's p99", met: r10.p99 <= minimal.p99,
      },
      { metric: 'bare node:http p99 (ceiling)', readme: 'bare `node:http` p99, 50 connections (the ceiling)', value: round(bare.p99, 1), unit: 'ms' },
      { metric: 'server CPU per request, real app 10-item feed (lower is better)', readme: 'server CPU per feed request', value: cpu(r10), unit: 'µs', baseline: { label: 'minimal Express', value: cpu(minimal) }, ratio: round(r10.cpuMicrosPerRequest / minimal.cpuMicrosPerRequest) },
      { metric: 'server CPU per request, real app 304 (lower is better)', readme: 'server CPU per 304', value: cpu(r304), unit: 'µs', baseline: { label: 'real app, full body', value: cpu(r10) }, ratio: round(r304.cpuMicrosPerRequest / r10.cpuMicrosPerRequest) },
      { metric: `real app RSS after ${served.toLocaleString('en-US')} requests`, readme: 'API memory after the run', value: round(rssMb, 1), unit: 'MB', target: '< 150 MB', met: rssMb < 150 },
    ];
    return {
      title: TITLE,
      rows,
      notes: [
        `10-item feed body: ${bodyBytes.toLocaleString('en-US')} bytes (${STORED_VIDEOS} stored videos, ~${TRANSCRIPT_BYTES / 1024} KB transcripts); both baselines send exactly these bytes.`,
        'Real app per request: the fixed security and CORS headers, SHA-256 key check, rate limit counted in SQLite (one add per key per event-loop turn), channel registration, feed version read, ETag, rendered-body cache, JSON access log at INFO.',
        'wrk runs on the same 2 cores as the server; server CPU per request is the figure that does not depend on how busy the machine is.',
        `Bare node:http CPU per request: ${cpu(bare)} µs; minimal Express: ${cpu(minimal)} µs; 100-item feed: ${cpu(r100)} µs; small feed: ${cpu(s10)} µs, its 304: ${cpu(s304)} µs; gzip feed: ${cpu(gz10)} µs; twin processes with metrics recording on / off: ${cpu(on10)} / ${cpu(off10)} µs.`,
        'Compressed bodies are cached beside the raw one per ETag and coding (br at quality 5), so the gzip row measures sending a cached compressed body, not compressing.',
      ],
    };
  } finally {
    await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  }
};

export default apiBenchmark;

if (require.main === module) runStandalone(apiBenchmark);
