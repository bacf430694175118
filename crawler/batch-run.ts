// One batch: its videos are fetched one after another (one platform request at a time), and
// whatever completed is written to the store with one upsertVideos call the moment the batch
// ends (one transaction; on a standalone MongoDB server, ordered writes whose last moves the feed
// version), so a feed request between two batches already sees this one, all of it at once. A run that must end (repeated blocks,
// a stop) still stores the batch's finished videos.

import type { ListedVideo } from '../shared/platform/types';
import type { Store, TranscriptRecord, VideoRecord } from '../shared/store/types';
import { RunBlockedError, RunStoppedError } from './run-ending';
import { crawlerMetrics } from './metrics';
import { fetchVideo, type VideoFetchDeps } from './video-fetch';

export interface BatchResult {
  stored: number;
  skipped: number;
  /** Set when the run must end after this batch. */
  ending: RunBlockedError | RunStoppedError | null;
}

export async function runBatch(
  deps: VideoFetchDeps & { readonly store: Store; readonly signal: AbortSignal },
  channelId: string,
  videos: readonly ListedVideo[],
): Promise<BatchResult> {
  const previous = new Map((await deps.store.getVideos(videos.map((v) => v.videoId))).map((v) => [v.videoId, v]));
  const records: VideoRecord[] = [];
  const transcripts: TranscriptRecord[] = [];
  let ending: RunBlockedError | RunStoppedError | null = null;

  for (const listed of videos) {
    if (deps.signal.aborted) break;
    // The two run-ending errors end the loop (what finished is still stored below); anything else
    // skips only this video.
    try {
      const fetched = await fetchVideo(deps, channelId, listed, previous.get(listed.videoId));
      records.push(fetched.record);
      transcripts.push(...fetched.transcripts);
    } catch (err) {
      if (err instanceof RunBlockedError || err instanceof RunStoppedError) {
        ending = err;
        break;
      }
      deps.logger.error({ channelId, videoId: listed.videoId, err }, 'video skipped after an unexpected error');
    }
  }

  if (records.length > 0) {
    await deps.store.upsertVideos(records, transcripts);
    crawlerMetrics.stored(records.map((r) => r.state));
  }
  return { stored: records.length, skipped: videos.length - records.length, ending };
}
