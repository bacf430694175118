// Summaries (issue 31), every figure beside a baseline of the same run: model calls per video
// (one request per transcript within the context); prompt tokens per transcript token (the
// prompt's overhead over the transcript itself); and the summary queue's cost to crawl
// throughput: a compiled crawler storing the same channels with summaries off, then on with the
// fake model answering in 2 s. Run alone: `npx tsx bench/summaries.ts`.

import path from 'node:path';
import { silentLogger } from '../shared/logger';
import { openStore } from '../shared/store';
import { askEndpoint, spansOf, summarise } from '../shared/summary/summarise';
import { estimateTokens } from '../shared/summary/prompt';
import { makeChannel, startFakePlatform, type FakeChannelSpec } from '../test/fake-platform';
import { FakeModelServer } from '../test/fake-model/server';
import { startCrawlerProcess } from '../test/crawler/support/crawler-process';
import { ensureBuilt } from '../test/support/processes';
import { Cleanup, tempDir } from './services';
import { round, runStandalone } from './support';
import type { Benchmark, BenchSection } from './types';

const VIDEOS = 40;
const CONTEXT = 8192;
const CRAWL_CHANNELS = 4;
const CRAWL_VIDEOS = 12;

/** A transcript of about `minutes` minutes, a paragraph every 20 s. */
const transcript = (minutes: number, seed: number) =>
  Array.from({ length: minutes * 3 }, (_, i) => ({ startMs: i * 20_000 + (seed % 7) * 100, text: `Paragraph ${i} of talk ${seed}: ${'some spoken words here '.repeat(6).trim()}.` }));

async function promptFigures(cleanup: Cleanup): Promise<{ callsPerVideo: number; promptPerTranscript: number }> {
  const model = new FakeModelServer();
  await model.start();
  cleanup.add('fake model', () => model.stop());
  const ask = askEndpoint({ url: model.url, apiKey: null, model: 'bench', timeoutMs: 10_000 });
  let calls = 0;
  let transcriptTokens = 0;
  let promptTokens = 0;
  for (let i = 0; i < VIDEOS; i++) {
    // 5 to 20 minutes: within an 8k context.
    const ps = transcript(5 + (i % 16), i);
    const before = model.requests.length;
    const out = await summarise(ask, { title: `Talk ${i}`, chapters: [], paragraphs: ps, languageName: 'English' }, spansOf(ps, null), CONTEXT);
    calls += out.calls;
    transcriptTokens += ps.reduce((n, p) => n + estimateTokens(p.text), 0);
    for (const r of model.requests.slice(before)) promptTokens += (r.body.messages ?? []).reduce((n, m) => n + estimateTokens(m.content), 0);
  }
  return { callsPerVideo: calls / VIDEOS, promptPerTranscript: promptTokens / transcriptTokens };
}

/** Milliseconds a fresh compiled crawler takes to store every video of the channels. */
async function crawlMs(cleanup: Cleanup, name: string, channels: FakeChannelSpec[], env: Record<string, string>): Promise<number> {
  const fake = await startFakePlatform({ channels });
  cleanup.add(`fake platform ${name}`, () => fake.close());
  const dir = tempDir(cleanup, `summaries-${name}`);
  const url = `sqlite:${path.join(dir, 'feeds.db')}`;
  const store = await openStore(url, { logger: silentLogger() });
  cleanup.add(`store ${name}`, () => store.close());
  const crawler = startCrawlerProcess(dir, { DATABASE_URL: url, PLATFORM_BASE_URL: fake.url, ...env });
  cleanup.add(`crawler ${name}`, async () => void (await crawler.kill('SIGKILL')));
  for (let i = 0; i < 300 && !crawler.logs.some((l) => l.msg === 'crawler started'); i++) await new Promise((r) => setTimeout(r, 100));
  const ids = channels.flatMap((c) => c.videos.map((v) => v.videoId));
  const started = Date.now();
  for (const c of channels) await store.registerChannel({ channelId: c.channelId, wanted: CRAWL_VIDEOS }, new Date());
  for (;;) {
    if (new Set((await store.getTranscripts(ids)).map((t) => t.videoId)).size === ids.length) break;
    if (Date.now() - started > 180_000) throw new Error(`${name}: not every transcript stored in 180 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const took = Date.now() - started;
  await crawler.kill('SIGTERM');
  return took;
}

const summariesBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const { callsPerVideo, promptPerTranscript } = await promptFigures(cleanup);
    const channels = (seed: number) => Array.from({ length: CRAWL_CHANNELS }, (_, i) => makeChannel({ handle: `benchsum${seed}${i}`, count: CRAWL_VIDEOS, seed: seed * 10 + i, captionsMix: { manual: 1 } }));
    const off = await crawlMs(cleanup, 'off', channels(81), {});
    const model = new FakeModelServer();
    await model.start();
    cleanup.add('fake model (2 s)', () => model.stop());
    model.mode = { kind: 'slow', ms: 2000 };
    const on = await crawlMs(cleanup, 'on', channels(82), { SUMMARY_API_URL: model.url, SUMMARY_MODEL: 'bench' });
    const throughputRatio = off / on;
    return {
      title: 'Summaries (fake OpenAI-compatible model on loopback)',
      rows: [
        { metric: 'model calls per video (transcripts within the context)', readme: 'summary calls per video', value: round(callsPerVideo, 2), unit: 'calls', baseline: { label: 'one call per video', value: 1 }, ratio: round(callsPerVideo, 2), target: '1.0', met: callsPerVideo === 1 },
        { metric: 'prompt tokens per transcript token', readme: 'summary prompt tokens / transcript tokens', value: round(promptPerTranscript, 3), unit: 'ratio', baseline: { label: 'the transcript\'s own tokens', value: 1 }, ratio: round(promptPerTranscript, 3), target: '<= 1.3', met: promptPerTranscript <= 1.3 },
        {
          metric: `crawl throughput with the summary queue on (model answering in 2 s) vs off, ${CRAWL_CHANNELS * CRAWL_VIDEOS} videos`, readme: 'crawl throughput, summaries on / off',
          value: round(throughputRatio, 3), unit: 'x', baseline: { label: `summaries off: ${off} ms`, value: 1 }, ratio: round(throughputRatio, 3), target: '>= 0.95x', met: throughputRatio >= 0.95,
        },
      ],
      notes: [`summaries on: ${on} ms for the same crawl; ${model.requests.length} model requests made meanwhile`],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default summariesBenchmark;
if (require.main === module) runStandalone(summariesBenchmark);
