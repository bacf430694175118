// One video's platform work: its publish date when the listing had none, then its transcript,
// turned into the record to store. A bad video never stops the batch: every failure becomes a
// recorded outcome, except the two that end the run (repeated blocks, a stop).

import type { Logger } from '../shared/logger';
import { PlatformError, type ListedVideo, type PlatformClient } from '../shared/platform/types';
import type { VideoRecord } from '../shared/store/types';
import { RequestBlockedError, RunBlockedError, RunStoppedError, type RequestContext } from './blocked-path';
import { videoRecordFor, type FetchResult } from './video-outcome';

/** Makes one platform request with pacing and the blocked path around it. */
export type PlatformCall = <T>(ctx: RequestContext, request: () => Promise<T>) => Promise<T>;

export interface VideoFetchDeps {
  readonly platform: PlatformClient;
  readonly call: PlatformCall;
  readonly logger: Logger;
  readonly now: () => Date;
}

const endsRun = (err: unknown): boolean => err instanceof RunBlockedError || err instanceof RunStoppedError;
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The record to store, or null when nothing can be stored yet (no known publish date). */
export async function fetchVideo(
  deps: VideoFetchDeps,
  channelId: string,
  listed: ListedVideo,
  previous: VideoRecord | undefined,
): Promise<VideoRecord | null> {
  const { videoId } = listed;
  const ctx: RequestContext = { channelId, videoId, path: `/watch?v=${encodeURIComponent(videoId)}` };

  let publishedAt = listed.publishedAt ?? previous?.publishedAt ?? null;
  if (publishedAt === null) {
    try {
      publishedAt = await deps.call(ctx, () => deps.platform.fetchPublishedAt(videoId));
    } catch (err) {
      if (endsRun(err)) throw err;
      deps.logger.warning({ channelId, videoId, err: message(err) }, 'publish date lookup failed; retried next run');
      return null;
    }
    if (publishedAt === null) {
      // Never invent a date: an unstored video is listed as needing work again next run.
      deps.logger.info({ channelId, videoId }, 'publish date unknown; retried next run');
      return null;
    }
  }

  let result: FetchResult;
  try {
    const transcript = await deps.call(ctx, () => deps.platform.fetchTranscript(videoId));
    result = transcript.html.trim() === ''
      ? { kind: 'failure', outcome: 'no_captions', reason: 'empty transcript' }
      : { kind: 'transcript', transcript };
  } catch (err) {
    if (endsRun(err)) throw err;
    if (err instanceof RequestBlockedError) {
      // Recorded like a transient failure: retried with backoff, so a video the platform keeps
      // refusing costs little instead of being fought over every run.
      result = { kind: 'failure', outcome: 'transient', reason: `blocked: ${err.reason}` };
    } else if (err instanceof PlatformError) {
      result = { kind: 'failure', outcome: err.outcome === 'blocked' ? 'transient' : err.outcome, reason: err.reason };
    } else {
      deps.logger.error({ channelId, videoId, err: message(err) }, 'unexpected error fetching a transcript');
      result = { kind: 'failure', outcome: 'transient', reason: message(err).slice(0, 300) };
    }
  }
  const record = videoRecordFor({ videoId, channelId, title: listed.title, publishedAt }, result, previous, deps.now());
  deps.logger.debug({ channelId, videoId, outcome: record.state, attempts: record.attempts }, 'video fetched');
  return record;
}
