// Each feed entry's page in the reader's web app (/app/videos/<id>): Atom `link rel="related"`,
// JSON Feed `external_url`, beside the spec's own `link` to the platform, which stays as it is.
// The address is the one the feed's self link already has (PUBLIC_BASE_URL, else the request's,
// http/origin.ts), taken from that link, so the app link follows whatever the self link follows
// and the feed's ETag, which covers the self link, covers it too.

/** The paths a feed is served at (GET /, /search, /subscriptions/feed), as the self link ends before its query. */
const FEED_PATH = /\/(?:search|subscriptions\/feed)?$/;

/** The service's base address as the self link names it (scheme, host and PUBLIC_BASE_URL's path). */
export function baseOfSelfUrl(selfUrl: string): string {
  const q = selfUrl.indexOf('?');
  return (q < 0 ? selfUrl : selfUrl.slice(0, q)).replace(FEED_PATH, '');
}

/** The entry's transcript page in the web app. */
export function appVideoUrl(selfUrl: string, videoId: string): string {
  return `${baseOfSelfUrl(selfUrl)}/app/videos/${encodeURIComponent(videoId)}`;
}
