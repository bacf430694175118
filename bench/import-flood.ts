// /health while one key floods POST /subscriptions with the files the attack sent (a 2 MB OPML of
// ~100,000 tiny outlines, a 2 MB text file of a million one-letter lines, a 2 MB OPML of 5,000 padded
// outlines broken at its very end), 6 at a time for a few seconds, beside /health on the same idle
// process in the same run. Each probe on a fresh connection, one after another. The compiled API
// process on a fresh SQLite file. Run alone: `npx tsx bench/import-flood.ts`.

import { startFakePlatform } from '../test/fake-platform';
import { Worker } from 'node:worker_threads';
import { ensureBuilt } from '../test/support/processes';
import { Cleanup, KEY, progressOf, serviceEnv, startApiLoggingToFile, tempDir, waitForHealth } from './services';
import { round, runStandalone } from './support';
import type { Benchmark, BenchSection } from './types';

const TITLE = 'Imports: /health while one key floods POST /subscriptions (compiled API process, SQLite)';
const PARALLEL = 6;
const FLOOD_SECONDS = 8;
const IDLE_PROBES = 300;
const progress = progressOf('import-flood');

/** The flood's thread: PARALLEL senders, each posting the files in turn until the thread is ended. */
const FLOOD_SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, key, bodies, parallel } = workerData;
const encoded = bodies.map((b) => ({ name: b.name, body: Buffer.from(b.body) }));
async function sender(n) {
  for (let i = n; ; i += parallel) {
    const f = encoded[i % encoded.length];
    try {
      const res = await fetch(base + '/subscriptions', { method: 'POST', body: f.body, headers: { 'X-API-Key': key } });
      await res.arrayBuffer();
      parentPort.postMessage({ name: f.name, status: res.status });
    } catch (err) {
      parentPort.postMessage({ name: f.name, status: 0 });
    }
  }
}
for (let n = 0; n < parallel; n++) sender(n);
`;

const idOf = (i: number): string => `UC${String(i).padStart(22, '0')}`;
const TWO_MB = 2 * 1024 * 1024 - 1024;

function files(): { name: string; body: string }[] {
  const tiny: string[] = [];
  let size = 60;
  for (let i = 0; size < TWO_MB; i++) {
    const o = `<outline xmlUrl="x${i}"/>`;
    tiny.push(o);
    size += o.length + 1;
  }
  const pad = 'p'.repeat(Math.floor(TWO_MB / 5000) - 110);
  const padded = Array.from({ length: 5000 }, (_, i) => `<outline text="${pad}" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${idOf(i)}"/>`);
  return [
    { name: `OPML of ${tiny.length} outlines`, body: `<?xml version="1.0"?>\n<opml version="2.0"><body>\n${tiny.join('\n')}\n</body></opml>` },
    { name: 'text of a million lines', body: 'a\n'.repeat(Math.floor(TWO_MB / 2)) },
    { name: 'OPML of 5,000 padded outlines, broken at the end', body: `<?xml version="1.0"?>\n<opml version="2.0"><body>\n${padded.join('\n')}\n</body></opml><broken` },
  ];
}

async function probe(base: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}/health`, { headers: { Connection: 'close' } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  return performance.now() - t;
}

const p99 = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? 0;
};

const importFloodBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const fake = await startFakePlatform({ channels: [] });
    cleanup.add('fake platform', () => fake.close());
    const dir = tempDir(cleanup, 'import-flood');
    const { api, base } = await startApiLoggingToFile(cleanup, serviceEnv(dir, fake.url), dir);
    await waitForHealth(api, base);

    const idle: number[] = [];
    for (let i = 0; i < IDLE_PROBES; i++) idle.push(await probe(base));
    progress(`idle /health p99 ${p99(idle).toFixed(1)} ms over ${idle.length}`);

    const bodies = files();
    // The flood comes from a thread of its own, so that making and sending 2 MB bodies does not
    // hold the probes' event loop: what the probes see is the API's.
    const flood = new Worker(FLOOD_SENDER, { eval: true, workerData: { base, key: KEY, bodies, parallel: PARALLEL } });
    const answers = new Map<string, number>();
    let floods = 0;
    flood.on('message', (m: { name: string; status: number }) => {
      answers.set(`${m.name} → ${m.status}`, (answers.get(`${m.name} → ${m.status}`) ?? 0) + 1);
      floods += 1;
    });
    cleanup.add('flood sender', () => flood.terminate().then(() => undefined));
    await new Promise((r) => setTimeout(r, 500));
    const during: number[] = [];
    const until = Date.now() + FLOOD_SECONDS * 1000;
    while (Date.now() < until) during.push(await probe(base));
    await flood.terminate();
    progress(`flood /health p99 ${p99(during).toFixed(1)} ms over ${during.length}; ${floods} imports: ${[...answers].map(([k, v]) => `${k} ×${v}`).join(', ')}`);

    const value = p99(during);
    return {
      title: TITLE,
      rows: [
        {
          readme: '/health p99 during an import flood',
          metric: `GET /health p99 while one key sends 2 MB hostile imports ${PARALLEL} at a time (${FLOOD_SECONDS} s); lower is better`,
          value: round(value, 1),
          unit: 'ms',
          baseline: { label: 'the same process idle', value: round(p99(idle), 1) },
          ratio: round(value / Math.max(0.1, p99(idle)), 1),
          target: '< 100 ms',
          met: value < 100,
        },
      ],
      notes: [
        `Files: ${bodies.map((b) => `${b.name} (${(b.body.length / 1048576).toFixed(2)} MB)`).join('; ')}; answers ${[...answers].map(([k, v]) => `${k} ×${v}`).join(', ')}. ` +
          `${during.length} probes during the flood, ${idle.length} idle, each on a fresh connection. Measured on a shared 2-core machine unless the summary line says otherwise.`,
      ],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default importFloodBenchmark;

if (require.main === module) runStandalone(importFloodBenchmark);
