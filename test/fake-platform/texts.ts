// The little texts and envelopes every InnerTube answer repeats: relative dates ("10 days ago"),
// view counts, durations, thumbnails, responseContext and tracking params.

import { createHash } from 'node:crypto';
import { hashString } from '../support/random';

/** "3 hours ago", "1 day ago", "2 weeks ago", "11 months ago", "4 years ago", as browse shows them. */
export function relativeTime(publishedAt: Date, now = Date.now()): string {
  const seconds = Math.max(1, Math.floor((now - publishedAt.getTime()) / 1000));
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'} ago`;
  if (seconds < 60) return unit(seconds, 'second');
  if (seconds < 3600) return unit(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return unit(Math.floor(seconds / 3600), 'hour');
  const days = Math.floor(seconds / 86_400);
  if (days < 7) return unit(days, 'day');
  if (days < 30) return unit(Math.floor(days / 7), 'week');
  if (days < 365) return unit(Math.max(1, Math.floor(days / 30)), 'month');
  return unit(Math.floor(days / 365), 'year');
}

/** A stable, plausible view count for a video. */
export function viewCount(videoId: string): number {
  const h = hashString(`views:${videoId}`);
  return Math.floor((h % 1000) * 10 ** (h % 5)) + 3;
}

/** "1,234 views" (videoRenderer.viewCountText). */
export function longViews(n: number): string {
  return `${n.toLocaleString('en-US')} view${n === 1 ? '' : 's'}`;
}

/** "117 views", "1.2K views", "3.4M views" (shortViewCountText, lockup metadata). */
export function shortViews(n: number): string {
  if (n < 1000) return `${n} view${n === 1 ? '' : 's'}`;
  const [value, suffix] = n < 1e6 ? [n / 1e3, 'K'] : [n / 1e6, 'M'];
  return `${value < 10 ? Math.floor(value * 10) / 10 : Math.floor(value)}${suffix} views`;
}

/** "4:05", "1:07:34". */
export function clock(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** "4 minutes, 5 seconds" (accessibility labels). */
export function spokenDuration(totalSeconds: number): string {
  const parts: string[] = [];
  const push = (n: number, name: string) => n > 0 && parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  push(Math.floor(totalSeconds / 3600), 'hour');
  push(Math.floor((totalSeconds % 3600) / 60), 'minute');
  push(totalSeconds % 60, 'second');
  return parts.join(', ');
}

/** An opaque base64 string of about `length` characters, stable for a seed (tracking params…). */
export function opaque(seed: string, length = 40): string {
  let out = '';
  for (let i = 0; out.length < length; i++) {
    out += createHash('sha256').update(`${seed}:${i}`).digest('base64');
  }
  return out.slice(0, length);
}

export function trackingParams(seed: string): string {
  return `C${opaque(`tp:${seed}`, 35)}=`;
}

export function videoThumbnails(videoId: string): { url: string; width: number; height: number }[] {
  return [
    { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg?sqp=-oaymwEbCKgBEF5IVfKriqkDDggBFQAAiEIYAXABwAEG`, width: 168, height: 94 },
    { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg?sqp=-oaymwEbCMQBEG5IVfKriqkDDggBFQAAiEIYAXABwAEG`, width: 196, height: 110 },
    { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg?sqp=-oaymwEcCPYBEIoBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==`, width: 246, height: 138 },
    { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg?sqp=-oaymwEcCNACELwBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==`, width: 336, height: 188 },
  ];
}

/** The `responseContext` envelope (service tracking params as in the captures). */
export function responseContext(client: string, clientVersion: string, params: Record<string, string> = {}): unknown {
  const visitorData = `Cgt${opaque(`visitor:${client}`, 8)}KN3Vu9AGMigKAkZSEiISHhIcCwwODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJyBM`;
  return {
    visitorData: `${visitorData}%3D%3D`,
    serviceTrackingParams: [
      {
        service: 'GFEEDBACK',
        params: [...Object.entries(params).map(([key, value]) => ({ key, value })), { key: 'logged_in', value: '0' }],
      },
      {
        service: 'CSI',
        params: [
          { key: 'c', value: client },
          { key: 'cver', value: clientVersion },
          { key: 'yt_li', value: '0' },
        ],
      },
      { service: 'GUIDED_HELP', params: [{ key: 'logged_in', value: '0' }] },
      {
        service: 'ECATCHER',
        params: [
          { key: 'client.version', value: clientVersion.split('.').slice(0, 2).join('.') },
          { key: 'client.name', value: client },
        ],
      },
    ],
    mainAppWebResponseContext: { loggedOut: true },
    responseId: opaque(`rid:${client}:${Date.now()}`, 28),
    webResponseContextExtensionData: { hasDecorated: true },
  };
}

/** `2026-10-30T16:00:00+00:00`: the feed's own spelling of UTC. */
export function feedDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
