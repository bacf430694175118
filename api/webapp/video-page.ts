// The transcript page's body (`/app/videos/<id>`): the player beside the transcript, the stored
// summary above it, the creator's chapters as a table of contents, a switch among the stored
// languages (and the machine translations the platform offers, asked for on request), downloads,
// and a find box. Every paragraph opens with its time as a link into the platform's player at that
// second (working without JavaScript); `#t=<s>` scrolls by element ids without it. Every text from
// the platform or the model is a preact child or attribute, so it is escaped, never markup.

import { h, type ComponentChildren } from 'preact';
import type { SummaryRecord, TranscriptRecord, VideoRecord } from '../../shared/store/types';
import type { Chapter } from '../../shared/transcript/chapters';
import { PLAYER_SCRIPT_URL } from './assets';
import type { Locale, Words } from './i18n';
import { clock, watchUrl } from './reading-pages';

/** Everything the page shows, read by video-routes.ts. */
export interface VideoView {
  readonly video: VideoRecord;
  /** Its channel's stored title (null before the crawler has named it: the link then says `Channel`). */
  readonly channelTitle: string | null;
  /** Every stored language of the video. */
  readonly rows: readonly TranscriptRecord[];
  /** The one shown (the `tl` asked for, else the crawler's choice). */
  readonly shown: TranscriptRecord | null;
  /** A `tl` asked for that is not stored: the crawler was asked for it. */
  readonly asked: string | null;
  /** Languages the platform offered (tracks, translation targets) that are not stored. */
  readonly offered: readonly string[];
  readonly chapters: readonly Chapter[];
  readonly summary: SummaryRecord | null;
  /** The find box's text (`?find=`), the page then showing only the paragraphs holding it. */
  readonly find: string;
  readonly embedBase: string;
}

/** Longest find text taken; longer is cut (a find is a few words). */
export const MAX_FIND_CHARS = 100;

const dateOf = (d: Date, locale: Locale): string => d.toLocaleDateString(locale === 'tr' ? 'tr-TR' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The platform's player for this video, its iframe API on (the time links seek it). */
export const embedUrl = (embedBase: string, videoId: string): string => `${embedBase}/${encodeURIComponent(videoId)}?enablejsapi=1`;

const videoPath = (videoId: string): string => `/app/videos/${encodeURIComponent(videoId)}`;

/** The find text as a literal, case-insensitive pattern (the same one the page's script builds). */
export function findPattern(find: string): RegExp | null {
  const needle = find.trim().slice(0, MAX_FIND_CHARS);
  return needle === '' ? null : new RegExp(needle.replace(/[.*+?^$|()[\]{}\\]/g, '\\$&'), 'giu');
}

/** The text with every hit of `re` in <mark>, and whether there was one. */
function marked(text: string, re: RegExp | null): { parts: ComponentChildren[]; hit: boolean } {
  if (re === null) return { parts: [text], hit: false };
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) parts.push(text.slice(at, m.index));
    parts.push(h('mark', null, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return { parts, hit: at > 0 };
}

export function transcriptBody(w: Words, locale: Locale, view: VideoView): ComponentChildren {
  const { video } = view;
  return [
    h('p', { class: 'muted' },
      h('a', { href: `/app/channels/${encodeURIComponent(video.channelId)}` }, view.channelTitle ?? w.channelLink), ' · ',
      h('time', { dateTime: video.publishedAt.toISOString() }, dateOf(video.publishedAt, locale)),
      video.durationSeconds === null ? '' : ` · ${clock(video.durationSeconds)}`, ' · ',
      h('a', { href: watchUrl(video.videoId, 0) }, w.watchOnPlatform)),
    view.summary === null || view.summary.points.length === 0 ? null : summarySection(w, video.videoId, view.summary),
    view.asked === null ? null : h('p', { role: 'status' }, w.translationAsked(languageName(locale, view.asked))),
    h('div', { class: 'watch' },
      h('div', { class: 'player' },
        h('iframe', {
          id: 'player', src: embedUrl(view.embedBase, video.videoId), title: w.player,
          allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen', allowFullScreen: true,
          // The page's own policy is same-origin; the platform's player refuses to play without one.
          referrerpolicy: 'strict-origin-when-cross-origin',
        })),
      h('div', null,
        tools(w, locale, view),
        view.chapters.length === 0 ? null : chaptersNav(w, view.chapters),
        transcriptSection(w, locale, view))),
    h('script', { src: PLAYER_SCRIPT_URL, defer: true }),
  ];
}

function summarySection(w: Words, videoId: string, s: SummaryRecord): ComponentChildren {
  return h('section', { class: 'summary', 'aria-labelledby': 'summary' },
    h('h2', { id: 'summary' }, w.summary),
    h('p', { class: 'muted' }, w.summaryNote(s.model)),
    h('ul', null, s.points.map((p, i) => h('li', { key: i },
      h('a', { href: watchUrl(videoId, p.seconds), class: 'time', 'data-seconds': Math.floor(p.seconds) }, clock(p.seconds)), ' ', p.text))));
}

const LANGUAGE_NAMES = { en: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }), tr: new Intl.DisplayNames(['tr'], { type: 'language', fallback: 'code' }) };

