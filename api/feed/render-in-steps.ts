// A feed rendered a few entries at a time, giving the event loop back between steps, so /health and
// cached answers keep flowing while a 10 MB feed renders (a render in one piece held every other
// request for its whole length, and renders queued behind each other chained without a break).
// The bytes are the one-piece render's: the document's head is decided from every entry (RSS's
// namespace declarations), each step renders its entries with the same renderer inside that head,
// and the entries' part is cut from between the head and the tail (checked at every step; any
// surprise falls back to rendering in one piece).

import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildFeedModel, type FeedEntry, type FeedModel, type ModelInput, type SkipReason } from './state';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';

/** Entries per step: a step stays around a few milliseconds even with long transcripts. */
export const ENTRIES_PER_STEP = 4;

/** A format's renderer and where its entries sit: before `tail`, separated by `separator`. */
export interface StepShape {
  readonly render: (m: FeedModel) => string;
  readonly tail: string;
  readonly separator: string;
  /** What of the head depends on the entries, decided over all of them (RSS: Dublin Core). */
  readonly head?: (entries: readonly FeedEntry[]) => Partial<FeedModel>;
}

const validDate = (d: unknown): d is Date => d instanceof Date && !Number.isNaN(d.getTime());

export async function renderInSteps(shape: StepShape, input: ModelInput, onSkip?: (video: VideoRecord, reason: SkipReason) => void): Promise<Buffer> {
  const byVideo = new Map<string, TranscriptRecord[]>();
  for (const t of input.transcripts ?? []) byVideo.set(t.videoId, [...(byVideo.get(t.videoId) ?? []), t]);
  const steps: FeedModel[] = [];
  for (let i = 0; i === 0 || i < input.videos.length; i += ENTRIES_PER_STEP) {
    const videos = input.videos.slice(i, i + ENTRIES_PER_STEP);
    steps.push(buildFeedModel({ ...input, videos, transcripts: videos.flatMap((v) => byVideo.get(v.videoId) ?? []) }, onSkip));
    await nextTurn();
  }
  const entries = steps.flatMap((s) => s.entries);
  // As buildFeedModel decides it for the whole feed: a corrupt version falls back to the newest entry.
  const updated = validDate(input.updated) ? input.updated : (entries[0]?.published ?? new Date(0));
  const head: FeedModel = { ...steps[0]!, ...shape.head?.(entries), updated, entries: [] };
  const whole = (): Buffer => Buffer.from(shape.render({ ...head, entries }), 'utf8');
  const shell = shape.render(head);
  if (!shell.endsWith(shape.tail)) return whole();
  const prefix = shell.slice(0, shell.length - shape.tail.length);
  const parts: Buffer[] = [Buffer.from(prefix, 'utf8')];
  let first = true;
  for (const step of steps) {
    if (step.entries.length === 0) continue;
    const doc = shape.render({ ...head, entries: step.entries });
    if (!doc.startsWith(prefix) || !doc.endsWith(shape.tail)) return whole();
    if (!first && shape.separator !== '') parts.push(Buffer.from(shape.separator, 'utf8'));
    parts.push(Buffer.from(doc.slice(prefix.length, doc.length - shape.tail.length), 'utf8'));
    first = false;
    await nextTurn();
  }
  parts.push(Buffer.from(shape.tail, 'utf8'));
  return Buffer.concat(parts);
}
