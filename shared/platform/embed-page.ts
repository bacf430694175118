// The embedded player's page, fetched before the embedded player (WEB_EMBEDDED_PLAYER) is asked
// (docs/crawler.md §3): yt-dlp loads `/embed/<id>?html5=1` and sends the page's
// `encryptedHostFlags` (from its `WEB_PLAYER_CONTEXT_CONFIGS`) as
// `playbackContext.contentPlaybackContext.encryptedHostFlags`, as the embedded web player does. A
// page without flags (or one that failed) leaves the call without them; a refusal is thrown.

import { ENDPOINTS, readText } from './endpoint-rules';
import type { PlatformHttp } from './http-client';

/** The flags are an opaque base64url-ish token; anything else in their place is not used. */
const FLAGS = /"encryptedHostFlags"\s*:\s*"([A-Za-z0-9_\-=%.]{1,4096})"/;

/** `encryptedHostFlags` of an embed page, or null. */
export function encryptedHostFlagsOf(html: string): string | null {
  return FLAGS.exec(html)?.[1] ?? null;
}

export async function fetchEmbedFlags(http: PlatformHttp, videoId: string): Promise<string | null> {
  const a = await http.send({ method: 'GET', target: `/embed/${encodeURIComponent(videoId)}?html5=1`, kind: 'page', what: 'embed page' });
  const page = readText(a, ENDPOINTS.embedPage);
  return page.kind === 'ok' ? encryptedHostFlagsOf(page.value) : null;
}