/** `Turkish (tr)`; a code Intl cannot name stays the code. */
function languageName(locale: Locale, code: string): string {
  let name = code;
  try {
    name = LANGUAGE_NAMES[locale].of(code) ?? code;
  } catch {
    // Not a tag Intl reads: the code it is.
  }
  return name === code ? code : `${name} (${code})`;
}

/** The language switch (a GET form: `?tl=<code>`), the find box (`?find=`), the downloads. */
function tools(w: Words, locale: Locale, view: VideoView): ComponentChildren {
  const { video, shown } = view;
  const tl = shown === null ? null : shown.language;
  const choices = view.rows.length > 1 || view.offered.length > 0;
  return h('div', { class: 'tools' },
    !choices ? null : h('form', { method: 'get', action: videoPath(video.videoId) },
      h('label', { for: 'tl' }, w.transcriptLanguage),
      h('select', { id: 'tl', name: 'tl' },
        view.rows.map((r) => h('option', { key: r.language, value: r.language, selected: r.language === tl }, `${languageName(locale, r.language)} · ${w.kinds[r.kind]}`)),
        view.offered.length === 0 ? null : h('optgroup', { label: w.translationsOffered },
          view.offered.map((code) => h('option', { key: code, value: code, selected: code === view.asked }, languageName(locale, code))))),
      ' ', h('button', { type: 'submit' }, w.showLanguage)),
    shown === null || shown.paragraphs.length === 0 ? null : h('form', { method: 'get', action: videoPath(video.videoId), role: 'search' },
      tl === null || tl === video.language ? null : h('input', { type: 'hidden', name: 'tl', value: tl }),
      h('label', { for: 'find' }, w.findLabel),
      h('input', { id: 'find', name: 'find', type: 'search', value: view.find, maxLength: MAX_FIND_CHARS }),
      ' ', h('button', { type: 'submit' }, w.find)),
    shown === null || shown.paragraphs.length === 0 ? null : h('nav', { class: 'downloads', 'aria-label': w.downloads },
      h('ul', null, (['vtt', 'srt', 'txt'] as const).map((ext) => h('li', { key: ext },
        h('a', { href: `${videoPath(video.videoId)}.${ext}${tl === null ? '' : `?tl=${encodeURIComponent(tl)}`}`, download: `${video.videoId}.${tl ?? 'und'}.${ext}` }, ext.toUpperCase()))))));
}

function chaptersNav(w: Words, chapters: readonly Chapter[]): ComponentChildren {
  return h('nav', { class: 'chapters', 'aria-labelledby': 'chapters' },
    h('h2', { id: 'chapters' }, w.chapters),
    h('ol', null, chapters.map((c) => h('li', { key: c.startSeconds },
      h('a', { href: `#t=${c.startSeconds}`, 'data-seconds': c.startSeconds }, `${clock(c.startSeconds)} `, c.title)))));
}

function transcriptSection(w: Words, locale: Locale, view: VideoView): ComponentChildren {
  const { video, shown } = view;
  const re = findPattern(view.find);
  const body: ComponentChildren[] = [];
  let matches = 0;
  if (shown === null || shown.paragraphs.length === 0) body.push(h('p', null, w.noTranscript));
  else if (shown.untimed === true) {
    for (const [i, p] of shown.paragraphs.entries()) body.push(h('p', { key: i }, p.text));
  } else {
    // Ids for `#t=<s>` without JavaScript: a chapter's heading, else the time link of the first
    // paragraph starting in that second; `t<s>` on the paragraph, as before. Never one id twice.
    const used = new Set<string>();
    const claim = (id: string): string | undefined => (used.has(id) ? undefined : (used.add(id), id));
    const chapters = [...view.chapters];
    for (const [i, p] of shown.paragraphs.entries()) {
      const seconds = Math.floor(p.startMs / 1000);
      while (chapters.length > 0 && chapters[0]!.startSeconds * 1000 <= p.startMs) {
        const c = chapters.shift()!;
        body.push(h('h3', { key: `c${c.startSeconds}`, id: claim(`t=${c.startSeconds}`) },
          h('a', { href: watchUrl(video.videoId, c.startSeconds), class: 'time', 'data-seconds': c.startSeconds }, clock(c.startSeconds)), ' ', c.title));
      }
      const { parts, hit } = marked(p.text, re);
      if (hit) matches += 1;
      body.push(h('p', { key: i, id: claim(`t${seconds}`), 'data-start': seconds, hidden: re !== null && !hit },
        h('a', { id: claim(`t=${seconds}`), href: watchUrl(video.videoId, p.startMs / 1000), class: 'time', 'data-seconds': seconds }, clock(seconds)), ' ',
        h('span', { class: 'said' }, parts)));
    }
  }
  return h('section', { class: 'transcript', 'aria-labelledby': 'transcript', lang: shown?.language },
    h('h2', { id: 'transcript' }, w.transcript),
    // The find's outcome, spoken as it changes (the script rewrites it as one types).
    h('p', { id: 'find-status', role: 'status', lang: locale, 'data-some': w.findSome, 'data-none': w.findNone },
      re === null ? '' : matches === 0 ? w.findNone : w.findSome.replace('{n}', String(matches))),
    body);
}
