// The InnerTube player call (platform.md §3.1) for one client, judged before anything reads it.
// The clients are configurable because they age: the list in PLAYER_CLIENTS is tried in order.

import { classifyPlayer, type Verdict } from './classify';
import { ENDPOINTS, readJson, valueOf } from './endpoint-rules';
import type { PlatformHttp } from './http-client';
import { innertubeRequest, type InnertubeClient } from './innertube';
import { watchPath } from './watch-page';

export interface PlayerAnswer {
  json: unknown;
  /** `ok` (captions listed), or the failure `classifyPlayer` found. */
  verdict: Verdict;
}

/** Throws for answers no client could do better with (HTTP failures); returns the player's own verdict. */
export async function fetchPlayer(http: PlatformHttp, videoId: string, client: InnertubeClient): Promise<PlayerAnswer> {
  const what = `player (${client.name})`;
  const a = await innertubeRequest(
    http, 'player', client,
    { videoId, contentCheckOk: true, racyCheckOk: true },
    what, watchPath(videoId),
  );
  const rule = { ...ENDPOINTS.player, what };
  const json = valueOf(readJson(a, rule), rule);
  return { json, verdict: classifyPlayer(json, videoId) };
}
