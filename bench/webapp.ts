// Web app benchmark (issue 29's Speed): the app's pages under wrk beside the feeds they stand for, in
// the same run, same in-process app and SQLite store, each page fetched with a signed-in session's
// Cookie (signed in once through the form, as a browser does: GET /app/ for the pre-session cookie
// and its token, POST /app/sign-in):
//   * a warm transcript page of a three-hour video (540 paragraphs) beside the channel feed (GET /);
//   * a search page (two words) beside the search feed (GET /search) answering the same query;
//   * the home page of a key following 1,000 channels (every one with stored videos) beside the
//     channel feed;
//   * the page weight of a one-hour video's transcript page (180 paragraphs), the player not counted
//     (it is an iframe the browser fetches from the platform), in the coding a feed would be sent
//     (Accept-Encoding: gzip, br, as browsers send it).
// Targets interleave in rounds (each target one slice a round), so the machine's other load falls on
// all alike. WEBAPP_BENCH_VIDEOS overrides the store size. Run alone: `npx tsx bench/webapp.ts`.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createApp } from '../api/create-app';
import { KeyRing } from '../api/key-ring';
import { listen } from '../api/server';
import { silentLogger } from '../shared/logger';
import { openSqliteStore } from '../shared/store/sqlite/sqlite-store';
import { videoRecord } from '../test/support/factories';
import { makeRng } from '../test/support/random';
import { channelIdOf, corpusBatches, WORDS, type Corpus } from './search-corpus';
import { median, msSince, round, runStandalone } from './support';
import type { Benchmark, BenchRow, BenchSection } from './types';
import { wrk, wrkAvailable, WRK_INSTALL } from './wrk';

const CHANNELS = 1000;
const VIDEOS = Number(process.env.WEBAPP_BENCH_VIDEOS ?? 5000);
const CONNECTIONS = 10;
const ROUNDS = 3;
const SLICE_SECONDS = 3;
const KEY = 'bench-webapp-key-0123456789abcdef';
const LONG_VIDEO = 'appLong3hrs';
const HOUR_VIDEO = 'appHour1hrs';
const WEIGHT_TARGET = 60 * 1024;
const TITLE = `Web app (wrk, ${CONNECTIONS} connections, ${ROUNDS} interleaved ${SLICE_SECONDS} s slices per target; in-process app, SQLite, a signed-in session)`;

/** A talk of `minutes`: a paragraph every 20 s, about 50 words each (as speech runs, ~150 words a minute). */
function talk(minutes: number, seed: string): { startMs: number; text: string }[] {
  const rng = makeRng(seed);
  return Array.from({ length: minutes * 3 }, (_, i) => ({
    startMs: i * 20_000,
    text: `${Array.from({ length: 50 }, () => WORDS[Math.floor(rng() * 2000)]!).join(' ')}.`,
  }));
}

/** An answer's bytes as sent (node:http does not decode a Content-Encoding, as fetch would). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; coding: string | null; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const coding = res.headers['content-encoding'];
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        else resolve({ status: res.statusCode, coding: coding ?? null, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

/** The session Cookie of `key`, signed in through the form as a browser signs in. */
async function signIn(base: string, key: string): Promise<string> {
  const form = await fetch(`${base}/app/`);
  const pre = form.headers.getSetCookie().find((c) => c.startsWith('tf_pre='))?.split(';')[0];
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (pre === undefined || csrf === undefined) throw new Error('the sign-in form has no pre-session cookie or token');
  const res = await fetch(`${base}/app/sign-in`, {
    method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: pre, Origin: base },
    body: new URLSearchParams({ csrf, api_key: key }).toString(),
  });
  await res.arrayBuffer();
  const session = res.headers.getSetCookie().find((c) => c.startsWith('tf_session='))?.split(';')[0];
  if (session === undefined) throw new Error(`sign-in answered ${res.status} without a session cookie`);
  return session;
}

