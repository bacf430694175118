// End to end on the compiled API process over a SQLite file of 100k stored videos in 1,000 channels:
// how long a 1,000-channel import (a Takeout CSV) takes to answer, beside a one-channel import in
// the same run, and the combined feed of all 1,000 followed channels under wrk beside one channel's
// feed of the same length (50 items), alternating A-B / B-A rounds. Run alone:
// `npx tsx bench/subscriptions.ts`.

import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore } from '../shared/store';
import { startFakePlatform } from '../test/fake-platform';
import { ensureBuilt } from '../test/support/processes';
import { Cleanup, cpuMicrosOf, KEY, progressOf, serviceEnv, startApiLoggingToFile, tempDir, waitForHealth } from './services';
import { benchChannelId, loadBenchVideos, median, round, runStandalone, transcriptOf } from './support';
import type { Benchmark, BenchSection } from './types';
import { wrk, wrkAvailable, WRK_INSTALL } from './wrk';

const TITLE = 'Subscriptions: a 1,000-channel import, and the combined feed of 1,000 channels (compiled API process, SQLite, 100k stored videos, wrk)';
const CHANNELS = 1_000;
const VIDEOS = 100_000;
const IMPORT_ROUNDS = 5;
const ROUNDS = 3;
const ROUND_SECONDS = 3;
const CONNECTIONS = 10;
const ITEMS = 50;
const progress = progressOf('subscriptions');

/** A Takeout subscriptions.csv of these channels (BOM, CRLF, quoted titles with commas). */
function takeoutCsv(ids: readonly string[]): string {
  const rows = ids.map((id, i) => `${id},http://www.youtube.com/channel/${id},"Channel ${i}, the ""bench"" one"`);
  return `\uFEFFChannel Id,Channel Url,Channel Title\r\n${rows.join('\r\n')}\r\n`;
}

