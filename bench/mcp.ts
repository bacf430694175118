// MCP benchmark (issue 32): the search_transcripts tool over 100,000 stored videos with 10 KB
// transcripts, median and p95, beside the search feed (GET /search) answering the same queries in
// the same run from the same app and store; and get_transcript of a three-hour video, every page,
// beside the same transcript as one plain-text file (GET /transcripts/<id>.txt).
// Both sides go over loopback HTTP to one in-process app, one request at a time, interleaved query
// by query (which side goes first alternates) so machine noise hits both alike. Every query is new
// to both sides, so neither answers from a render cache. The MCP side is the SDK's own Client over
// Streamable HTTP, as an assistant calls it. MCP_BENCH_VIDEOS overrides the store size for a quick
// look. Run alone: `npx tsx bench/mcp.ts`.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../api/create-app';
import { KeyRing } from '../api/key-ring';
import { listen } from '../api/server';
import { silentLogger } from '../shared/logger';
import { openSqliteStore } from '../shared/store/sqlite/sqlite-store';
import { videoRecord } from '../test/support/factories';
import { makeRng } from '../test/support/random';
import { channelIdOf, corpusBatches, VOCABULARY, WORDS, type Corpus } from './search-corpus';
import { median, msSince, percentile, round, runStandalone } from './support';
import type { Benchmark, BenchRow, BenchSection } from './types';

const VIDEOS = Number(process.env.MCP_BENCH_VIDEOS ?? 100_000);
const QUERIES = 300;
const WARM_UP = 20;
const HITS = 20;
const TRANSCRIPT_ROUNDS = 20;
const KEY = 'bench-mcp-key-0123456789abcdef01';
const LONG_VIDEO = 'mcpLong3hrs';


/** One- and two-word queries across the frequency range, each used once (no cache answers it). */
function queries(n: number): string[] {
  const rng = makeRng('mcp-queries');
  const anyWord = (): string => WORDS[Math.floor(Math.exp(rng() * Math.log(VOCABULARY))) - 1]!;
  const seen = new Set<string>();
  while (seen.size < n) seen.add(seen.size % 2 === 0 ? anyWord() : `${anyWord()} ${anyWord()}`);
  return [...seen];
}

/** A three-hour talk: a paragraph every 20 s (540), about 50 words each (~170 KB in all). */
function longTalk(): { startMs: number; text: string }[] {
  const rng = makeRng('mcp-long');
  return Array.from({ length: 540 }, (_, i) => ({
    startMs: i * 20_000,
    text: `${Array.from({ length: 50 }, () => WORDS[Math.floor(rng() * 2000)]!).join(' ')}.`,
  }));
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return msSince(start);
}

