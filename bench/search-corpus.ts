// The search benchmarks' corpus: videos with 10 KB transcripts of words drawn from a
// Zipf-distributed vocabulary (as speech is: a few words everywhere, most rare), made of paragraphs
// drawn from a pool so the corpus costs little to make. bench/search.ts and bench/search-flood.ts
// write it into real SQLite stores.

import type { TranscriptRecord, VideoRecord } from '../shared/store';
import { videoRecord } from '../test/support/factories';
import { makeRng, type Rng } from '../test/support/random';

export const VIDEOS_PER_CHANNEL = 100;
const TRANSCRIPT_BYTES = 10 * 1024;
const PARAGRAPH_WORDS = 50;
export const VOCABULARY = 30_000;
export const BATCH = 500;
/** Distinct paragraphs the videos are made of. */
const PARAGRAPH_POOL = 16_384;
const T0 = Date.UTC(2025, 0, 1);

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'si', 'po', 've', 'da', 'gü', 'şe', 'ı', 'ço', 'an', 'er', 'ul', 'is', 'ob', 'ze'];

/** Word r of the vocabulary (rank 0 = the most common): distinct by construction. */
function wordOf(rank: number): string {
  let n = rank + 1;
  let w = '';
  while (n > 0) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return w;
}

export const WORDS = Array.from({ length: VOCABULARY }, (_, r) => wordOf(r));

/** Zipf (s = 1) over the vocabulary by inverse CDF. */
function zipf(rng: Rng): () => string {
  const cdf = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let r = 0; r < VOCABULARY; r++) cdf[r] = sum += 1 / (r + 1);
  return () => {
    const x = rng() * sum;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return WORDS[lo]!;
  };
}

export interface Corpus {
  channels: number;
  /** UTF-8 bytes of every stored title and paragraph: the text the index covers. */
  textBytes: number;
  /** A few paragraphs as written, for phrase queries that occur. */
  samples: string[][];
}

export const channelIdOf = (c: number): string => `UC${String(c).padStart(22, '0')}`;

export function* corpusBatches(total: number, seed: string, corpus: Corpus): Generator<{ videos: VideoRecord[]; transcripts: TranscriptRecord[] }> {
  const rng = makeRng(seed);
  const word = zipf(rng);
  const pool = Array.from({ length: PARAGRAPH_POOL }, () => Array.from({ length: PARAGRAPH_WORDS }, word));
  const texts = pool.map((words) => `${words.join(' ')}.`);
  const bytes = texts.map((t) => Buffer.byteLength(t));
  for (let i = 0; i < 200; i++) corpus.samples.push(pool[i]!);
  const channels = Math.max(1, Math.floor(total / VIDEOS_PER_CHANNEL));
  corpus.channels = channels;
  let videos: VideoRecord[] = [];
  let transcripts: TranscriptRecord[] = [];
  for (let n = 0; n < total; n++) {
    const videoId = `s${n.toString(36).padStart(10, '0')}`;
    const title = `${word()} ${word()} ${word()} ${word()}`;
    const paragraphs: { startMs: number; text: string }[] = [];
    let size = 0;
    while (size < TRANSCRIPT_BYTES) {
      const k = Math.floor(rng() * PARAGRAPH_POOL);
      paragraphs.push({ startMs: paragraphs.length * 20_000, text: texts[k]! });
      size += bytes[k]!;
    }
    corpus.textBytes += size + Buffer.byteLength(title);
    const published = new Date(T0 + n * 600_000);
    videos.push(videoRecord({ videoId, channelId: channelIdOf(n % channels), title, publishedAt: published, fetchedAt: published, language: 'en', kind: 'automatic', description: null }));
    transcripts.push({ videoId, language: 'en', kind: 'automatic', paragraphs, fetchedAt: published });
    if (videos.length === BATCH) {
      yield { videos, transcripts };
      videos = [];
      transcripts = [];
    }
  }
  if (videos.length > 0) yield { videos, transcripts };
}
