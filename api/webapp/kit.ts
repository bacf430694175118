// What every page and form of the web app shares: who is signed in, the page's words, writing a
// page with the app's strict headers, and refusing another site's form. Each group of pages
// (account-routes.ts, reading-routes.ts, search-routes.ts, …) takes this kit, so a new page is a
// new file and a row in the one route table (api/create-app.ts), not an edit of a shared handler.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { h } from 'preact';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { ApiKey } from '../../shared/config/security';
import { categoryLogger, type Logger } from '../../shared/logger';
import type { Store, SummaryKey } from '../../shared/store/types';
import type { ApiCache } from '../cache';
import { compress, negotiateCoding } from '../http/content-coding';
import { field, html as htmlAnswer, seeOther as seeOtherAnswer, text as textAnswer } from '../http/answer';
import { counterFor } from '../http/keyed';
import type { KeySource } from '../http/key-source';
import type { ChannelFollowing } from '../registration/following';
import { FollowRecorder } from '../registration/follow-recorder';
import { localeOf, wordsOf, type Words } from './i18n';
import { renderPage, signInBody, type PageContext } from './pages';
import { cookie, cookieOf, crossSite, pageFields, PRE_COOKIE, sameToken, SESSION_COOKIE } from './security';
import { SessionTable, type Session } from './sessions';

export interface WebAppDeps {
  store: Store;
  keys: KeySource;
  clock: () => Date;
  logger: Logger;
  /** This app's origin as its clients reach it (PUBLIC_BASE_URL, else the request's). */
  originOf: (req: IncomingMessage) => string;
  /** PLAYER_EMBED_URL: the platform's embedded player, <it>/<video id>. */
  playerEmbedUrl?: string;
  /** CRAWL_IMPORT_CHANNELS_PER_KEY_HOUR, for the subscriptions page's imports (as POST /subscriptions's). */
  importChannelsPerKeyHour?: number;
  /** GET /'s resolve → register → follow steps (registration/following.ts), for the Add box. */
  following: ChannelFollowing;
  /** The API's one cache: an unfollow here is forgotten by the feed routes' follow recorder too. */
  cache: ApiCache;
  /** Which stored summaries the transcript page shows (SUMMARY_LANGUAGE, the prompt in force); default as feeds'. */
  summaryKey?: SummaryKey;
}

/** A live session and the key it stands for. */
export interface SignedIn {
  readonly id: string;
  readonly session: Session;
  readonly key: ApiKey;
}

export interface AppKit {
  readonly deps: WebAppDeps;
  readonly log: Logger;
  readonly sessions: SessionTable;
  /** PLAYER_EMBED_URL (or the platform's default) and its origin, the one frame the CSP allows. */
  readonly embedBase: string;
  readonly embedOrigin: string;
  /** Whether the app is reached over HTTPS (cookies then get `Secure`). */
  secure(req: IncomingMessage): boolean;
  signedIn(req: IncomingMessage): Promise<SignedIn | null>;
  context(req: Request, signed: SignedIn | null): PageContext;
  /** A page with the app's headers; `frameOrigin` only for a page that embeds the player. */
  send(res: Response, status: number, html: string, frameOrigin?: string | null): void;
  signInPage(req: Request, res: Response, status: number, error: ((w: Words) => string) | null): void;
  /** A 303 to an app path (a form's `back`, say), percent-encoded as a Location must be. */
  seeOther(res: Response, path: string): void;
  /** A page for signed-in readers only: without a session, the sign-in form (its URL unchanged). */
  reading(page: (req: Request, res: Response, signed: SignedIn) => Promise<void>): RequestHandler;
  /** A form post of a signed-in reader: another site's post and one without the session's CSRF token are refused (403). */
  posting(action: (req: Request, res: Response, signed: SignedIn, body: Record<string, unknown>) => Promise<void>): RequestHandler[];
  /** Refuses another site's POST before anything reads its body's meaning. */
  readonly sameOrigin: RequestHandler;
  /** application/x-www-form-urlencoded bodies, small. */
  readonly form: RequestHandler;
  /** Following as GET / follows (the Add box, the Follow buttons). */
  readonly follow: ChannelFollowing;
  /** The feed routes' record of follows (in the shared cache), which an unfollow clears. */
  readonly followRecorder: FollowRecorder;
}

/** The platform's embedded player (PLAYER_EMBED_URL's default). */
const DEFAULT_PLAYER_EMBED_URL = 'https://www.youtube.com/embed';

export const randomToken = (): string => randomBytes(24).toString('base64url');

