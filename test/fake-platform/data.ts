// Deterministic channels of any size: valid ids, plausible titles, a mix of caption situations,
// upload dates a few days apart going back from a fixed moment, and realistic transcripts.

import type { CaptionsKind, FakeChannelSpec, FakeVideoSpec } from './types';
import { asrStyle, generateCues, TOPICS } from './cues';
import { between, makeRng, pick, randomId, type Rng } from '../support/random';

export const CHANNEL_ID_RE = /^UC[A-Za-z0-9_-]{22}$/;
export const VIDEO_ID_RE = /^[A-Za-z0-9_-]{11}$/;
export const HANDLE_RE = /^[A-Za-z0-9_.-]{1,30}$/;

/**
 * Generated channels end at this moment (not "now"), so the same options give the same channel on
 * every run; uploads added at run time (`addUpload`) are dated now and come first.
 */
export const DEFAULT_NEWEST_AT = new Date('2026-11-01T16:00:00Z');

/** Share of each caption situation; the default is roughly what a talking-head channel shows. */
export type CaptionsMix = Partial<Record<CaptionsKind, number>>;

export const DEFAULT_CAPTIONS_MIX: CaptionsMix = {
  manual: 0.45,
  automatic: 0.3,
  both: 0.1,
  none: 0.05,
  foreign: 0.04,
  unavailable: 0.03,
  age_restricted: 0.03,
};

export interface MakeChannelOptions {
  handle: string;
  channelId?: string;
  title?: string;
  count: number;
  seed?: number | string;
  captionsMix?: CaptionsMix;
  /** Share of Shorts among the uploads (default 0). */
  shortsRatio?: number;
  /** Date of the newest generated upload (default DEFAULT_NEWEST_AT, never in the future). */
  newestAt?: Date;
}

const TITLES = [
  'Everything About {Topic} in 10 Minutes',
  '{Topic} & Why It Matters',
  "Q&A: You Asked, I Answered ({topic})",
  "Don't Start {Topic} Before Watching This",
  "I Tried {Topic} for 30 Days — Here's What Happened",
  'Is {Topic} < {Other}? A Fair Comparison',
  'The "Real" Cost of {Topic}',
  '{Topic}: Beginner Mistakes',
] as const;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function makeTitle(rng: Rng): string {
  const topic = pick(rng, TOPICS);
  const other = pick(rng, TOPICS.filter((t) => t !== topic));
  return pick(rng, TITLES)
    .replace('{Topic}', capitalise(topic))
    .replace('{topic}', topic)
    .replace('{Other}', capitalise(other));
}

function pickKind(rng: Rng, mix: CaptionsMix): CaptionsKind {
  const entries = Object.entries(mix).filter(([, w]) => (w ?? 0) > 0) as [CaptionsKind, number][];
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let x = rng() * total;
  for (const [kind, w] of entries) {
    x -= w;
    if (x < 0) return kind;
  }
  return entries[entries.length - 1]?.[0] ?? 'manual';
}

/** One generated video; `cues` match its caption kind (asr style for automatic-only tracks). */
export function makeVideo(rng: Rng, publishedAt: Date, captions: CaptionsKind, short = false): FakeVideoSpec {
  const videoId = randomId(rng, 11);
  const video: FakeVideoSpec = { videoId, title: makeTitle(rng), publishedAt, captions };
  if (short) video.short = true;
  if (captions === 'foreign') video.language = 'de';
  const cues = generateCues(videoId, video.language);
  video.cues = captions === 'automatic' ? asrStyle(cues) : cues;
  return video;
}

export function makeChannel(opts: MakeChannelOptions): FakeChannelSpec {
  const seed = opts.seed ?? opts.handle;
  const rng = makeRng(`channel:${seed}`);
  const channelId = opts.channelId ?? `UC${randomId(rng, 22)}`;
  const mix = opts.captionsMix ?? DEFAULT_CAPTIONS_MIX;
  const newest = Math.min((opts.newestAt ?? DEFAULT_NEWEST_AT).getTime(), Date.now() - 3_600_000);
  const videos: FakeVideoSpec[] = [];
  let at = newest;
  for (let i = 0; i < opts.count; i++) {
    const short = rng() < (opts.shortsRatio ?? 0);
    videos.push(makeVideo(rng, new Date(Math.floor(at / 1000) * 1000), pickKind(rng, mix), short));
    at -= between(rng, 0.5, 6) * 86_400_000;
  }
  return { channelId, handle: opts.handle, title: opts.title ?? capitalise(opts.handle), videos };
}

/** A new upload for a running fake: dated now, manual captions unless said otherwise. */
export function makeUpload(seed: string, partial: Partial<FakeVideoSpec> = {}): FakeVideoSpec {
  const rng = makeRng(`upload:${seed}`);
  const base = makeVideo(rng, new Date(), partial.captions ?? 'manual', partial.short ?? false);
  const video = { ...base, ...partial };
  // Cues generated in the default language do not fit an explicitly different one: regenerate.
  if (!partial.cues && partial.language) {
    const cues = generateCues(video.videoId, video.language);
    video.cues = video.captions === 'automatic' ? asrStyle(cues) : cues;
  }
  return video;
}

/** Throws with a clear message when a spec would make the fake answer something impossible. */
export function validateChannel(spec: FakeChannelSpec): void {
  if (!CHANNEL_ID_RE.test(spec.channelId)) throw new Error(`fake platform: bad channel id ${spec.channelId}`);
  if (!HANDLE_RE.test(spec.handle)) throw new Error(`fake platform: bad handle ${spec.handle}`);
  for (const video of spec.videos) validateVideo(video);
}

export function validateVideo(video: FakeVideoSpec): void {
  if (!VIDEO_ID_RE.test(video.videoId)) throw new Error(`fake platform: bad video id ${video.videoId}`);
  if (!(video.publishedAt instanceof Date) || Number.isNaN(video.publishedAt.getTime())) {
    throw new Error(`fake platform: bad publishedAt for ${video.videoId}`);
  }
}
