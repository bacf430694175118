// What the benchmarks share: the Markdown table `npm run bench` prints, the way a benchmark runs on
// its own (`npx tsx bench/<name>.ts`), small statistics, and the synthetic stored videos that the
// store and end-to-end benchmarks load (so "1k vs 100k stored videos" means the same data in both).

import type { TranscriptRecord, VideoRecord, VideoWriteStore } from '../shared/store/types';
import { transcriptRecord, videoRecord } from '../test/support/factories';
import type { Benchmark, BenchRow, BenchSection } from './types';

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The value below which p percent of `xs` lie (nearest rank). */
export const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Milliseconds since a `process.hrtime.bigint()` reading. */
export const msSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

export const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** A figure as the tables print it: fewer decimals the larger it is. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function row(r: BenchRow): string {
  const baseline = r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.label})` : '';
  const ratio = r.ratio === undefined ? '' : `${fmt(r.ratio)}x`;
  const verdict = r.met === undefined ? '' : r.met ? 'met' : '**missed**';
  return `| ${r.metric} | ${fmt(r.value)} ${r.unit} | ${baseline} | ${ratio} | ${r.target ?? ''} | ${verdict} |`;
}

export function toMarkdown(sections: readonly BenchSection[]): string {
  const out: string[] = [];
  for (const s of sections) {
    out.push(`#### ${s.title}`, '', '| metric | value | baseline (same run) | ratio | target | |', '|---|---|---|---|---|---|');
    for (const r of s.rows) out.push(row(r));
    for (const n of s.notes ?? []) out.push('', `- ${n}`);
    out.push('');
  }
  return out.join('\n');
}

/** `npx tsx bench/<name>.ts`: run one benchmark and print its table (`--json` for the raw section). */
export function runStandalone(benchmark: Benchmark): void {
  benchmark()
    .then((section) => console.log(process.argv.includes('--json') ? JSON.stringify(section, null, 2) : toMarkdown([section])))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}

/** A transcript of about `bytes` bytes of text, in timed paragraphs as the crawler stores them. */
export function transcriptOf(bytes: number): TranscriptRecord['paragraphs'] {
  const text = 'lorem ipsum dolor sit amet '.repeat(8).trim();
  return Array.from({ length: Math.max(1, Math.round(bytes / text.length)) }, (_, i) => ({ startMs: i * 15_000, text }));
}

const T0 = Date.UTC(2025, 0, 1);

/**
 * Video n of a benchmark channel: mostly ready, 5% waiting for a retry and 5% given up, so feed
 * queries must skip the retries as they do in production.
 */
export function benchVideo(channelId: string, n: number): VideoRecord {
  const kind = n % 20;
  const state = kind === 0 ? 'failed' : kind === 1 ? 'no_transcript' : 'ready';
  return videoRecord({
    // 11 characters, as every platform video id (a feed skips any other): channel tail + n in base 36.
    videoId: `${channelId.slice(-5)}_${n.toString(36).padStart(5, '0')}`,
    channelId,
    title: `Video ${n} of channel ${channelId}`,
    publishedAt: new Date(T0 + n * 3_600_000),
    language: state === 'ready' ? 'en' : null,
    kind: state === 'ready' ? 'automatic' : null,
    state,
    nextAttemptAt: state === 'failed' ? new Date(T0 + 86_400_000) : null,
    lastError: state === 'failed' ? 'timeout' : null,
    fetchedAt: new Date(T0 + n * 3_600_000 + 60_000),
  });
}

/** A valid channel id for benchmark channel number `c`. */
export const benchChannelId = (c: number): string => `UC${String(c).padStart(22, '0')}`;

export const BENCH_VIDEOS_PER_CHANNEL = 100;

/**
 * Loads `totalVideos` spread over channels of 100 videos each, in batches of 500. Batches mix
 * channels, as a crawler serving many channels over months would, so a channel's rows are not
 * neighbours on disk. Returns how many channels there are.
 */
export async function loadBenchVideos(store: VideoWriteStore, totalVideos: number, transcript: TranscriptRecord['paragraphs']): Promise<number> {
  const channels = totalVideos / BENCH_VIDEOS_PER_CHANNEL;
  let batch: VideoRecord[] = [];
  const flush = async (): Promise<void> => {
    await store.upsertVideos(batch, benchTranscripts(batch, transcript));
    batch = [];
  };
  for (let n = 0; n < BENCH_VIDEOS_PER_CHANNEL; n++) {
    for (let c = 0; c < channels; c++) {
      batch.push(benchVideo(benchChannelId(c), n));
      if (batch.length === 500) await flush();
    }
  }
  if (batch.length) await flush();
  return channels;
}

/** The transcripts of the ready ones among `videos`, stored with them as the crawler does. */
export function benchTranscripts(videos: readonly VideoRecord[], paragraphs: TranscriptRecord['paragraphs']): TranscriptRecord[] {
  return videos.filter((v) => v.state === 'ready').map((v) => transcriptRecord(v, paragraphs));
}
