// Signing in and out (home: follow-routes.ts). The key goes in a POST body and only its session's random
// id goes in a cookie; the key is never in an /app/ URL, and a failed attempt's text is never logged.

import type { RequestHandler } from 'express';
import { field } from '../http/answer';
import { matchKey } from '../http/keyed';
import type { AppKit } from './kit';
import { renderPage } from './pages';
import { cookie, cookieOf, PRE_COOKIE, sameToken, SESSION_COOKIE } from './security';
import { SESSION_IDLE_MS } from './sessions';
import { SignInLimiter } from './sign-in-limit';

export interface AccountRoutes {
  signIn: RequestHandler[];
  signOut: RequestHandler[];
}

export function accountRoutes(kit: AppKit): AccountRoutes {
  const { deps, log, sessions } = kit;
  const limiter = new SignInLimiter(deps.store);

  const signIn: RequestHandler = async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const pre = cookieOf(req, PRE_COOKIE);
    const ctx = kit.context(req, null);
    if (pre === null || !sameToken(body.csrf, pre)) return kit.send(res, 403, renderPage(ctx, ctx.words.signInTitle, ctx.words.refused));
    const address = req.socket.remoteAddress ?? '';
    const now = deps.clock();
    let wait: number;
    try {
      wait = await limiter.waitSeconds(address, now);
    } catch (err) {
      // The count is in the store: without it no attempt is checked (and no session could be kept).
      log.error({ event: 'webapp_sign_in_limit_failed', err }, 'app sign-in: reading the failed sign-in count failed');
      return kit.signInPage(req, res, 503, (w) => w.signInUnavailable);
    }
    if (wait > 0) return kit.signInPage(req, res, 429, (w) => w.tooManyAttempts(wait));
    const key = typeof body.api_key === 'string' && body.api_key !== '' ? matchKey(body.api_key, deps.keys.keys) : null;
    if (key === null) {
      try {
        await limiter.failed(address, now);
      } catch (err) {
        log.error({ event: 'webapp_sign_in_limit_failed', err }, 'app sign-in: counting a failed sign-in failed');
      }
      // Never the attempted text: a mistyped key is most of a real one.
      log.info({ event: 'webapp_sign_in_failed', address }, 'app sign-in failed');
      return kit.signInPage(req, res, 401, (w) => w.signInFailed);
    }
    let id: string;
    try {
      ({ id } = await sessions.open(key.keyId, now));
    } catch (err) {
      // No cookie for a session the store does not hold: the reader is told, and may try again.
      log.error({ event: 'webapp_session_write_failed', key: key.name, err }, 'app sign-in: storing the session failed');
      return kit.signInPage(req, res, 503, (w) => w.signInUnavailable);
    }
    field(res, 'Set-Cookie', cookie(SESSION_COOKIE, id, kit.secure(req), SESSION_IDLE_MS / 1000));
    field(res, 'Set-Cookie', cookie(PRE_COOKIE, '', kit.secure(req), 0));
    log.info({ event: 'webapp_signed_in', key: key.name }, 'app sign-in');
    kit.seeOther(res, '/app/');
  };

  // Not `kit.posting`: signing out without a live session still clears the cookie, and is no error.
  const signOut: RequestHandler = async (req, res) => {
    const signed = await kit.signedIn(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (signed !== null && !sameToken(body.csrf, signed.session.csrf)) {
      const ctx = kit.context(req, signed);
      return kit.send(res, 403, renderPage(ctx, ctx.words.home, ctx.words.refused));
    }
    if (signed !== null) await sessions.close(signed.id);
    field(res, 'Set-Cookie', cookie(SESSION_COOKIE, '', kit.secure(req), 0));
    kit.seeOther(res, '/app/');
  };

  return { signIn: [kit.sameOrigin, kit.form, signIn], signOut: [kit.sameOrigin, kit.form, signOut] };
}
