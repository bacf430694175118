// Search benchmark on real SQLite files in a temp dir: 100,000 stored videos with 10 KB transcripts
// of words drawn from a Zipf-distributed vocabulary (as speech is: a few words everywhere, most
// rare). Measures, each beside its baseline in the same run:
//   * batch upserts (500 videos with their transcripts per transaction) with the index kept in step
//     beside the same writes without it: the whole corpus is written twice, batches alternating
//     between an indexed and a plain store, so the index's cost is measured from 0 to 100k videos;
//     then FTS5 alone on 10k more videos' folded text, the floor any FTS5 index of it costs
//     (bench/search-floor.ts);
//   * search latency (store.searchVideos, 20 hits) for one-, two- and three-word queries and
//     phrases, median and p99, beside the channel-feed query (listFeedEntries + feedVersion) on the
//     same store, interleaved so machine noise hits both alike;
//   * the FTS index's size on disk (dbstat: its shadow tables and the rowid map) beside the stored
//     text it indexes (titles and paragraphs, UTF-8);
//   * GET /search over HTTP (wrk, cache-warm) beside GET / for a channel, same app, same store.
// Videos are made of paragraphs drawn from a pool of Zipf text, so the corpus costs little to make.
// SEARCH_BENCH_VIDEOS overrides the store size for a quick look. Run alone: `npx tsx bench/search.ts`.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createApp } from '../api/create-app';
import { KeyRing } from '../api/key-ring';
import { parseSearchText } from '../api/query/search-query';
import { listen } from '../api/server';
import { silentLogger } from '../shared/logger';
import type { SearchQuery, Store } from '../shared/store';
import { openSqliteStore } from '../shared/store/sqlite/sqlite-store';
import { makeRng } from '../test/support/random';
import { BATCH, channelIdOf, corpusBatches, VOCABULARY, WORDS, type Corpus } from './search-corpus';
import { indexFloor, sameTextFts } from './search-floor';
import { median, msSince, percentile, round, runStandalone } from './support';
import type { Benchmark, BenchRow, BenchSection } from './types';
import { wrk, wrkAvailable, WRK_INSTALL } from './wrk';

const VIDEOS = Number(process.env.SEARCH_BENCH_VIDEOS ?? 100_000);
/** Videos the index's floor is measured on (bench/search-floor.ts): a fresh corpus of the same text. */
const FLOOR_VIDEOS = Math.min(VIDEOS, 10_000);
const QUERIES_PER_KIND = 40;
const QUERY_ROUNDS = 5;
const HITS = 20;
const KEY = 'bench-search-key-0123456789abcdef';
const TITLE = 'Search: 100k stored videos with 10 KB transcripts (SQLite FTS5)';


// ── the queries ────────────────────────────────────────────────────────────

interface QueryKind {
  label: string;
  queries: SearchQuery[];
}

function queriesOf(corpus: Corpus): QueryKind[] {
  const rng = makeRng('search-queries');
  // Words across the frequency range: common (in nearly every video), middling, and rare.
  const anyWord = (): string => WORDS[Math.floor(Math.exp(rng() * Math.log(VOCABULARY))) - 1]!;
  const parse = (text: string): SearchQuery => {
    const p = parseSearchText(text);
    if (!p.ok) throw new Error(`bench query refused: ${text} (${p.error})`);
    return p.value;
  };
  const words = (n: number): SearchQuery[] => Array.from({ length: QUERIES_PER_KIND }, () => parse(Array.from({ length: n }, anyWord).join(' ')));
  const phrases = Array.from({ length: QUERIES_PER_KIND }, (_, i) => {
    const sample = corpus.samples[i % corpus.samples.length]!;
    const len = 2 + (i % 2);
    const at = Math.floor(rng() * (sample.length - len));
    return parse(`"${sample.slice(at, at + len).join(' ')}"`);
  });
  const ranked = (lo: number, hi: number): SearchQuery[] => Array.from({ length: QUERIES_PER_KIND }, () => parse(WORDS[lo + Math.floor(rng() * (hi - lo))]!));
  return [
    { label: 'one common word (rank 1–100, in most videos)', queries: ranked(0, 100) },
    { label: 'one rare word (rank 10,000–30,000, in ~1 % of videos)', queries: ranked(10_000, VOCABULARY) },
    { label: 'one word', queries: words(1) },
    { label: 'two words', queries: words(2) },
    { label: 'three words', queries: words(3) },
    { label: 'phrase of 2–3 words', queries: phrases },
  ];
}

// ── measurements ───────────────────────────────────────────────────────────

