// What the browser fallback reads from the platform's own web player (docs/crawler.md §4):
// * whether a block is cleared — judged by a player answer (`ytInitialPlayerResponse` of the watch
//   page), never by a page merely showing no captcha: the bot check lives in the player answer;
// * a transcript when every app client is refused: the embed page with captions switched on makes
//   the web player request `/api/timedtext?…&pot=…` with its own proof-of-origin token, and that
//   answer is taken as it arrives.

import type { Page, Request, Response } from 'playwright';
import { classifyPlayer, type Verdict } from '../shared/platform/classify';
import { spokenCuesOf } from '../shared/platform/timed-text-fetch';
import type { Transcript } from '../shared/transcript/types';
import { transcriptOf } from '../shared/transcript/build';

/** The video id of a watch path (`/watch?v=<id>`), or null for any other page. */
export function watchedVideo(path: string): string | null {
  const url = new URL(path, 'http://x');
  return url.pathname === '/watch' ? url.searchParams.get('v') : null;
}

/** The embed page that makes the web player fetch captions in `language`. */
export function embedPath(videoId: string, language: string): string {
  const q = new URLSearchParams({ cc_load_policy: '1', cc_lang_pref: language, hl: 'en' });
  return `/embed/${encodeURIComponent(videoId)}?${q.toString()}`;
}

/** The player answer the open page embeds, judged; null while the page has none (yet). */
export async function embeddedPlayerVerdict(page: Page, videoId: string): Promise<Verdict | null> {
  const answer = await page
    .evaluate<unknown>('typeof ytInitialPlayerResponse === "object" ? ytInitialPlayerResponse : null')
    .catch(() => null);
  return answer === null || answer === undefined ? null : classifyPlayer(answer, videoId);
}

/** Whether a response is the web player's timed-text answer for this video. */
export function isTimedText(res: Response | Request, videoId: string): boolean {
  const url = new URL(res.url());
  return url.pathname === '/api/timedtext' && url.searchParams.get('v') === videoId;
}

/**
 * The transcript in a timed-text answer the web player received; null when the answer is the
 * platform's refusal (an empty body) or holds no spoken cue.
 */
export function transcriptFromPlayerAnswer(requestUrl: string, body: string): Transcript | null {
  const spoken = spokenCuesOf(body);
  if (spoken.length === 0) return null;
  const q = new URL(requestUrl).searchParams;
  const language = q.get('tlang') ?? q.get('lang') ?? 'und';
  const kind = q.get('kind') === 'asr' ? 'automatic' : 'manual';
  // The web player's timed-text answer comes without the description: no chapters on this path.
  return transcriptOf(spoken, { videoId: q.get('v') ?? '', language, kind, description: null, durationSeconds: null }).transcript;
}