const webappBenchmark: Benchmark = async (): Promise<BenchSection> => {
  if (!wrkAvailable()) return { title: TITLE, rows: [], notes: [`Skipped: ${WRK_INSTALL}.`] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-bench-webapp-'));
  const logger = silentLogger();
  const store = openSqliteStore(path.join(dir, 'webapp.db'), logger);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    fs.writeFileSync(path.join(dir, 'security.yaml'), `security:\n  api_keys:\n    ${KEY}:\n      name: bench\n      rate_limit: 1000000000\n      enabled: true\n`);
    const keys = KeyRing.open(path.join(dir, 'security.yaml'), { defaultRateLimit: 60, logger });
    const keyId = keys.keys[0]!.keyId;

    // The search corpus's videos spread over 1,000 channels, every one followed by the key.
    const loadStart = Date.now();
    const corpus: Corpus = { channels: 0, textBytes: 0, samples: [] };
    let n = 0;
    for (const batch of corpusBatches(VIDEOS, 'webapp-corpus', corpus)) {
      await store.upsertVideos(batch.videos.map((v) => ({ ...v, channelId: channelIdOf(n++ % CHANNELS) })), batch.transcripts);
    }
    const t0 = new Date(Date.UTC(2024, 0, 1));
    await store.follow(keyId, Array.from({ length: CHANNELS }, (_, c) => ({ channelId: channelIdOf(c), title: `Channel ${c}` })), 'import', 10, t0);
    const long = talk(180, 'webapp-long');
    const hour = talk(60, 'webapp-hour');
    const record = (videoId: string, title: string, seconds: number) =>
      videoRecord({ videoId, channelId: channelIdOf(0), title, publishedAt: t0, fetchedAt: t0, language: 'en', kind: 'manual', description: null, durationSeconds: seconds });
    await store.upsertVideos(
      [record(LONG_VIDEO, 'A three-hour talk', 3 * 3600), record(HOUR_VIDEO, 'A one-hour talk', 3600)],
      [{ videoId: LONG_VIDEO, language: 'en', kind: 'manual', paragraphs: long, fetchedAt: t0 }, { videoId: HOUR_VIDEO, language: 'en', kind: 'manual', paragraphs: hour, fetchedAt: t0 }],
    );
    notes.push(`${VIDEOS.toLocaleString('en-US')} videos (the search benchmark's Zipf corpus, 10 KB transcripts) over ${CHANNELS.toLocaleString('en-US')} channels, all followed by the key, and a three-hour (540 paragraphs) and a one-hour (180 paragraphs) video of about 50 words a paragraph; written in ${((Date.now() - loadStart) / 1000).toFixed(0)} s.`);

    const app = createApp({ store, keys, platform: { resolveHandle: async () => null }, logger, maxAnswersPerKey: 1000 });
    const server = await listen(app, 0, '127.0.0.1', { logger });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const session = await signIn(base, KEY);
      const feedHeaders = { 'X-API-Key': KEY };
      const pageHeaders = { Cookie: session };
      const q = `${WORDS[40]} ${WORDS[300]}`;
      const targets = {
        channelFeed: { url: `${base}/?channel_id=${channelIdOf(7)}`, headers: feedHeaders },
        searchFeed: { url: `${base}/search?q=${encodeURIComponent(q)}`, headers: feedHeaders },
        transcriptPage: { url: `${base}/app/videos/${LONG_VIDEO}`, headers: pageHeaders },
        searchPage: { url: `${base}/app/search?q=${encodeURIComponent(q)}`, headers: pageHeaders },
        homePage: { url: `${base}/app/`, headers: pageHeaders },
      };
      type Name = keyof typeof targets;
      const names = Object.keys(targets) as Name[];
      const bytes = {} as Record<Name, number>;
      for (const name of names) {
        const t = targets[name];
        for (let i = 0; i < 3; i++) {
          const res = await fetch(t.url, { headers: { ...t.headers, 'Accept-Encoding': 'identity' } });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
          if (name.endsWith('Page') && !body.includes('/app/sign-out')) throw new Error(`${name} is not a signed-in page`);
          bytes[name] = Buffer.byteLength(body);
        }
      }
      // The home page must be the one of a key following 1,000 channels.
      const home = await (await fetch(targets.homePage.url, { headers: pageHeaders })).text();
      const listed = CHANNELS - [...Array(CHANNELS).keys()].filter((c) => !home.includes(`/app/channels/${channelIdOf(c)}"`)).length;
      if (listed !== CHANNELS) throw new Error(`the home page links ${listed} of the ${CHANNELS} followed channels`);

      // One request at a time: what each answer costs the server alone, and home's one store read.
      const alone = {} as Record<Name, number>;
      for (const name of names) {
        const times: number[] = [];
        for (let i = 0; i < 10; i++) {
          const start = process.hrtime.bigint();
          await (await fetch(targets[name].url, { headers: { ...targets[name].headers, 'Accept-Encoding': 'identity' } })).arrayBuffer();
          times.push(msSince(start));
        }
        alone[name] = median(times);
      }
      const overview: number[] = [];
      for (let i = 0; i < 10; i++) {
        const start = process.hrtime.bigint();
        await store.followedOverview(keyId);
        overview.push(msSince(start));
      }
      notes.push(`One request at a time, median of 10: channel feed ${round(alone.channelFeed, 2)} ms, search feed ${round(alone.searchFeed, 2)} ms, transcript page ${round(alone.transcriptPage, 2)} ms, search page ${round(alone.searchPage, 2)} ms, home page ${round(alone.homePage, 2)} ms, of which store.followedOverview for ${CHANNELS.toLocaleString('en-US')} channels ${round(median(overview), 2)} ms.`);

      // A slice ends with up to CONNECTIONS answers still being made (wrk has gone, the server has
      // not): the next slice starts only once a cheap request is answered promptly again.
      const drained = async (): Promise<void> => {
        for (let i = 0; i < 300; i++) {
          const start = process.hrtime.bigint();
          await (await fetch(targets.channelFeed.url, { headers: feedHeaders })).arrayBuffer();
          if (msSince(start) < 20) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const runs = Object.fromEntries(names.map((nm) => [nm, { rps: [] as number[], p99: [] as number[] }])) as Record<Name, { rps: number[]; p99: number[] }>;
      for (const name of names) await wrk({ ...targets[name], seconds: 1, connections: CONNECTIONS, timeoutSeconds: 30 });
      for (let r = 0; r < ROUNDS; r++) {
        for (const name of names) {
          await drained();
          const w = await wrk({ ...targets[name], seconds: SLICE_SECONDS, connections: CONNECTIONS, timeoutSeconds: 30 });
          runs[name].rps.push(w.rps);
          runs[name].p99.push(w.p99);
        }
      }
      const rps = (nm: Name): number => median(runs[nm].rps);
      const p99 = (nm: Name): number => median(runs[nm].p99);
      const ratioRow = (nm: Name, metric: string, readme: string, base: Name, baseLabel: string, target: number): BenchRow => ({
        metric, readme, value: round(rps(nm), 0), unit: 'req/s',
        baseline: { label: baseLabel, value: round(rps(base), 0) },
        ratio: round(rps(nm) / rps(base), 3), target: `>= ${target}x`, met: rps(nm) / rps(base) >= target,
      });
      rows.push(
        ratioRow('transcriptPage', `transcript page of a three-hour video (540 paragraphs, ${Math.round(bytes.transcriptPage / 1024)} KB of HTML), warm / channel feed`, 'app transcript page, 3-hour video, warm, against the channel feed', 'channelFeed', 'channel feed GET /, 10 items, same run', 0.5),
        ratioRow('searchPage', `search page (two words, 20 hits, ${Math.round(bytes.searchPage / 1024)} KB) / search feed, the same query`, 'app search page against the search feed', 'searchFeed', 'GET /search, the same query, same run', 0.8),
        ratioRow('homePage', `home page of a key following ${CHANNELS.toLocaleString('en-US')} channels (${Math.round(bytes.homePage / 1024)} KB), warm / channel feed`, 'app home page, 1,000 channels followed, against the channel feed', 'channelFeed', 'channel feed GET /, 10 items, same run', 0.3),
      );
      notes.push(`p99 latency (median of the slices): channel feed ${round(p99('channelFeed'), 2)} ms, search feed ${round(p99('searchFeed'), 2)} ms, transcript page ${round(p99('transcriptPage'), 2)} ms, search page ${round(p99('searchPage'), 2)} ms, home page ${round(p99('homePage'), 2)} ms.`);
      notes.push(`Bodies (identity): channel feed ${Math.round(bytes.channelFeed / 1024)} KB, search feed ${Math.round(bytes.searchFeed / 1024)} KB; every request is sent without Accept-Encoding (wrk's default), feeds and pages alike.`);

      // Page weight: the one-hour video's page as a browser asks for it (gzip, br), the player not counted.
      const sentRes = await rawGet(`${base}/app/videos/${HOUR_VIDEO}`, { ...pageHeaders, 'Accept-Encoding': 'gzip, deflate, br' });
      const rawBody = (await rawGet(`${base}/app/videos/${HOUR_VIDEO}`, { ...pageHeaders, 'Accept-Encoding': 'identity' })).body;
      const coding = sentRes.coding;
      const gz = gzipSync(rawBody).length;
      const br = brotliCompressSync(rawBody, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length;
      const weight = coding === null ? gz : sentRes.body.length;
      rows.push({
        metric: coding === null
          ? `transcript page of a one-hour video (180 paragraphs), without the player: the app sends it uncompressed (${Math.round(rawBody.length / 1024)} KB); its gzip size as feeds would be sent`
          : `transcript page of a one-hour video (180 paragraphs), without the player, as sent with Content-Encoding ${coding}`,
        readme: 'app transcript page weight, 1-hour video, compressed',
        value: round(weight / 1024, 1), unit: 'KB',
        baseline: { label: 'the same page uncompressed', value: round(rawBody.length / 1024, 1) },
        ratio: round(weight / rawBody.length, 3), target: '< 60 KB', met: weight < WEIGHT_TARGET,
      });
      notes.push(`One-hour page: ${Math.round(rawBody.length / 1024)} KB raw, ${Math.round(gz / 1024)} KB gzip, ${Math.round(br / 1024)} KB br (quality 5, as feeds); answered to Accept-Encoding "gzip, deflate, br" with ${coding === null ? 'no Content-Encoding' : `Content-Encoding ${coding}`}. The stylesheet and script are separate long-cached files; the player is the platform's iframe.`);
    } finally {
      await server.close();
      keys.close();
    }
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { title: TITLE, rows, notes };
};

export default webappBenchmark;
if (require.main === module) runStandalone(webappBenchmark);
