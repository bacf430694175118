// One video's transcript (docs/crawler.md §3): the configured player clients are asked in order and
// their answers judged together, as yt-dlp does. A client whose answer is about another video,
// whose caption URLs all need a token (exp=xpe/xpv), that cannot play the video (made-for-kids
// videos fail on some clients) or that has no captions is passed over for the next. The IP counts as
// blocked only when every client asked gave a block signal; after a strong one (bot check, captcha,
// "try again later", HTTP 429) only one more client is asked, so a flagged session is not hammered.
// A video is unavailable only when every client asked said so. Two requests per video when the
// first client serves (plus the amortised visitor_id call of its session).
//
// Answers about the client rather than the video (a retired version's HTTP 400, the TV client's
// "page needs to be reloaded") leave that client out of the process (client-exclusions.ts) and the
// next is asked at once; they are no miss of the video's. A made-for-kids refusal brings in the
// made-for-kids fallback clients (the embedded player, then the downgraded TV client), listed or not.

import type { Logger } from '../logger';
import type { ClientIdentity } from '../config/client-identities';
import type { PlatformHttp } from './http-client';
import { transcriptOf } from '../transcript/build';
import type { ClientExclusions, LeftOutWhy } from './client-exclusions';
import { fetchEmbedFlags } from './embed-page';
import { asString, dig } from './page-data';
import { fetchPlayer } from './player';
import { fetchOtherLanguages, offeredLanguages } from './other-languages';
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
  /** Clients left out of this process after an answer about themselves; none when left out. */
  exclusions?: ClientExclusions;
  /** Asked after a made-for-kids refusal, in this order, whether listed or not (§3). */
  kidsFallback?: readonly ClientIdentity[];
}

/** How one client's attempt ended, when it did not give a transcript. */
type Miss = 'blocked' | 'strong_block' | 'no_captions' | 'token_only' | 'unavailable' | 'transient';

type Step =
  | { track: CaptionTrack; player: unknown }
  | { miss: Miss; reason: string; signal?: PlatformSignal | undefined; block?: BlockKind | undefined };

/** An answer about the client, not the video: why it is left out, or null. */
function clientLevel(signal: PlatformSignal | undefined): LeftOutWhy | null {
  return signal === 'client_retired' ? 'retired' : signal === 'client_fault' ? 'client_fault' : null;
}

export async function fetchTranscript(http: PlatformHttp, videoId: string, opts: TranscriptOptions): Promise<Transcript> {
  const misses: (ClientAnswer & { miss: Miss })[] = [];
  const queue = [...opts.clients];
  const asked = new Set<string>();
  let kidsAdded = false;
  let strongSeen = false;
  for (let i = 0; i < queue.length; i += 1) {
    const client = queue[i]!;
    if (asked.has(client.key) || (opts.exclusions !== undefined && !opts.exclusions.usable(client))) continue;
    asked.add(client.key);
    const step = await askClient(http, videoId, client, opts);
    if ('track' in step) {
      opts.exclusions?.served(client);
      return fetchTrack(http, videoId, step.track, step.player, opts);
    }
    const leftOut = clientLevel(step.signal);
    if (leftOut !== null) {
      // The client's own answer: it leaves the process, the video loses nothing by it.
      opts.visitors.renew(client);
      if (opts.exclusions) opts.exclusions.leaveOut(client, leftOut, step.reason);
      else misses.push({ client: client.key, ...step });
      opts.log.debug({ videoId, client: client.key, reason: step.reason }, 'player client answered for itself; asking the next at once');
      continue;
    }
    if (step.miss === 'transient' || step.miss === 'strong_block') opts.exclusions?.unsettled(client);
    else opts.exclusions?.served(client);
    misses.push({ client: client.key, ...step });
    opts.log.debug({ videoId, client: client.key, miss: step.miss, reason: step.reason }, 'player client passed over; asking the next');
    // Made for kids: the embedded player and the downgraded TV client play such videos (yt-dlp).
    if (step.signal === 'made_for_kids' && !kidsAdded) {
      kidsAdded = true;
      queue.splice(i + 1, 0, ...(opts.kidsFallback ?? []).filter((k) => !asked.has(k.key)));
    }
    // A flagged session is retired; a poisoned answer is the client's, not the session's.
    if (step.miss === 'strong_block') opts.visitors.renew(client);
    // One more client after a strong block signal, then the blocked path.
    if (strongSeen) break;
    if (step.miss === 'strong_block') strongSeen = true;
  }
  if (misses.length === 0 && opts.clients.length > 0) {
    // Every client is left out of this process: nothing was asked, so nothing is said about the video.
    const out = opts.exclusions?.list().map((c) => `${c.client} ${c.version}`).join(', ') ?? '';
    throw new PlatformError('transient', `every player client is left out of this process (${out}): nothing asked`, { signal: 'no_player_client' });
  }
  throw judge(videoId, misses);
}