const mcpBenchmark: Benchmark = async (): Promise<BenchSection> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-bench-mcp-'));
  const logger = silentLogger();
  const store = openSqliteStore(path.join(dir, 'mcp.db'), logger);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    const corpus: Corpus = { channels: 0, textBytes: 0, samples: [] };
    const loadStart = Date.now();
    for (const batch of corpusBatches(VIDEOS, 'mcp-corpus', corpus)) await store.upsertVideos(batch.videos, batch.transcripts);
    const talk = longTalk();
    const published = new Date(Date.UTC(2024, 0, 1));
    await store.upsertVideos(
      [videoRecord({ videoId: LONG_VIDEO, channelId: channelIdOf(0), title: 'A three-hour talk', publishedAt: published, fetchedAt: published, language: 'en', kind: 'manual', description: null, durationSeconds: 3 * 3600 })],
      [{ videoId: LONG_VIDEO, language: 'en', kind: 'manual', paragraphs: talk, fetchedAt: published }],
    );
    notes.push(`${VIDEOS.toLocaleString('en-US')} videos (${(corpus.textBytes / 1e9).toFixed(2)} GB of stored text, ${corpus.channels} channels, the search benchmark's Zipf corpus) written with the search index in ${((Date.now() - loadStart) / 1000).toFixed(0)} s.`);

    fs.writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: bench\n      rate_limit: 1000000000\n      enabled: true\n`);
    const keys = KeyRing.open(path.join(dir, 'security.yaml'), { defaultRateLimit: 60, logger });
    const app = createApp({ store, keys, platform: { resolveHandle: async () => null }, logger, maxAnswersPerKey: 1000 });
    const server = await listen(app, 0, '127.0.0.1', { logger });
    const base = `http://127.0.0.1:${server.port}`;
    const client = new Client({ name: 'transcript-feed-bench', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
      const feedOnce = (q: string) => timed(async () => {
        const res = await fetch(`${base}/search?q=${encodeURIComponent(q)}`, { headers: { 'X-API-Key': KEY } });
        if (res.status !== 200) throw new Error(`GET /search?q=${q} answered ${res.status}`);
        await res.arrayBuffer();
      });
      let hits = 0;
      const mcpOnce = (q: string) => timed(async () => {
        const r = await client.callTool({ name: 'search_transcripts', arguments: { query: q, limit: HITS } });
        if (r.isError === true) throw new Error(`search_transcripts ${q}: ${JSON.stringify(r.content)}`);
        hits += (r.structuredContent as { hits: unknown[] }).hits.length;
      });
      const qs = queries(WARM_UP + QUERIES);
      for (const q of qs.slice(0, WARM_UP)) {
        await feedOnce(q);
        await mcpOnce(q);
      }
      hits = 0;
      const feed: number[] = [];
      const mcp: number[] = [];
      for (const [i, q] of qs.slice(WARM_UP).entries()) {
        if (i % 2 === 0) {
          feed.push(await feedOnce(q));
          mcp.push(await mcpOnce(q));
        } else {
          mcp.push(await mcpOnce(q));
          feed.push(await feedOnce(q));
        }
      }
      const p95 = { mcp: percentile(mcp, 95), feed: percentile(feed, 95) };
      rows.push(
        {
          metric: `search_transcripts (MCP over Streamable HTTP, ${HITS} hits), median of ${QUERIES} one- and two-word queries; lower is better`,
          value: round(median(mcp), 2), unit: 'ms',
          baseline: { label: 'GET /search, the same queries, same app and store', value: round(median(feed), 2) },
          ratio: round(median(mcp) / median(feed), 2),
        },
        {
          metric: `search_transcripts p95, the same ${QUERIES} queries; lower is better`,
          readme: 'MCP search_transcripts p95 (100k videos)',
          value: round(p95.mcp, 2), unit: 'ms',
          baseline: { label: 'GET /search p95', value: round(p95.feed, 2) },
          ratio: round(p95.mcp / p95.feed, 2),
          target: '<= 1.5x of the search feed', met: p95.mcp <= 1.5 * p95.feed,
        },
      );
      notes.push(`search: each query once per side after ${WARM_UP} warm-up queries, one request at a time; ${(hits / QUERIES).toFixed(1)} hits per MCP answer on average (the feed asks for ${HITS} too). The MCP answer is JSON (hits with their matching paragraphs, twice: structured and as text); the feed's is Atom.`);

      let pages = 0;
      const pagesRun: number[] = [];
      const file: number[] = [];
      const wholeOnce = () => timed(async () => {
        const res = await fetch(`${base}/transcripts/${LONG_VIDEO}.txt`, { headers: { 'X-API-Key': KEY } });
        if (res.status !== 200) throw new Error(`GET /transcripts/${LONG_VIDEO}.txt answered ${res.status}`);
        await res.arrayBuffer();
      });
      const pagedOnce = () => timed(async () => {
        let cursor: string | undefined;
        let seen = 0;
        pages = 0;
        do {
          const r = await client.callTool({ name: 'get_transcript', arguments: cursor === undefined ? { video_id: LONG_VIDEO } : { video_id: LONG_VIDEO, cursor } });
          if (r.isError === true) throw new Error(`get_transcript: ${JSON.stringify(r.content)}`);
          const page = r.structuredContent as { paragraphs: unknown[]; next_cursor?: string };
          seen += page.paragraphs.length;
          cursor = page.next_cursor;
          pages++;
        } while (cursor !== undefined);
        if (seen !== talk.length) throw new Error(`get_transcript paged ${seen} paragraphs of ${talk.length}`);
      });
      await wholeOnce();
      await pagedOnce();
      for (let i = 0; i < TRANSCRIPT_ROUNDS; i++) {
        file.push(await wholeOnce());
        pagesRun.push(await pagedOnce());
      }
      const bytes = talk.reduce((n, p) => n + Buffer.byteLength(p.text), 0);
      rows.push({
        metric: `get_transcript of a three-hour video (540 paragraphs, ${Math.round(bytes / 1000)} KB of text), every page in turn, median of ${TRANSCRIPT_ROUNDS}; lower is better`,
        readme: 'MCP get_transcript, 3-hour video, all pages',
        value: round(median(pagesRun), 2), unit: 'ms',
        baseline: { label: 'GET /transcripts/<id>.txt, the whole file, cache-warm', value: round(median(file), 2) },
        ratio: round(median(pagesRun) / median(file), 2),
      });
      notes.push(`get_transcript: ${pages} pages of about 50 KB, each its own tools/call (the store read and paging run per page); the file is rendered once, then served from the render cache by its ETag.`);
    } finally {
      await client.close();
      await server.close();
      keys.close();
    }
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { title: `MCP: search_transcripts over ${Math.round(VIDEOS / 1000)}k stored videos beside the search feed, and get_transcript of a three-hour video (in-process app, SQLite, loopback HTTP)`, rows, notes };
};

export default mcpBenchmark;
if (require.main === module) runStandalone(mcpBenchmark);