/** Writes the corpus into both stores, batches alternating (and which store goes first). */
async function loadBoth(indexed: Store, plain: Store, corpus: Corpus, fts: ReturnType<typeof sameTextFts>): Promise<{ withIndex: number; without: number; ftsAlone: number; seconds: number }> {
  let withMs = 0;
  let withoutMs = 0;
  const begun = process.hrtime.bigint();
  let i = 0;
  for (const batch of corpusBatches(VIDEOS, 'corpus', corpus)) {
    const order: [Store, boolean][] = i++ % 2 === 0 ? [[indexed, true], [plain, false]] : [[plain, false], [indexed, true]];
    for (const [store, isIndexed] of order) {
      const start = process.hrtime.bigint();
      await store.upsertVideos(batch.videos, batch.transcripts);
      if (isIndexed) withMs += msSince(start);
      else withoutMs += msSince(start);
    }
    fts.add(batch);
  }
  // The rate a store could reach if its index cost FTS5's inserts and nothing more.
  const ftsAlone = VIDEOS / ((withoutMs + fts.ms) / 1000);
  return { withIndex: VIDEOS / (withMs / 1000), without: VIDEOS / (withoutMs / 1000), ftsAlone, seconds: msSince(begun) / 1000 };
}

function indexBytes(file: string): { index: number; transcripts: number } {
  const db = new Database(file, { readonly: true });
  try {
    const size = (like: string): number => db.prepare<[string], number>(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE ?`).pluck().get(like) ?? 0;
    const docs = size('search_docs') + db.prepare<[], number>(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = 'search_docs' AND type = 'index')`).pluck().get()!;
    return { index: size('search_index%') + docs, transcripts: size('transcripts') };
  } finally {
    db.close();
  }
}

async function latencies(store: Store, corpus: Corpus, kinds: readonly QueryKind[]): Promise<{ byKind: Map<string, number[]>; feed: number[] }> {
  const byKind = new Map<string, number[]>(kinds.map((k) => [k.label, []]));
  const feed: number[] = [];
  const rng = makeRng('feed-channels');
  const feedOnce = async (): Promise<number> => {
    const channelId = channelIdOf(Math.floor(rng() * corpus.channels));
    const start = process.hrtime.bigint();
    await store.listFeedEntries(channelId, 10);
    await store.feedVersion(channelId);
    return msSince(start);
  };
  const scope = { channelIds: null, kinds: ['regular' as const] };
  for (const k of kinds) for (const q of k.queries) await store.searchVideos(q, scope, HITS); // warm-up
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const k of kinds) {
      for (const q of k.queries) {
        const start = process.hrtime.bigint();
        await store.searchVideos(q, scope, HITS);
        byKind.get(k.label)!.push(msSince(start));
        feed.push(await feedOnce());
      }
    }
  }
  return { byKind, feed };
}

