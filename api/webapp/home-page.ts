// Home: the Add box, what the key follows (each with its stored videos, newest date and crawl state
// in words) and the newest videos of all of it. Every platform text is a preact child (escaped).
// The follow and unfollow forms post to /app/follow and /app/unfollow (follow-routes.ts), whose
// field names (csrf, channel, ref, back) other pages use too: docs/webapp.md.

import { h, type ComponentChildren } from 'preact';
import type { FollowedOverview, VideoRecord } from '../../shared/store/types';
import { crawlViewOf } from '../feed/crawl-view';
import type { Locale, Words } from './i18n';
import { csrfField } from './pages';

const dateOf = (d: Date, locale: Locale): string => d.toLocaleDateString(locale === 'tr' ? 'tr-TR' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const hourOf = (d: Date): string => `${d.toISOString().slice(11, 16)} UTC`;

/** The crawl state in words, read as the 404's message reads it (feed/crawl-view.ts). */
export function crawlWords(w: Words, f: FollowedOverview, now: Date): string {
  if (f.channelId === null) return w.waitingHandle;
  if (f.work === null) return w.crawl.waiting;
  const view = crawlViewOf(f.work, now);
  switch (view.state) {
    case 'running':
      return w.crawl.running;
    case 'waiting':
      return w.crawl.waiting;
    case 'empty':
      return w.crawl.upToDate;
    case 'blocked':
      return w.crawl.blocked(hourOf(view.nextTryAt));
    case 'unreachable':
      return w.crawl.unreachable(hourOf(view.nextTryAt));
    case 'not_found':
      return w.crawl.notFound(hourOf(view.nextTryAt));
  }
}

export const appPathOf = (f: Pick<FollowedOverview, 'kind'>, id: string): string => `/app/${f.kind === 'playlist' ? 'playlists' : 'channels'}/${encodeURIComponent(id)}`;

/** A Follow or Unfollow button: POST /app/follow (channel) or /app/unfollow (ref), back to `back`. */
export function followButton(w: Words, csrf: string, action: 'follow' | 'unfollow', id: string, back: string, label: string): ComponentChildren {
  return h('form', { method: 'post', action: `/app/${action}`, class: 'inline' },
    csrfField(csrf),
    h('input', { type: 'hidden', name: action === 'follow' ? 'channel' : 'ref', value: id }),
    h('input', { type: 'hidden', name: 'back', value: back }),
    h('button', { type: 'submit', 'aria-label': `${action === 'follow' ? w.follow : w.unfollow}: ${label}` }, action === 'follow' ? w.follow : w.unfollow));
}

function addBox(w: Words, csrf: string, value: string, error: string | null): ComponentChildren {
  return h('form', { method: 'post', action: '/app/follow', 'aria-label': w.addBox },
    error === null ? null : h('p', { class: 'error', role: 'alert' }, error),
    csrfField(csrf),
    h('label', { for: 'add-channel' }, w.addBox),
    h('input', { id: 'add-channel', name: 'channel', type: 'text', value, required: true, 'aria-describedby': 'add-hint', autocomplete: 'off' }),
    h('p', { id: 'add-hint', class: 'muted' }, w.addHint),
    h('div', null, h('button', { type: 'submit' }, w.add)));
}

export interface HomeView {
  readonly followed: readonly FollowedOverview[];
  readonly newest: readonly VideoRecord[];
  /** What the Add box was given, and its refusal in words (after a refused post). */
  readonly input: string;
  readonly error: string | null;
}

export function homeBody(w: Words, locale: Locale, csrf: string, view: HomeView, now: Date): ComponentChildren {
  const followed = view.followed.length === 0
    ? h('p', null, w.nothingFollowed)
    : h('section', { 'aria-labelledby': 'followed' },
      h('h2', { id: 'followed' }, w.followed),
      h('ul', null, view.followed.map((f) => {
        const label = f.title ?? f.channelId ?? `@${f.handle ?? ''}`;
        return h('li', { key: f.channelId ?? f.handle },
          f.channelId === null ? h('span', null, `@${f.handle ?? ''}`) : h('a', { href: appPathOf(f, f.channelId) }, label),
          ' ', h('span', { class: 'muted' }, f.kind === 'playlist' ? w.playlist : w.channel),
          h('br', null),
          h('span', { class: 'muted' }, [
            w.storedVideos(f.stored),
            f.newestAt === null ? null : [' · ', `${w.newestVideo} `, h('time', { dateTime: f.newestAt.toISOString() }, dateOf(f.newestAt, locale))],
            ' · ', h('span', { class: 'crawl-state' }, crawlWords(w, f, now)),
          ]),
          ' ', followButton(w, csrf, 'unfollow', f.channelId ?? `@${f.handle ?? ''}`, '/app/', label));
      })));
  const newest = view.newest.length === 0 ? null : h('section', { 'aria-labelledby': 'newest' },
    h('h2', { id: 'newest' }, w.newestVideos),
    h('ul', null, view.newest.map((v) => h('li', { key: v.videoId },
      h('a', { href: `/app/videos/${encodeURIComponent(v.videoId)}` }, v.title),
      ' ', h('span', { class: 'muted' }, h('time', { dateTime: v.publishedAt.toISOString() }, dateOf(v.publishedAt, locale)))))));
  return [addBox(w, csrf, view.input, view.error), followed, newest];
}
