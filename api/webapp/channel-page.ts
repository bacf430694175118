// The channel and playlist pages' bodies: the Follow / Unfollow form, the videos (or, before the
// crawler's first batch, what the feed's 404 says and a page that reloads itself), paging links,
// and the feed addresses with the signed-in key, each in a read-only field with a Copy button. The
// key is in those fields' values only, never in a link. Every text is a preact child or attribute.

import { h, type ComponentChildren } from 'preact';
import type { VideoRecord, VideoState, WorkKind } from '../../shared/store/types';
import { CHANNEL_SCRIPT_URL } from './assets';
import type { Locale, Words } from './i18n';
import { clock, dateOf } from './reading-pages';

/** Seconds between the reloads of a page waiting for the crawler's first batch. */
export const WAITING_RELOAD_SECONDS = 10;
/** Videos a page. */
export const PAGE_SIZE = 50;

/** One line of the list: a stored video, or a playlist entry the crawler has not stored yet (video null). */
export interface VideoRow {
  readonly videoId: string;
  readonly video: VideoRecord | null;
}

/** The feed addresses of this channel or playlist with the key in them; null when the key is not at hand. */
export interface FeedUrls {
  readonly atom: string;
  readonly rss: string;
  readonly json: string;
  readonly opml: string;
}

export interface ChannelView {
  readonly kind: WorkKind;
  readonly id: string;
  /** This page's path: where the follow forms come back to. */
  readonly path: string;
  /** What the follow form posts as `channel` (a channel id, or the playlist's URL). */
  readonly followRef: string;
  readonly csrf: string;
  readonly following: boolean;
  /** The feed 404's message while nothing is stored yet; null once there are videos. */
  readonly waiting: string | null;
  readonly rows: readonly VideoRow[];
  readonly page: number;
  readonly hasNext: boolean;
  readonly feeds: FeedUrls | null;
}

export function channelBody(w: Words, locale: Locale, v: ChannelView): ComponentChildren {
  return [
    followForm(w, v),
    v.waiting === null ? videoList(w, locale, v) : waitingNotice(w, v),
    feedSection(w, v.feeds),
    h('script', { src: CHANNEL_SCRIPT_URL, defer: true }),
  ];
}

const hidden = (name: string, value: string): ComponentChildren => h('input', { type: 'hidden', name, value });

/** To exactly the contract of POST /app/follow and /app/unfollow: csrf, channel or ref, back. */
function followForm(w: Words, v: ChannelView): ComponentChildren {
  return v.following
    ? h('form', { method: 'post', action: '/app/unfollow', class: 'follow' },
      hidden('csrf', v.csrf), hidden('ref', v.id), hidden('back', v.path),
      h('button', { type: 'submit' }, w.unfollow))
    : h('form', { method: 'post', action: '/app/follow', class: 'follow' },
      hidden('csrf', v.csrf), hidden('channel', v.followRef), hidden('back', v.path),
      h('button', { type: 'submit' }, w.follow));
}

function waitingNotice(w: Words, v: ChannelView): ComponentChildren {
  return h('section', { 'aria-labelledby': 'videos' },
    h('h2', { id: 'videos' }, w.videos),
    h('p', { role: 'status', 'data-refresh': WAITING_RELOAD_SECONDS }, v.waiting),
    h('p', { class: 'muted' }, w.reloads, ' ', h('a', { href: v.path }, w.checkAgain)));
}

const stateWord = (w: Words, state: VideoState | null): string => (state === null ? w.state.failed : w.state[state]);

function videoList(w: Words, locale: Locale, v: ChannelView): ComponentChildren {
  return h('section', { 'aria-labelledby': 'videos' },
    h('h2', { id: 'videos' }, w.videos),
    v.page > 1 ? h('p', { class: 'muted' }, w.pageNumber(v.page)) : null,
    v.rows.length === 0
      ? h('p', null, w.emptyPage)
      : h('ol', { class: 'videos', start: (v.page - 1) * PAGE_SIZE + 1 }, v.rows.map((r) => h('li', { key: r.videoId },
        r.video === null
          ? h('span', null, r.videoId)
          : h('a', { href: `/app/videos/${encodeURIComponent(r.videoId)}` }, r.video.title),
        ' ', h('span', { class: 'muted' }, details(w, locale, r.video))))),
    pageLinks(w, v));
}

/** Date, duration, transcript language (what is known) and the state in one word. */
function details(w: Words, locale: Locale, video: VideoRecord | null): ComponentChildren {
  if (video === null) return `· ${stateWord(w, null)}`;
  return [
    h('time', { dateTime: video.publishedAt.toISOString() }, dateOf(video.publishedAt, locale)),
    video.durationSeconds === null ? '' : ` · ${clock(video.durationSeconds)}`,
    video.language === null ? '' : ` · ${video.language}`,
    ` · ${stateWord(w, video.state)}`,
  ];
}

function pageLinks(w: Words, v: ChannelView): ComponentChildren {
  if (v.page === 1 && !v.hasNext) return null;
  const at = (page: number): string => (page === 1 ? v.path : `${v.path}?page=${page}`);
  return h('nav', { 'aria-label': w.pages, class: 'pages' },
    h('ul', null,
      v.page > 1 ? h('li', null, h('a', { href: at(v.page - 1), rel: 'prev' }, w.previousPage)) : null,
      v.hasNext ? h('li', null, h('a', { href: at(v.page + 1), rel: 'next' }, w.nextPage)) : null));
}

function feedSection(w: Words, feeds: FeedUrls | null): ComponentChildren {
  return h('section', { 'aria-labelledby': 'feeds' },
    h('h2', { id: 'feeds' }, w.feeds),
    feeds === null
      ? h('p', null, w.feedsUnavailable)
      : [
        h('p', { class: 'muted' }, w.feedsPrivate),
        copyField('feed-atom', w.atomFeed, feeds.atom, w),
        copyField('feed-rss', w.rssFeed, feeds.rss, w),
        copyField('feed-json', w.jsonFeed, feeds.json, w),
        copyField('feed-opml', w.opml, feeds.opml, w),
      ]);
}

/** A read-only field, selectable without JavaScript; its Copy button shows only when the script runs. */
function copyField(id: string, label: string, value: string, w: Words): ComponentChildren {
  return [
    h('label', { for: id }, label),
    h('div', { class: 'copy' },
      h('input', { id, type: 'text', readOnly: true, value, spellcheck: false, autocomplete: 'off' }),
      h('button', { type: 'button', hidden: true, 'data-copy': id }, w.copy),
      h('span', { id: `${id}-done`, role: 'status', hidden: true }, w.copied)),
  ];
}