async function overHttp(dir: string, file: string, rows: BenchRow[], notes: string[]): Promise<void> {
  if (!wrkAvailable()) {
    notes.push(WRK_INSTALL);
    return;
  }
  const logger = silentLogger();
  const store = openSqliteStore(file, logger);
  fs.writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: bench\n      rate_limit: 1000000000\n      enabled: true\n`);
  const keys = KeyRing.open(path.join(dir, 'security.yaml'), { defaultRateLimit: 60, logger });
  const app = createApp({ store, keys, platform: { resolveHandle: async () => null }, logger, maxAnswersPerKey: 1000 });
  const server = await listen(app, 0, '127.0.0.1', { logger });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const headers = { 'X-API-Key': KEY };
    const search = `${base}/search?q=${encodeURIComponent(`${WORDS[40]} ${WORDS[300]}`)}`;
    const channel = `${base}/?channel_id=${channelIdOf(7)}`;
    for (const url of [search, channel]) {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(url, { headers });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
        await res.arrayBuffer();
      }
    }
    const runs = { search: [] as number[], channel: [] as number[], searchP99: [] as number[], channelP99: [] as number[] };
    for (let round = 0; round < 2; round++) {
      // A generous timeout: on a loaded machine a search answer queued behind nine others may take
      // seconds, which is a latency to report, not a failure.
      const s = await wrk({ url: search, seconds: 3, connections: 10, headers, timeoutSeconds: 30 });
      const c = await wrk({ url: channel, seconds: 3, connections: 10, headers, timeoutSeconds: 30 });
      runs.search.push(s.rps);
      runs.searchP99.push(s.p99);
      runs.channel.push(c.rps);
      runs.channelP99.push(c.p99);
    }
    const searchRps = median(runs.search);
    const channelRps = median(runs.channel);
    rows.push({
      metric: 'GET /search (two words, 20 hits, Atom), wrk 10 connections, req/s',
      readme: 'search feed over HTTP (two words, 20 hits, wrk 10 conn.)',
      value: round(searchRps, 0), unit: 'req/s',
      baseline: { label: 'channel feed GET /, same app and store', value: round(channelRps, 0) },
      ratio: round(searchRps / channelRps, 2),
    });
    rows.push({
      metric: 'GET /search p99 latency, wrk 10 connections',
      value: round(median(runs.searchP99), 2), unit: 'ms',
      baseline: { label: 'channel feed GET / p99', value: round(median(runs.channelP99), 2) },
      ratio: round(median(runs.searchP99) / median(runs.channelP99), 2),
    });
    notes.push('GET /search runs the search on every request (its validators cover the hits), then serves the rendered body from the cache by ETag; GET / reads one feed version when cache-warm.');
  } finally {
    await server.close();
    keys.close();
    await store.close();
  }
}

const searchBenchmark: Benchmark = async (): Promise<BenchSection> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-bench-search-'));
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    const file = path.join(dir, 'search.db');
    const plainFile = path.join(dir, 'plain.db');
    const corpus: Corpus = { channels: 0, textBytes: 0, samples: [] };
    const store = openSqliteStore(file, silentLogger());
    const plain = openSqliteStore(plainFile, silentLogger(), { indexSearch: false });
    const fts = sameTextFts(dir);
    let upserts: Awaited<ReturnType<typeof loadBoth>>;
    try {
      upserts = await loadBoth(store, plain, corpus, fts);
    } finally {
      fts.close();
      await plain.close();
      fs.rmSync(plainFile, { force: true });
    }
    notes.push(`${VIDEOS.toLocaleString('en-US')} videos (${(corpus.textBytes / 1e9).toFixed(2)} GB of stored text, ${corpus.channels} channels) written into both stores in ${upserts.seconds.toFixed(0)} s.`);
    rows.push({
      metric: `batch upsert with the search index kept in step, 10 KB transcripts, batches of ${BATCH}, 0 to ${VIDEOS / 1000}k videos`,
      readme: 'batch upsert with the search index',
      value: round(upserts.withIndex, 0), unit: 'videos/s',
      baseline: { label: 'the same writes without the index', value: round(upserts.without, 0) },
      ratio: round(upserts.withIndex / upserts.without, 2),
      target: '>= 0.6x without', met: upserts.withIndex / upserts.without >= 0.6,
    });
    // The restated target (what can be met): the store's upkeep of its index beside FTS5's own
    // inserts of the same folded text in the same batches, plus the same plain write.
    rows.push({
      metric: `batch upsert with the search index, against the plain write plus FTS5 alone inserting the same folded text in the same batches (0 to ${VIDEOS / 1000}k videos)`,
      readme: 'batch upsert with the search index, against plain write + FTS5 alone on the same text',
      value: round(upserts.withIndex, 0), unit: 'videos/s',
      baseline: { label: 'plain write + FTS5 alone', value: round(upserts.ftsAlone, 0) },
      ratio: round(upserts.withIndex / upserts.ftsAlone, 2),
      target: '>= 0.8x', met: upserts.withIndex / upserts.ftsAlone >= 0.8,
    });
    rows.push(...await indexFloor(dir, corpusBatches(FLOOR_VIDEOS, 'floor', { channels: 0, textBytes: 0, samples: [] })));
    try {
      const kinds = queriesOf(corpus);
      const { byKind, feed } = await latencies(store, corpus, kinds);
      const feedMedian = median(feed);
      const all = [...byKind.values()].flat();
      for (const k of kinds) {
        const xs = byKind.get(k.label)!;
        rows.push({
          metric: `search, ${k.label}, 20 hits, median of ${xs.length}; lower is better`,
          readme: `search median, ${k.label} (${VIDEOS / 1000}k videos, 10 KB transcripts)`,
          value: round(median(xs), 3), unit: 'ms',
          baseline: { label: 'channel-feed query, same store', value: round(feedMedian, 3) },
          ratio: round(median(xs) / feedMedian, 1),
          target: '<= 20 ms', met: median(xs) <= 20,
        });
      }
      rows.push({
        metric: `search p99 over all ${all.length} queries (1–3 words and phrases)`,
        readme: 'search p99, 1–3 words and phrases', headline: true,
        value: round(percentile(all, 99), 2), unit: 'ms',
        baseline: { label: 'channel-feed query p99', value: round(percentile(feed, 99), 3) },
        ratio: round(percentile(all, 99) / percentile(feed, 99), 1),
        target: '<= 100 ms', met: percentile(all, 99) <= 100,
      });
    } finally {
      await store.close();
    }

    const sizes = indexBytes(file);
    rows.push({
      metric: 'FTS index on disk (search_index shadow tables + search_docs), against the stored text it indexes',
      readme: 'search index size on disk',
      value: round(sizes.index / 1e6, 0), unit: 'MB',
      baseline: { label: 'stored text (titles + paragraphs, UTF-8)', value: round(corpus.textBytes / 1e6, 0) },
      ratio: round(sizes.index / corpus.textBytes, 2),
      target: '<= 1.0x of the stored text', met: sizes.index <= corpus.textBytes,
    });
    notes.push(`The transcripts table itself (paragraphs as JSON) takes ${(sizes.transcripts / 1e6).toFixed(0)} MB.`);

    await overHttp(dir, file, rows, notes);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { title: TITLE, rows, notes };
};

export default searchBenchmark;

if (require.main === module) runStandalone(searchBenchmark);
