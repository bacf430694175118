// Video timestamps as people write them and as the platform links them: `m:ss` below an hour,
// `h:mm:ss` from an hour on (docs/crawler.md §3), and the deep link that opens the video there.

import { watchUrl } from '../video-links';

/** `m:ss` or `h:mm:ss` for a whole number of seconds (fractions are cut: a link jumps to the second). */
export function formatTimestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A timestamp as creators write it (`0:00`, `12:34`, `1:02:03`, `01:02:03`) → seconds; null otherwise. */
export function parseTimestamp(text: string): number | null {
  const m = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [h, min, sec] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  // With hours, minutes are two digits below 60; without, minutes may run past 59 (`75:10`) as some
  // creators write them, but seconds never do.
  if (sec > 59 || (m[1] !== undefined && min > 59)) return null;
  return h * 3600 + min * 60 + sec;
}

/** https://youtube.com/watch?v=<id>&t=<seconds>s — the link a reader follows to that moment. */
export const deepLink = (videoId: string, seconds: number): string => watchUrl(videoId, seconds);
