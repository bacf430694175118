// Where a video lives on the platform: the watch page's path (what the crawler's requests name as
// their page) and the public links readers follow, which always name the real platform whatever
// PLATFORM_BASE_URL points at (tests and the demo use a fake).

/** The host of every public link (feed entries, deep links, channel and playlist pages). */
export const PUBLIC_VIDEO_HOST = 'youtube.com';

/** `/watch?v=<id>`: the Referer of player and timed-text calls, and the page the blocked path and the browser open. */
export const watchPath = (videoId: string): string => `/watch?v=${encodeURIComponent(videoId)}`;

/** https://youtube.com/watch?v=<id>, or with `&t=<seconds>s` the link a reader follows to that moment. */
export function watchUrl(videoId: string, seconds?: number): string {
  const at = seconds === undefined ? '' : `&t=${Math.max(0, Math.floor(seconds))}s`;
  return `https://${PUBLIC_VIDEO_HOST}${watchPath(videoId)}${at}`;
}
