// The app's pages as preact elements rendered to a string on the server: every interpolated text is
// a child or an attribute value, which preact-render-to-string escapes, so a title from the platform
// is text and never markup. No inline script or style: the strict CSP (webapp/security.ts) allows
// neither.

import { h, type ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { shownText } from '../../shared/transcript/shown-text';
import { ICON_URL, STYLESHEET_URL } from './assets';
import type { Locale, Words } from './i18n';

export interface PageContext {
  readonly locale: Locale;
  readonly words: Words;
  /** The signed-in session's CSRF token and role; null on the sign-in page. */
  readonly signedIn: { readonly csrf: string; readonly admin: boolean } | null;
  /** The page's own path, for the language switch. */
  readonly path: string;
  /** The page's query without `lang`, so the switch keeps a search, a page number or `tl`. */
  readonly query?: string;
}

export function renderPage(ctx: PageContext, title: string, body: ComponentChildren): string {
  const w = ctx.words;
  const other: Locale = ctx.locale === 'en' ? 'tr' : 'en';
  const doc = h('html', { lang: ctx.locale },
    h('head', null,
      h('meta', { charset: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, `${title} · ${w.appName}`),
      h('link', { rel: 'icon', href: ICON_URL, type: 'image/svg+xml' }),
      h('link', { rel: 'stylesheet', href: STYLESHEET_URL })),
    h('body', null,
      h('header', null,
        h('nav', { 'aria-label': w.navigation },
          h('ul', null,
            h('li', null, h('a', { href: '/app/' }, w.home)),
            ctx.signedIn === null ? null : h('li', null, h('a', { href: '/app/search' }, w.search)),
            ctx.signedIn === null ? null : h('li', null, h('a', { href: '/app/subscriptions' }, w.subscriptions)),
            ctx.signedIn?.admin === true ? h('li', null, h('a', { href: '/status' }, w.status)) : null,
            h('li', null, h('a', { href: `${ctx.path}?${ctx.query === undefined || ctx.query === '' ? '' : `${ctx.query}&`}lang=${other}`, hrefLang: other, lang: other }, other === 'tr' ? 'Türkçe' : 'English')))),
        ctx.signedIn === null ? null : h('form', { method: 'post', action: '/app/sign-out' },
          csrfField(ctx.signedIn.csrf),
          h('button', { type: 'submit' }, w.signOut))),
      h('main', null, h('h1', null, title), body)));
  // What no text may show (shownText) leaves the finished page: preact escaped every text and
  // attribute in it, so dropping a character joins no markup.
  return shownText(`<!doctype html>${renderToString(doc)}`);
}

export const csrfField = (token: string): ComponentChildren => h('input', { type: 'hidden', name: 'csrf', value: token });

/** The sign-in form: one field labelled `API key`, a button `Sign in`; the key goes in the POST body. */
export function signInBody(w: Words, csrf: string, error: string | null): ComponentChildren {
  return h('form', { method: 'post', action: '/app/sign-in' },
    error === null ? null : h('p', { class: 'error', role: 'alert' }, error),
    csrfField(csrf),
    h('label', { for: 'api-key' }, w.apiKey),
    h('input', { id: 'api-key', name: 'api_key', type: 'password', autocomplete: 'current-password', required: true }),
    h('div', null, h('button', { type: 'submit' }, w.signIn)));
}
