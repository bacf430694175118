// One video's transcript (docs/crawler.md §3): the configured player clients are asked in order and
// their answers judged together, as yt-dlp does. A client whose answer is about another video,
// whose caption URLs all need a token (exp=xpe/xpv), that cannot play the video (made-for-kids
// videos fail on some clients) or that has no captions is passed over for the next. The IP counts as
// blocked only when every client asked gave a block signal; after a strong one (bot check, captcha,
// "try again later", HTTP 429) only one more client is asked, so a flagged session is not hammered.
// A video is unavailable only when every client asked said so. Two requests per video when the
// first client serves (plus the amortised visitor_id call of its session).

import type { Logger } from '../logger';
import type { ClientIdentity } from '../config/client-identities';
import type { PlatformHttp } from './http-client';
import { transcriptOf } from '../transcript/build';
import { asString, dig } from './page-data';
import { fetchPlayer } from './player';
import { fetchOtherLanguages } from './other-languages';
import { fetchSpokenCues } from './timed-text-fetch';
import { captionTracks, chooseTrack, plainTimedTextUrl, type CaptionTrack } from './tracks';
import { AllClientsRefusedError, PlatformError, TokenRequiredError, type BlockKind, type ClientAnswer, type PlatformSignal } from './types';
import type { Transcript, VideoDetails } from '../transcript/types';
import type { VisitorSessions } from './visitor';

export interface TranscriptOptions {
  languages: readonly string[];
  clients: readonly ClientIdentity[];
  visitors: VisitorSessions;
  log: Logger;
  /** The reader's languages besides the main one: fetched from the same player answer (no new player call). */
  otherLanguages?: readonly string[];
}

/** How one client's attempt ended, when it did not give a transcript. */
type Miss = 'blocked' | 'strong_block' | 'no_captions' | 'token_only' | 'unavailable' | 'transient';

export async function fetchTranscript(http: PlatformHttp, videoId: string, opts: TranscriptOptions): Promise<Transcript> {
  const misses: (ClientAnswer & { miss: Miss })[] = [];
  let strongSeen = false;
  for (const client of opts.clients) {
    const step = await askClient(http, videoId, client, opts);
    if ('track' in step) return fetchTrack(http, videoId, step.track, step.player, opts);
    misses.push({ client: client.key, ...step });
    opts.log.debug({ videoId, client: client.key, miss: step.miss, reason: step.reason }, 'player client passed over; asking the next');
    // A flagged session is retired; a poisoned answer is the client's, not the session's.
    if (step.miss === 'strong_block') opts.visitors.renew(client);
    // One more client after a strong block signal, then the blocked path.
    if (strongSeen) break;
    if (step.miss === 'strong_block') strongSeen = true;
  }
  throw judge(videoId, misses);
}

/** Every client's miss together: blocked only if all were blocked; unavailable only if all said so. */
function judge(videoId: string, misses: readonly (ClientAnswer & { miss: Miss })[]): PlatformError {
  if (misses.length === 0) return new PlatformError('no_captions', 'no player client configured');
  const first = (...kinds: Miss[]): (ClientAnswer & { miss: Miss }) | undefined => misses.find((m) => kinds.includes(m.miss));
  const blocked = misses.filter((m) => m.miss === 'blocked' || m.miss === 'strong_block');
  if (blocked.length === misses.length) return new AllClientsRefusedError(videoId, misses.map(({ client, reason, signal, block }) => ({ client, reason, signal, block })));
  // A client that lists token-bound tracks shows the video has captions, whatever another client
  // listed: only a token is missing, and the browser's web player has one.
  const tokenOnly = first('token_only');
  const noCaptions = first('no_captions');
  if (noCaptions && !tokenOnly) return new PlatformError('no_captions', noCaptions.reason, { signal: noCaptions.signal });
  const retry = first('transient', 'blocked', 'strong_block');
  if (retry) return new PlatformError('transient', `${retry.client}: ${retry.reason}`);
  if (tokenOnly) return new TokenRequiredError(videoId, `${tokenOnly.client}: ${tokenOnly.reason}`);
  return new PlatformError('unavailable', misses[0]!.reason);
}

/** One client: its session's visitorData, its player answer, and a track we may fetch. */
async function askClient(
  http: PlatformHttp,
  videoId: string,
  client: ClientIdentity,
  opts: TranscriptOptions,
): Promise<{ track: CaptionTrack; player: unknown } | { miss: Miss; reason: string; signal?: PlatformSignal | undefined; block?: BlockKind | undefined }> {
  let answer;
  try {
    const visitorData = await opts.visitors.get(client);
    answer = await fetchPlayer(http, videoId, client, { visitorData });
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.outcome === 'consent') throw err;
    if (err.outcome === 'blocked') return { miss: 'strong_block', reason: err.reason, signal: err.signal ?? undefined, block: err.block ?? undefined };
    if (err.outcome === 'unavailable' || err.outcome === 'not_found') return { miss: 'unavailable', reason: err.reason };
    return { miss: 'transient', reason: err.reason };
  }
  const { json, verdict } = answer;
  switch (verdict.outcome) {
    case 'ok':
      break;
    case 'blocked':
      // A poisoned answer is this client's view of one video; every other block speaks for the
      // whole IP or session.
      return { miss: verdict.signal === 'poisoned' ? 'blocked' : 'strong_block', reason: verdict.reason, signal: verdict.signal, block: verdict.block };
    case 'no_captions':
      return { miss: 'no_captions', reason: verdict.reason, signal: verdict.signal };
    case 'unavailable':
    case 'not_found':
      return { miss: 'unavailable', reason: verdict.reason };
    default:
      return { miss: 'transient', reason: verdict.reason };
  }
  const tracks = captionTracks(json);
  const track = chooseTrack(tracks, opts.languages);
  if (track) return { track, player: json };
  return tracks.length > 0
    ? { miss: 'token_only', reason: 'every caption URL needs a proof-of-origin token (exp=xpe/xpv)' }
    : { miss: 'no_captions', reason: 'the player lists no caption tracks' };
}

async function fetchTrack(http: PlatformHttp, videoId: string, track: CaptionTrack, player: unknown, opts: TranscriptOptions): Promise<Transcript> {
  const spoken = await fetchSpokenCues(http, videoId, plainTimedTextUrl(track.baseUrl), track.languageCode);
  // The description and length come with the player answer already (docs/crawler.md §3): chapters
  // cost no request.
  const details = videoDetailsOf(player);
  const { transcript, chapters } = transcriptOf(spoken, { videoId, language: track.languageCode, kind: track.kind, ...details });
  const others = opts.otherLanguages?.length
    ? await fetchOtherLanguages(http, { videoId, player, main: track, languages: opts.otherLanguages, boundariesMs: chapters.map((c) => c.startSeconds * 1000), log: opts.log })
    : [];
  return { ...transcript, details, others };
}

export function videoDetailsOf(player: unknown): VideoDetails {
  return {
    description: asString(dig(player, 'videoDetails', 'shortDescription')),
    durationSeconds: secondsOf(dig(player, 'videoDetails', 'lengthSeconds')),
    live: dig(player, 'videoDetails', 'isLiveContent') === true,
  };
}

/** `lengthSeconds` is a decimal string in player answers. */
function secondsOf(v: unknown): number | null {
  const s = asString(v);
  return s !== null && /^\d{1,7}$/.test(s) ? Number(s) : null;
}
