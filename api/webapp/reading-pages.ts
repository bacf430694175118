// What the reading pages (channel-page.ts, video-page.ts, search-page.ts) write the same way: dates,
// times, and a link into the platform's player at a second.

import type { Locale } from './i18n';

export const dateOf = (d: Date, locale: Locale): string => d.toLocaleDateString(locale === 'tr' ? 'tr-TR' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** `1:02:03` or `2:03`. */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const two = (n: number): string => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(s % 60)}` : `${minutes}:${two(s % 60)}`;
}

export const watchUrl = (videoId: string, seconds: number): string => `https://youtube.com/watch?v=${encodeURIComponent(videoId)}&t=${Math.floor(seconds)}s`;
