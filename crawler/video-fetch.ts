// One video's platform work: its transcript, then its publish date when neither the listing nor
// the store knows it and the answer would be shown, turned into the record to store. A bad video
// never stops the batch: every failure becomes a recorded outcome, except the two that end the run
// (repeated blocks, a stop).

import type { Logger } from '../shared/logger';
import { messageOf } from '../shared/error-text';
import { AllClientsRefusedError, PlatformError, TokenRequiredError, type ListedVideo, type PlatformClient } from '../shared/platform/types';
import type { Transcript } from '../shared/transcript/types';
import { watchPath } from '../shared/video-links';
import { isUnknownPublishedAt, type TranscriptRecord, type VideoRecord } from '../shared/store/types';
import { RequestBlockedError, type RequestContext } from './blocked-path';
import { RunBlockedError, RunStoppedError } from './run-ending';
import { videoRecordFor, wouldBeShown, type FetchResult } from './video-outcome';

/** Makes one platform request with pacing and the blocked path around it. */
export type PlatformCall = <T>(ctx: RequestContext, request: () => Promise<T>) => Promise<T>;

export interface VideoFetchDeps {
  readonly platform: PlatformClient;
  readonly call: PlatformCall;
  readonly logger: Logger;
  readonly now: () => Date;
  /**
   * The video's transcript through the platform's own web player in a real browser (the browser
   * fallback), for a video every app client refuses; null when it got none. Left out: no browser.
   */
  readonly browserTranscript?: (videoId: string) => Promise<Transcript | null>;
  /**
   * The languages readers asked for on this channel: each is fetched once per video
   * from the same player answer as the main transcript. Left out: the main transcript only.
   */
  readonly languages?: readonly string[];
}

type VideoContext = RequestContext & { readonly videoId: string };

const endsRun = (err: unknown): boolean => err instanceof RunBlockedError || err instanceof RunStoppedError;

/** What one attempt stores: the video's record, and its transcripts per language when it got some. */
export interface FetchedVideo {
  record: VideoRecord;
  transcripts: TranscriptRecord[];
}

/** The record to store for this attempt: every video gets one, even one whose date stays unknown. */
export async function fetchVideo(
  deps: VideoFetchDeps,
  channelId: string,
  listed: ListedVideo,
  previous: VideoRecord | undefined,
): Promise<FetchedVideo> {
  const { videoId } = listed;
  const ctx: VideoContext = { channelId, videoId, path: watchPath(videoId) };

  let publishedAt = listed.publishedAt ?? knownPublishedAt(previous);
  const result = await transcriptResult(deps, ctx);
  // The date call is made only after the transcript, and only when the answer would be shown: the
  // player alone says a video is gone, and a gone video has no date to give.
  if (publishedAt === null && wouldBeShown(result)) publishedAt = await lookUpPublishedAt(deps, ctx);
  const record = videoRecordFor({ videoId, channelId: listed.channelId ?? channelId, title: listed.title, publishedAt, short: listed.short === true }, result, previous, deps.now());
  // A ready video fetched again (for a newly asked language) is never made worse by a failed attempt.
  if (previous?.state === 'ready' && record.state !== 'ready') {
    deps.logger.info({ channelId, videoId, outcome: record.state }, 'fetching a ready video again failed; its stored transcript stays');
    return { record: previous, transcripts: [] };
  }
  if (result.kind === 'unexpected' && record.nextAttemptAt === null) {
    deps.logger.error({ channelId, videoId, attempts: record.attempts }, `gave up the video after ${record.attempts} attempts that ended in an unexpected error; it stays failed until the bug is fixed`);
  }
  const transcripts = record.state === 'ready' && result.kind === 'transcript' ? transcriptRecords(videoId, result.transcript, record.fetchedAt) : [];
  deps.logger.debug({ channelId, videoId, outcome: record.state, attempts: record.attempts, languages: transcripts.map((t) => t.language) }, 'video fetched');
  return { record, transcripts };
}

/** The main transcript's paragraphs and every other language fetched with it, stored per language. */
function transcriptRecords(videoId: string, t: Transcript, fetchedAt: Date): TranscriptRecord[] {
  const main: TranscriptRecord = { videoId, language: t.language, kind: t.kind, paragraphs: t.paragraphs, fetchedAt };
  return [main, ...(t.others ?? []).map((o) => ({ videoId, language: o.language, kind: o.kind, paragraphs: o.paragraphs, fetchedAt }))];
}

