// The exact publish time of one video the listing did not date (docs/crawler.md §2): a WEB player
// call field-masked to the microformat, about 4 KB, where the watch page costs about 1 MB. Only the
// web clients' answers carry the microformat (the apps' do not). A masked answer without it is
// asked again unmasked, as the mask's fallback rule says; a video with no date stays undated.

import { classifyPlayer } from './classify';
import { WEB_IDENTITY } from '../config/client-identities';
import { ENDPOINTS, readJson } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { innertubeRequest } from './innertube';
import { asString, dig } from './page-data';
import { PlatformError } from './types';
import { watchPath } from '../video-links';

/** The date, the id (a poisoned answer shows), and the status (a bot check must still be seen). */
export const DATE_FIELDS = 'playabilityStatus,microformat.playerMicroformatRenderer.publishDate,videoDetails.videoId';

/** `microformat.playerMicroformatRenderer.publishDate` of a player answer, or null. */
export function publishDateOf(player: unknown): Date | null {
  const raw = asString(dig(player, 'microformat', 'playerMicroformatRenderer', 'publishDate'));
  const t = raw === null ? NaN : Date.parse(raw);
  return Number.isNaN(t) ? null : new Date(t);
}

export async function fetchPublishedAt(http: PlatformHttp, videoId: string): Promise<Date | null> {
  for (const fields of [DATE_FIELDS, undefined]) {
    const a = await innertubeRequest(http, {
      endpoint: 'player', identity: WEB_IDENTITY, what: 'date player', referer: watchPath(videoId), fields,
      body: { videoId, contentCheckOk: true, racyCheckOk: true },
    });
    const r = readJson(a, ENDPOINTS.datePlayer);
    if (r.kind !== 'ok') return null;
    const v = classifyPlayer(r.value, videoId);
    // A refusal (bot check, another video's answer) is the blocked path's; an unplayable video may
    // still state its date, so only blocks are thrown.
    if (v.outcome === 'blocked') throw new PlatformError('blocked', `date player: ${v.reason}`, { signal: v.signal, block: v.block });
    const date = publishDateOf(r.value);
    if (date !== null) return date;
  }
  return null;
}
