// The InnerTube player call (docs/crawler.md §3.1) for one client session, judged before anything
// reads it. The call carries the session's visitorData and a `$fields` mask that cuts the answer
// from 50–130 KB to a few KB; a masked answer that lacks the named fields is asked again unmasked.

import { classifyPlayer, type Verdict } from './classify';
import type { ClientIdentity } from '../config/client-identities';
import { ENDPOINTS, readJson, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { innertubeRequest } from './innertube';
import { dig } from './page-data';
import { watchPath } from '../video-links';

/** What the transcript needs from a player answer (NewPipe's mask, June 2026). */
export const PLAYER_FIELDS =
  'playabilityStatus,captions,videoDetails.videoId,videoDetails.title,videoDetails.lengthSeconds,videoDetails.shortDescription,videoDetails.isLiveContent';

export interface PlayerAnswer {
  json: unknown;
  /** `ok` (captions listed), or the failure `classifyPlayer` found. */
  verdict: Verdict;
}

export interface PlayerOptions {
  readonly visitorData: string | null;
  /** Ask with the `$fields` mask (default true). */
  readonly masked?: boolean;
  /** The embed page's `encryptedHostFlags`, for the embedded player (embed-page.ts). */
  readonly encryptedHostFlags?: string | null;
}

/** Throws for answers no client could do better with (HTTP failures); returns the player's own verdict. */
export async function fetchPlayer(http: PlatformHttp, videoId: string, identity: ClientIdentity, opts: PlayerOptions): Promise<PlayerAnswer> {
  const what = `player (${identity.key})`;
  const ask = async (fields: string | undefined): Promise<unknown> => {
    const a = await innertubeRequest(http, {
      endpoint: 'player', identity, what, referer: watchPath(videoId), visitorData: opts.visitorData, fields,
      body: {
        videoId, contentCheckOk: true, racyCheckOk: true,
        ...(opts.encryptedHostFlags ? { playbackContext: { contentPlaybackContext: { encryptedHostFlags: opts.encryptedHostFlags } } } : {}),
      },
    });
    const rule = { ...ENDPOINTS.player, what };
    return valueOf(readJson(a, rule), rule);
  };
  let json = await ask(opts.masked === false ? undefined : PLAYER_FIELDS);
  // Every player answer has a playabilityStatus; a masked one without it ignored the mask badly.
  if (opts.masked !== false && dig(json, 'playabilityStatus') === undefined) json = await ask(undefined);
  return { json, verdict: classifyPlayer(json, videoId) };
}
