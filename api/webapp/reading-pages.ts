// The transcript page's body: one video's transcript whose every paragraph
// opens with its time as a link into the platform's player at that second (working without
// JavaScript). Every text from the platform is a preact child, so it is escaped, never markup.

import { h, type ComponentChildren } from 'preact';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { PLAYER_SCRIPT_URL } from './assets';
import type { Locale, Words } from './i18n';

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

/** The platform's player for this video, its iframe API on (the time links seek it). */
export const embedUrl = (embedBase: string, videoId: string): string => `${embedBase}/${encodeURIComponent(videoId)}?enablejsapi=1`;

export function transcriptBody(w: Words, locale: Locale, video: VideoRecord, transcript: TranscriptRecord | null, embedBase: string): ComponentChildren {
  return [
    h('p', { class: 'muted' },
      h('a', { href: `/app/channels/${encodeURIComponent(video.channelId)}` }, w.channelLink), ' · ',
      h('time', { dateTime: video.publishedAt.toISOString() }, dateOf(video.publishedAt, locale)),
      video.durationSeconds === null ? '' : ` · ${clock(video.durationSeconds)}`, ' · ',
      h('a', { href: watchUrl(video.videoId, 0) }, w.watchOnPlatform)),
    h('div', { class: 'watch' },
      h('div', { class: 'player' },
        h('iframe', {
          id: 'player', src: embedUrl(embedBase, video.videoId), title: w.player,
          allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen', allowFullScreen: true,
          // The page's own policy is same-origin; the platform's player refuses to play without one.
          referrerpolicy: 'strict-origin-when-cross-origin',
        })),
      transcriptSection(w, video, transcript)),
    h('script', { src: PLAYER_SCRIPT_URL, defer: true }),
  ];
}

function transcriptSection(w: Words, video: VideoRecord, transcript: TranscriptRecord | null): ComponentChildren {
  return h('section', { 'aria-labelledby': 'transcript', lang: transcript?.language },
      h('h2', { id: 'transcript' }, w.transcript),
      transcript === null || transcript.paragraphs.length === 0
        ? h('p', null, w.noTranscript)
        : transcript.paragraphs.map((p) => h('p', { id: `t${Math.floor(p.startMs / 1000)}`, key: p.startMs },
          h('a', { href: watchUrl(video.videoId, p.startMs / 1000), class: 'time', 'data-seconds': Math.floor(p.startMs / 1000) }, clock(p.startMs / 1000)), ' ', p.text)));
}