export function appKit(deps: WebAppDeps): AppKit {
  const log = categoryLogger(deps.logger, 'webapp');
  const embedBase = deps.playerEmbedUrl ?? DEFAULT_PLAYER_EMBED_URL;
  const sessions = new SessionTable(deps.store, (err) => log.warning({ event: 'webapp_session_sweep_failed', err }, 'sweeping idle app sessions failed'));
  const secure = (req: IncomingMessage): boolean => deps.originOf(req).startsWith('https:');
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });

  async function signedIn(req: IncomingMessage): Promise<SignedIn | null> {
    const id = cookieOf(req, SESSION_COOKIE);
    if (id === null) return null;
    const session = await sessions.find(id, deps.clock());
    if (session === null) return null;
    // A disabled or removed key ends its sessions at the next request.
    const key = deps.keys.keys.find((k) => k.keyId === session.keyId && k.enabled) ?? null;
    if (key === null) {
      await sessions.close(id);
      return null;
    }
    return { id, session, key };
  }

  function context(req: Request, signed: SignedIn | null): PageContext {
    const locale = localeOf(req, req.query.lang);
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    query.delete('lang');
    return { locale, words: wordsOf(locale), path: req.path, query: query.toString(), signedIn: signed === null ? null : { csrf: signed.session.csrf, admin: signed.key.role === 'admin' } };
  }

  // Pages are compressed as feeds are (api/http/content-coding.ts: the same negotiation, gzip or br
  // at the same quality, on zlib's thread pool): a one-hour transcript page is ~95 KB of HTML and
  // ~26 KB compressed. Unlike a feed's, a page is not cached (it carries the session's CSRF token
  // and is sent no-store), so it is compressed per request.
  function send(res: Response, status: number, html: string, frameOrigin: string | null = null): void {
    // Compressed as feeds are (the same Accept-Encoding rules), per request: a page carries the
    // session's CSRF token and is never cached.
    const fields = [...pageFields(frameOrigin), 'Vary', 'Accept-Encoding'];
    const coding = negotiateCoding(res.req.headers['accept-encoding']);
    if (coding === 'identity') return htmlAnswer(res, status, html, fields);
    compress(coding, Buffer.from(html)).then(
      (body) => textAnswer(res, status, 'text/html; charset=utf-8', body, [...fields, 'Content-Encoding', coding]),
      (err: unknown) => {
        log.error({ event: 'webapp_compress_failed', err }, 'compressing an app page failed; sent uncompressed');
        if (!res.headersSent) htmlAnswer(res, status, html, fields);
      },
    );
  }

  function signInPage(req: Request, res: Response, status: number, error: ((w: Words) => string) | null): void {
    let pre = cookieOf(req, PRE_COOKIE);
    if (pre === null || !/^[A-Za-z0-9_-]{32}$/.test(pre)) {
      pre = randomToken();
      field(res, 'Set-Cookie', cookie(PRE_COOKIE, pre, secure(req), 3600));
    }
    const ctx = context(req, null);
    send(res, status, renderPage(ctx, ctx.words.signInTitle, signInBody(ctx.words, pre, error === null ? null : error(ctx.words))));
  }

  // As Express's redirect encoded it (encodeurl): characters a URL cannot carry, a lone surrogate as U+FFFD, an escape kept.
  const seeOther = (res: Response, path: string): void =>
    seeOtherAnswer(res, path.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD').replace(/(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]|%(?:[^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|$))+/g, encodeURI));

  // A signed-in page counts against its key's per-minute limit like any request (the key check's
  // own counter, api/http/keyed.ts, shared through the store by every process); over it, a page
  // saying how long to wait, with the status and Retry-After a feed would get.
  const counter = counterFor(deps.store);
  async function withinLimit(req: Request, res: Response, signed: SignedIn): Promise<boolean> {
    const now = deps.clock();
    const result = await counter.hit(signed.key.id, signed.key.rateLimit, now);
    field(res, 'X-RateLimit-Remaining', String(result.remaining));
    if (result.allowed) return true;
    const wait = Math.max(1, Math.ceil((result.resetAt.getTime() - now.getTime()) / 1000));
    field(res, 'Retry-After', String(wait));
    const ctx = context(req, signed);
    send(res, 429, renderPage(ctx, ctx.words.home, h('p', { class: 'error', role: 'alert' }, ctx.words.rateLimited(wait))));
    return false;
  }

  const reading: AppKit['reading'] = (page) => async (req, res) => {
    const signed = await signedIn(req);
    if (signed === null) return signInPage(req, res, 200, null);
    if (!(await withinLimit(req, res, signed))) return;
    await page(req, res, signed);
  };

  const sameOrigin: RequestHandler = (req, res, next) => {
    if (!crossSite(req, deps.originOf(req))) return next();
    log.warning({ event: 'webapp_cross_site_refused', path: req.path }, 'app form from another site refused');
    const ctx = context(req, null);
    send(res, 403, renderPage(ctx, ctx.words.signInTitle, ctx.words.refused));
  };

  const posting: AppKit['posting'] = (action) => [sameOrigin, form, async (req, res) => {
    const signed = await signedIn(req);
    if (signed === null) return signInPage(req, res, 401, null);
    if (!(await withinLimit(req, res, signed))) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sameToken(body.csrf, signed.session.csrf)) {
      log.warning({ event: 'webapp_csrf_refused', path: req.path }, 'app form without its session token refused');
      const ctx = context(req, signed);
      return send(res, 403, renderPage(ctx, ctx.words.home, ctx.words.refused));
    }
    await action(req, res, signed, body);
  }];

  return { deps, log, sessions, embedBase, embedOrigin: new URL(embedBase).origin, secure, signedIn, context, send, signInPage, seeOther, reading, posting, sameOrigin, form, follow: deps.following, followRecorder: new FollowRecorder(deps.store, deps.cache) };
}