/** A date stored earlier, unless it is the unknown-date sentinel. */
function knownPublishedAt(previous: VideoRecord | undefined): Date | null {
  return previous === undefined || isUnknownPublishedAt(previous.publishedAt) ? null : previous.publishedAt;
}

/** The transcript, or the failure to record; only the run-ending errors are thrown. */
async function transcriptResult(deps: VideoFetchDeps, ctx: VideoContext): Promise<FetchResult> {
  const { channelId, videoId } = ctx;
  try {
    const transcript = await deps.call(ctx, () => deps.platform.fetchTranscript(videoId, deps.languages ?? []));
    return transcript.paragraphs.length === 0
      ? { kind: 'failure', outcome: 'no_captions', reason: 'empty transcript' }
      : { kind: 'transcript', transcript };
  } catch (err) {
    if (endsRun(err)) throw err;
    if (err instanceof RequestBlockedError) {
      // Every app client still refused after the blocked path: the web player in a real browser
      // holds a token they lack (docs/crawler.md §4).
      if (err.cause instanceof AllClientsRefusedError) {
        const viaBrowser = await browserTranscript(deps, ctx);
        if (viaBrowser !== null) return { kind: 'transcript', transcript: viaBrowser };
      }
      // Recorded like a transient failure: retried with backoff, so a video the platform keeps
      // refusing costs little instead of being fought over every run.
      return { kind: 'failure', outcome: 'transient', reason: `blocked: ${err.reason}` };
    }
    // Captions exist but every client offered only token-bound URLs: the web player in a real
    // browser holds the token they lack (docs/crawler.md §3). Without it, recorded as no captions.
    if (err instanceof TokenRequiredError) {
      const viaBrowser = await browserTranscript(deps, ctx);
      if (viaBrowser !== null) return { kind: 'transcript', transcript: viaBrowser };
    }
    if (err instanceof PlatformError) {
      return { kind: 'failure', outcome: err.outcome === 'blocked' ? 'transient' : err.outcome, reason: err.reason, signal: err.signal };
    }
    // Not an answer of the platform (those are all PlatformErrors): a bug, logged with its stack.
    deps.logger.error({ channelId, videoId, err }, 'unexpected error fetching a transcript');
    return { kind: 'unexpected', reason: messageOf(err).slice(0, 300) };
  }
}

/**
 * The browser's transcript, paced and budgeted like any platform call; its success counts as the
 * platform serving us (the blocks in a row start again), its failure is not another block.
 */
async function browserTranscript(deps: VideoFetchDeps, ctx: VideoContext): Promise<Transcript | null> {
  const viaBrowser = deps.browserTranscript;
  if (viaBrowser === undefined) return null;
  const { channelId, videoId } = ctx;
  try {
    return await deps.call(ctx, async () => {
      const transcript = await viaBrowser(videoId);
      if (transcript === null || transcript.paragraphs.length === 0) throw new PlatformError('transient', 'the browser got no captions either');
      deps.logger.info({ channelId, videoId }, 'every app client refused; the transcript came through the browser');
      return transcript;
    });
  } catch (err) {
    if (endsRun(err)) throw err;
    if (!(err instanceof PlatformError)) deps.logger.error({ channelId, videoId, err }, 'unexpected error fetching a transcript through the browser');
    else deps.logger.info({ channelId, videoId, err }, 'every app client refused and the browser got no transcript');
    return null;
  }
}

/** The date call's date (docs/crawler.md §2); null when it has none or the lookup failed (the video is then retried). */
async function lookUpPublishedAt(deps: VideoFetchDeps, ctx: VideoContext): Promise<Date | null> {
  const { channelId, videoId } = ctx;
  try {
    const date = await deps.call(ctx, () => deps.platform.fetchPublishedAt(videoId));
    if (date === null) deps.logger.info({ channelId, videoId }, 'publish date unknown; recorded for a retry with backoff');
    return date;
  } catch (err) {
    if (endsRun(err)) throw err;
    if (!(err instanceof PlatformError)) deps.logger.error({ channelId, videoId, err }, 'unexpected error looking up a publish date; recorded for a retry with backoff');
    else deps.logger.warning({ channelId, videoId, err }, 'publish date lookup failed; recorded for a retry with backoff');
    return null;
  }
}