/** Every client's miss together: blocked only if all were blocked; unavailable only if all said so. */
function judge(videoId: string, misses: readonly (ClientAnswer & { miss: Miss })[]): PlatformError {
  if (misses.length === 0) return new PlatformError('no_captions', 'no player client configured');
  const first = (...kinds: Miss[]): (ClientAnswer & { miss: Miss }) | undefined => misses.find((m) => kinds.includes(m.miss));
  const blocked = misses.filter((m) => m.miss === 'blocked' || m.miss === 'strong_block');
  if (blocked.length === misses.length) return new AllClientsRefusedError(videoId, misses.map(({ client, reason, signal, block }) => ({ client, reason, signal, block })));
  // An age check is the video's, whichever client met it: recorded, never retried as transient.
  const age = misses.find((m) => m.signal === 'age_restricted');
  if (age) return new PlatformError('unavailable', age.reason, { signal: 'age_restricted' });
  // A client that lists token-bound tracks shows the video has captions, whatever another client
  // listed: only a token is missing, and the browser's web player has one.
  const tokenOnly = first('token_only');
  const noCaptions = first('no_captions');
  if (noCaptions && !tokenOnly) return new PlatformError('no_captions', noCaptions.reason, { signal: noCaptions.signal });
  const retry = first('transient', 'blocked', 'strong_block');
  if (retry) return new PlatformError('transient', `${retry.client}: ${retry.reason}`);
  if (tokenOnly) return new TokenRequiredError(videoId, `${tokenOnly.client}: ${tokenOnly.reason}`);
  return new PlatformError('unavailable', misses[0]!.reason, { signal: misses[0]!.signal });
}

/** One client: its session's visitorData, its player answer, and a track we may fetch. */
async function askClient(http: PlatformHttp, videoId: string, client: ClientIdentity, opts: TranscriptOptions): Promise<Step> {
  let answer;
  try {
    const visitorData = await opts.visitors.get(client);
    // The embedded player is asked as the embedded web player is: after its page, with its flags.
    const encryptedHostFlags = client.name === 'WEB_EMBEDDED_PLAYER' ? await fetchEmbedFlags(http, videoId) : null;
    answer = await fetchPlayer(http, videoId, client, { visitorData, encryptedHostFlags });
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.outcome === 'consent') throw err;
    if (err.outcome === 'blocked') return { miss: 'strong_block', reason: err.reason, signal: err.signal ?? undefined, block: err.block ?? undefined };
    if (err.outcome === 'unavailable' || err.outcome === 'not_found') return { miss: 'unavailable', reason: err.reason };
    return { miss: 'transient', reason: err.reason, signal: err.signal ?? undefined };
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
      return { miss: 'unavailable', reason: verdict.reason, signal: verdict.signal };
    case 'consent':
      return { miss: 'transient', reason: verdict.reason };
    default:
      return { miss: 'transient', reason: verdict.reason, signal: verdict.signal };
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
  return { ...transcript, details, others, offered: offeredLanguages(player) };
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
