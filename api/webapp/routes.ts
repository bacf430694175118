// The reader's web app under /app/ (issue 29): sign-in, sign-out, home, and the stylesheet. Every
// handler here is a row of the one route table (api/create-app.ts). The key goes in a POST body and
// only its session's random id goes in a cookie; the key is never in an /app/ URL.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { h } from 'preact';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { ApiKey } from '../../shared/config/security';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { Store } from '../../shared/store/types';
import type { KeySource } from '../http/key-source';
import { matchKey } from '../http/keyed';
import { ICON, ICON_FILE, PLAYER_SCRIPT, PLAYER_SCRIPT_FILE, STYLESHEET, STYLESHEET_FILE } from './assets';
import { localeOf, wordsOf, type Words } from './i18n';
import { homeBody, renderPage, signInBody, type PageContext } from './pages';
import { channelBody, transcriptBody } from './reading-pages';
import { searchForm, searchResults } from './search-page';
import { parseSearchText } from '../query/search-query';
import { errorBody } from '../errors';
import { cookie, cookieOf, crossSite, PRE_COOKIE, sameToken, SESSION_COOKIE, setPageHeaders } from './security';
import { SESSION_IDLE_MS, SessionTable, type Session } from './sessions';
import { SignInLimiter } from './sign-in-limit';

export interface WebAppDeps {
  store: Store;
  keys: KeySource;
  clock: () => Date;
  logger: Logger;
  /** This app's origin as its clients reach it (PUBLIC_BASE_URL, else the request's). */
  originOf: (req: IncomingMessage) => string;
  /** PLAYER_EMBED_URL: the platform's embedded player, <it>/<video id>. */
  playerEmbedUrl?: string;
}

export interface WebApp {
  home: RequestHandler;
  channel: RequestHandler;
  video: RequestHandler;
  search: RequestHandler;
  signIn: RequestHandler[];
  signOut: RequestHandler[];
  asset: RequestHandler;
}

/** The app's files by their hashed names: a year's caching, since a change is a new name. */
const ASSETS = new Map([
  [STYLESHEET_FILE, { type: 'text/css; charset=utf-8', body: STYLESHEET }],
  [ICON_FILE, { type: 'image/svg+xml', body: ICON }],
  [PLAYER_SCRIPT_FILE, { type: 'text/javascript; charset=utf-8', body: PLAYER_SCRIPT }],
]);

const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });

