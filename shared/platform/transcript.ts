// One video's transcript (platform.md §3): player answers from the configured clients in order until
// one lists a caption track we may fetch, then that track's plain timed text, parsed and rendered.
// Two requests per video when the first client serves; a refusal anywhere is thrown, never turned
// into an empty transcript.

import type { Logger } from '../logger';
import { classifyTimedText } from './classify';
import { ENDPOINTS, readText, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import type { InnertubeClient } from './innertube';
import { buildTranscript } from '../transcript/build';
import { asString, dig } from './page-data';
import { fetchPlayer } from './player';
import { parseTimedText } from './timedtext';
import { captionTracks, chooseTrack, plainTimedTextUrl, type CaptionTrack } from './tracks';
import { PlatformError, type Transcript } from './types';
import { watchPath } from './watch-page';

export interface TranscriptOptions {
  languages: readonly string[];
  clients: readonly InnertubeClient[];
  log: Logger;
}

export async function fetchTranscript(http: PlatformHttp, videoId: string, opts: TranscriptOptions): Promise<Transcript> {
  let lastMiss: PlatformError | null = null;
  for (const client of opts.clients) {
    const { json, verdict } = await fetchPlayer(http, videoId, client);
    if (verdict.outcome === 'no_captions') {
      lastMiss = new PlatformError('no_captions', verdict.reason);
      opts.log.debug({ videoId, client: client.name, reason: verdict.reason }, 'no captions from this client; trying the next');
      continue;
    }
    if (verdict.outcome !== 'ok') throw new PlatformError(verdict.outcome, verdict.reason);
    const tracks = captionTracks(json);
    const track = chooseTrack(tracks, opts.languages);
    if (!track) {
      const reason = tracks.length > 0
        ? 'every caption URL needs a proof-of-origin token (exp=xpe)'
        : 'the player lists no caption tracks';
      lastMiss = new PlatformError('no_captions', reason);
      opts.log.debug({ videoId, client: client.name, reason }, 'no usable caption track from this client; trying the next');
      continue;
    }
    return fetchTrack(http, videoId, track, json);
  }
  throw lastMiss ?? new PlatformError('no_captions', 'no player client configured');
}

async function fetchTrack(http: PlatformHttp, videoId: string, track: CaptionTrack, player: unknown): Promise<Transcript> {
  const a = await http.send({
    method: 'GET', target: plainTimedTextUrl(track.baseUrl), kind: 'xhr', referer: watchPath(videoId), what: 'timed text',
  });
  const body = valueOf(readText({ ...a, verdict: classifyTimedText(a) }, ENDPOINTS.timedText), ENDPOINTS.timedText);
  const { cues } = parseTimedText(body);
  const spoken = cues.filter((c) => c.text !== '');
  if (spoken.length === 0) throw new PlatformError('no_captions', `the ${track.languageCode} caption track is empty`);
  // The description and length come with the player answer already (docs/crawler.md §3): chapters
  // cost no request.
  const { html } = buildTranscript(spoken, {
    videoId, language: track.languageCode, kind: track.kind,
    description: asString(dig(player, 'videoDetails', 'shortDescription')),
    durationSeconds: secondsOf(dig(player, 'videoDetails', 'lengthSeconds')),
  });
  return { html, language: track.languageCode, kind: track.kind, cueCount: spoken.length };
}

/** `lengthSeconds` is a decimal string in player answers. */
function secondsOf(v: unknown): number | null {
  const s = asString(v);
  return s !== null && /^\d{1,7}$/.test(s) ? Number(s) : null;
}
