// The watch page's path: the Referer of player and timed-text calls, and the page the blocked path
// and the browser open for a video.

export const watchPath = (videoId: string): string => `/watch?v=${encodeURIComponent(videoId)}`;