async function timedImport(base: string, body: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/subscriptions`, { method: 'POST', headers: { 'X-API-Key': KEY, 'Content-Type': 'text/csv' }, body });
  const answer = (await res.json()) as { imported?: number };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`import answered ${res.status}: ${JSON.stringify(answer)}`);
  return ms;
}

const subscriptionsBenchmark: Benchmark = async (): Promise<BenchSection> => {
  if (!wrkAvailable()) {
    console.error(`bench subscriptions: ${WRK_INSTALL}`);
    return { title: TITLE, rows: [], notes: [`Skipped: ${WRK_INSTALL}.`] };
  }
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const fake = await startFakePlatform({ channels: [] }); // never asked: the API is given channel ids
    cleanup.add('fake platform', () => fake.close());
    const dir = tempDir(cleanup, 'subscriptions');
    const store = await openStore(`sqlite:${path.join(dir, 'feeds.db')}`, { logger: silentLogger() });
    try {
      await loadBenchVideos(store, VIDEOS, transcriptOf(1024));
    } finally {
      await store.close();
    }
    progress(`filled ${VIDEOS} videos in ${CHANNELS} channels`);
    const { api, base } = await startApiLoggingToFile(cleanup, serviceEnv(dir, fake.url), dir);
    await waitForHealth(api, base);

    // Imports: each round new channel ids (so each imports all of them), one channel vs 1,000.
    const one: number[] = [];
    const thousand: number[] = [];
    for (let r = 0; r < IMPORT_ROUNDS; r++) {
      const ids = Array.from({ length: CHANNELS }, (_, i) => benchChannelId(10_000 + r * CHANNELS + i));
      one.push(await timedImport(base, takeoutCsv([benchChannelId(90_000 + r)])));
      thousand.push(await timedImport(base, takeoutCsv(ids)));
    }
    // The channels that hold the stored videos, followed by the bench key: the combined feed's list.
    await timedImport(base, takeoutCsv(Array.from({ length: CHANNELS }, (_, i) => benchChannelId(i))));
    progress(`import median: 1 channel ${median(one).toFixed(1)} ms, ${CHANNELS} channels ${median(thousand).toFixed(1)} ms`);

    const single = `${base}/?channel_id=${benchChannelId(CHANNELS / 2)}&max_items=${ITEMS}`;
    const combined = `${base}/subscriptions/feed?max_items=${ITEMS}`;
    for (const url of [single, combined]) {
      const res = await fetch(url, { headers: { 'X-API-Key': KEY } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
      const entries = text.split('<entry>').length - 1;
      if (url === combined && entries !== ITEMS) throw new Error(`the combined feed has ${entries} entries, not ${ITEMS}`);
      progress(`${url === single ? 'single' : 'combined'} feed: ${entries} entries, ${text.length} bytes`);
    }
    const totals = { single: { requests: 0, seconds: 0, cpu: 0 }, combined: { requests: 0, seconds: 0, cpu: 0 } };
    const run = async (which: 'single' | 'combined', seconds: number, keep: boolean): Promise<void> => {
      const cpuBefore = cpuMicrosOf(api.child.pid!);
      const r = await wrk({ url: which === 'single' ? single : combined, headers: { 'X-API-Key': KEY }, seconds, connections: CONNECTIONS });
      const cpuAfter = cpuMicrosOf(api.child.pid!);
      if (!keep) return;
      totals[which].requests += r.requests;
      totals[which].seconds += r.seconds;
      totals[which].cpu += (cpuAfter ?? 0) - (cpuBefore ?? 0);
    };
    await run('single', 1, false);
    await run('combined', 1, false);
    for (let r = 0; r < ROUNDS; r++) {
      const order: ('single' | 'combined')[] = r % 2 === 0 ? ['single', 'combined'] : ['combined', 'single'];
      for (const which of order) await run(which, ROUND_SECONDS, true);
    }
    const rps = (w: 'single' | 'combined'): number => totals[w].requests / totals[w].seconds;
    const cpu = (w: 'single' | 'combined'): number => totals[w].cpu / totals[w].requests;
    const ratio = rps('combined') / rps('single');
    progress(`combined ${rps('combined').toFixed(0)} req/s vs single ${rps('single').toFixed(0)} req/s (${ratio.toFixed(2)}x)`);
    const importMs = median(thousand);

    return {
      title: TITLE,
      rows: [
        {
          readme: 'a 1,000-channel import (Takeout CSV) answered, median',
          metric: `POST /subscriptions of a ${CHANNELS}-channel Takeout CSV, time to the whole answer, median of ${IMPORT_ROUNDS}; lower is better`,
          value: round(importMs, 1),
          unit: 'ms',
          baseline: { label: 'a one-channel import', value: round(median(one), 1) },
          ratio: round(importMs / median(one), 1),
          target: '<= 2 s',
          met: importMs <= 2000,
        },
        {
          readme: 'combined feed of 1,000 channels over HTTP (wrk), req/s',
          metric: `GET /subscriptions/feed (${CHANNELS} followed channels, ${ITEMS} items), requests per second`,
          value: round(rps('combined'), 0),
          unit: 'req/s',
          baseline: { label: `one channel's feed, max_items=${ITEMS}`, value: round(rps('single'), 0) },
          ratio: round(ratio, 2),
          target: ">= 0.8x of one channel's feed",
          met: ratio >= 0.8,
        },
      ],
      notes: [
        `${VIDEOS.toLocaleString('en-US')} stored videos in ${CHANNELS} channels of 100 (1 KB transcripts, 5% awaiting retry, 5% given up), the API as \`npm start\` runs it (LOG_LEVEL=info, access log to a file). ` +
          `Imports: each round a CSV of ${CHANNELS} new channel ids (all imported) and one of a single new id, ${IMPORT_ROUNDS} rounds; import times ${thousand.map((t) => t.toFixed(0)).join(', ')} ms vs ${one.map((t) => t.toFixed(0)).join(', ')} ms. ` +
          `Feeds: wrk 1 thread ${CONNECTIONS} connections with X-API-Key, ${ROUNDS} rounds of ${ROUND_SECONDS} s each (A-B, B-A, A-B) after 1 s warm-ups; both feeds cache-warm Atom of ${ITEMS} entries, ` +
          `the single feed on the direct node:http path, the combined one through Express; API CPU per request ${cpu('single').toFixed(0)} µs vs ${cpu('combined').toFixed(0)} µs (single vs combined). ` +
          `Measured on a shared 2-core machine unless the summary line says otherwise.`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default subscriptionsBenchmark;

if (require.main === module) runStandalone(subscriptionsBenchmark);