export function webApp(deps: WebAppDeps): WebApp {
  const log = categoryLogger(deps.logger, 'webapp');
  const embedBase = deps.playerEmbedUrl ?? DEFAULT_PLAYER_EMBED_URL;
  const embedOrigin = new URL(embedBase).origin;
  const sessions = new SessionTable(deps.store, (err) => log.warning({ event: 'webapp_session_sweep_failed', err }, 'sweeping idle app sessions failed'));
  const limiter = new SignInLimiter();
  const secure = (req: IncomingMessage): boolean => deps.originOf(req).startsWith('https:');

  /** The request's session and its key, when both are still live (a disabled key ends it). */
  async function signedIn(req: IncomingMessage): Promise<{ id: string; session: Session; key: ApiKey } | null> {
    const id = cookieOf(req, SESSION_COOKIE);
    if (id === null) return null;
    const session = await sessions.find(id, deps.clock());
    if (session === null) return null;
    const key = deps.keys.keys.find((k) => k.keyId === session.keyId && k.enabled) ?? null;
    if (key === null) {
      await sessions.close(id);
      return null;
    }
    return { id, session, key };
  }

  function context(req: Request, signed: { session: Session; key: ApiKey } | null): PageContext {
    const locale = localeOf(req, req.query.lang);
    return { locale, words: wordsOf(locale), path: req.path, signedIn: signed === null ? null : { csrf: signed.session.csrf, admin: signed.key.role === 'admin' } };
  }

  function send(res: Response, status: number, html: string, frameOrigin: string | null = null): void {
    setPageHeaders(res, frameOrigin);
    res.status(status).type('text/html; charset=utf-8').send(html);
  }

  function signInPage(req: Request, res: Response, status: number, error: ((w: Words) => string) | null): void {
    let pre = cookieOf(req, PRE_COOKIE);
    if (pre === null || !/^[A-Za-z0-9_-]{32}$/.test(pre)) {
      pre = randomToken();
      res.append('Set-Cookie', cookie(PRE_COOKIE, pre, secure(req), 3600));
    }
    const ctx = context(req, null);
    send(res, status, renderPage(ctx, ctx.words.signInTitle, signInBody(ctx.words, pre, error === null ? null : error(ctx.words))));
  }

  const home: RequestHandler = async (req, res) => {
    const signed = await signedIn(req);
    if (signed === null) return signInPage(req, res, 200, null);
    const subs = await deps.store.listSubscriptions(signed.key.keyId);
    const ctx = context(req, signed);
    send(res, 200, renderPage(ctx, ctx.words.home, homeBody(ctx.words, subs)));
  };

  /** A page for signed-in readers only: without a session, the sign-in form (its URL unchanged). */
  const reading = (page: (req: Request, res: Response, signed: { session: Session; key: ApiKey }) => Promise<void>): RequestHandler => async (req, res) => {
    const signed = await signedIn(req);
    if (signed === null) return signInPage(req, res, 200, null);
    await page(req, res, signed);
  };

  const channel = reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const [record, videos] = await Promise.all([deps.store.getChannel(id), deps.store.listFeedEntries(id, 50)]);
    const ctx = context(req, signed);
    send(res, record === null ? 404 : 200, renderPage(ctx, record?.title ?? id, channelBody(ctx.words, ctx.locale, videos)));
  });

  const video = reading(async (req, res, signed) => {
    const id = String(req.params.id);
    const [[record], transcripts] = await Promise.all([deps.store.getVideos([id]), deps.store.getTranscripts([id])]);
    const ctx = context(req, signed);
    if (record === undefined) return send(res, 404, renderPage(ctx, ctx.words.videoNotFound, null));
    const transcript = transcripts.find((t) => t.language === record.language) ?? transcripts[0] ?? null;
    send(res, 200, renderPage(ctx, record.title, transcriptBody(ctx.words, ctx.locale, record, transcript, embedBase)), embedOrigin);
  });

  // Everything stored, newest first, in the feed's query language; a refused query gets the
  // feed's refusal in words, never a 500. (Scopes and paging: next step.)
  const search = reading(async (req, res, signed) => {
    const q = typeof req.query.q === 'string' ? req.query.q : '';
    const ctx = context(req, signed);
    const title = ctx.words.search;
    if (q.trim() === '') return send(res, 200, renderPage(ctx, title, searchForm(ctx.words, '')));
    const parsed = parseSearchText(q);
    if (!parsed.ok) return send(res, 400, renderPage(ctx, title, [searchForm(ctx.words, q), h('p', { class: 'error', role: 'alert' }, errorBody(parsed.error, parsed.context).error)]));
    const hits = await deps.store.searchVideos(parsed.value, { channelIds: null, kinds: ['regular', 'live'] }, 20, { budgetMs: 5000 });
    const feedUrl = `/search?${new URLSearchParams({ q }).toString()}`;
    send(res, 200, renderPage(ctx, title, [searchForm(ctx.words, q), searchResults(ctx.words, ctx.locale, parsed.value, hits, feedUrl)]));
  });

  /** Refuses another site's POST before anything reads its body's meaning. */
  const sameOrigin: RequestHandler = (req, res, next) => {
    if (!crossSite(req, deps.originOf(req))) return next();
    log.warning({ event: 'webapp_cross_site_refused', path: req.path }, 'app form from another site refused');
    const ctx = context(req, null);
    send(res, 403, renderPage(ctx, ctx.words.signInTitle, ctx.words.refused));
  };

  const signIn: RequestHandler = async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const pre = cookieOf(req, PRE_COOKIE);
    const ctx = context(req, null);
    if (pre === null || !sameToken(body.csrf, pre)) return send(res, 403, renderPage(ctx, ctx.words.signInTitle, ctx.words.refused));
    const address = req.socket.remoteAddress ?? '';
    const now = deps.clock();
    const wait = limiter.waitSeconds(address, now);
    if (wait > 0) return signInPage(req, res, 429, (w) => w.tooManyAttempts(wait));
    const key = typeof body.api_key === 'string' && body.api_key !== '' ? matchKey(body.api_key, deps.keys.keys) : null;
    if (key === null) {
      limiter.failed(address, now);
      // Never the attempted text: a mistyped key is most of a real one.
      log.info({ event: 'webapp_sign_in_failed', address }, 'app sign-in failed');
      return signInPage(req, res, 401, (w) => w.signInFailed);
    }
    let id: string;
    try {
      ({ id } = await sessions.open(key.keyId, now));
    } catch (err) {
      // No cookie for a session the store does not hold: the reader is told, and may try again.
      log.error({ event: 'webapp_session_write_failed', key: key.name, err }, 'app sign-in: storing the session failed');
      return signInPage(req, res, 503, (w) => w.signInUnavailable);
    }
    res.append('Set-Cookie', cookie(SESSION_COOKIE, id, secure(req), SESSION_IDLE_MS / 1000));
    res.append('Set-Cookie', cookie(PRE_COOKIE, '', secure(req), 0));
    log.info({ event: 'webapp_signed_in', key: key.name }, 'app sign-in');
    res.redirect(303, '/app/');
  };

  const signOut: RequestHandler = async (req, res) => {
    const signed = await signedIn(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (signed !== null && !sameToken(body.csrf, signed.session.csrf)) {
      const ctx = context(req, signed);
      return send(res, 403, renderPage(ctx, ctx.words.home, ctx.words.refused));
    }
    if (signed !== null) await sessions.close(signed.id);
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', secure(req), 0));
    res.redirect(303, '/app/');
  };

  const asset: RequestHandler = (req, res) => {
    const file = ASSETS.get(String(req.params.file));
    if (file === undefined) {
      res.status(404).type('text/plain; charset=utf-8').send('not found');
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).type(file.type).send(file.body);
  };

  return { home, channel, video, search, signIn: [sameOrigin, form, signIn], signOut: [sameOrigin, form, signOut], asset };
}

/** The platform's embedded player (PLAYER_EMBED_URL's default). */
const DEFAULT_PLAYER_EMBED_URL = 'https://www.youtube.com/embed';

const randomToken = (): string => randomBytes(24).toString('base64url');
