// One timed-text request (docs/crawler.md §3 step 4): the plain XML at a caption URL, judged, parsed
// to the cues that carry text. An empty 200 is the platform's refusal, thrown; so is a stall past
// PLATFORM_TIMED_TEXT_TIMEOUT_MS (the refusal's 2026 form), which is `blocked` after a few seconds
// once instead of a full wait per video. A track with no spoken cue is "no captions". Token-bound
// caption URLs (exp=xpe/xpv) never get here: tracks.ts leaves them out before any request.

import { classifyTimedText } from './classify';
import { ENDPOINTS, readText, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { spokenCues, UnreadableTimedTextError, type Cue } from '../transcript/timedtext';
import { PlatformError } from './types';
import { watchPath } from '../video-links';

export async function fetchSpokenCues(http: PlatformHttp, videoId: string, target: string, language: string): Promise<Cue[]> {
  const a = await http.send({ method: 'GET', target, kind: 'xhr', referer: watchPath(videoId), what: 'timed text', stallAfterMs: http.timedTextTimeoutMs });
  const body = valueOf(readText({ ...a, verdict: classifyTimedText(a) }, ENDPOINTS.timedText), ENDPOINTS.timedText);
  const spoken = spokenCuesOf(body);
  if (spoken.length === 0) throw new PlatformError('no_captions', `the ${language} caption track is empty`);
  return spoken;
}

/**
 * The spoken cues of a timed-text answer. A body in no known format is a garbled answer of the
 * platform (a truncated or substituted page), worth another try later: `transient`.
 */
export function spokenCuesOf(body: string): Cue[] {
  try {
    return spokenCues(body);
  } catch (err) {
    if (err instanceof UnreadableTimedTextError) throw new PlatformError('transient', err.message, { cause: err });
    throw err;
  }
}
