// Every answer of the platform is judged here, and only here, before anyone acts on it
// (docs/crawler.md §4): ok, consent (handled inside the HTTP client), blocked, unavailable, no_captions,
// not_found or transient, each with a reason that is safe to log and store. The callers parse the
// content; this module says whether there is content worth parsing.

import { findStartTag } from './html-tags';
import { PlatformError, type BlockKind, type PlatformOutcome, type PlatformSignal } from './types';

/** One answer as the HTTP client received it (body already decompressed). */
export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  /** Location header of a redirect the client did not follow. */
  location: string | null;
}

export type Verdict =
  | { outcome: 'ok' }
  | { outcome: 'consent'; reason: string; /** hidden `v` of the consent form, when there is one */ consentValue: string | null }
  | { outcome: Exclude<PlatformOutcome, 'ok' | 'consent'>; reason: string; signal?: PlatformSignal; block?: BlockKind };

const OK: Verdict = { outcome: 'ok' };

const looksLikeHtml = (a: RawAnswer): boolean =>
  /html/i.test(a.contentType) || /^\s*<(!doctype|html)/i.test(a.body.slice(0, 200));

/** The captcha wall served with 429 or 200 (captured in test/fixtures/platform-captures/captcha-429.html). */
export function isCaptchaPage(html: string): boolean {
  return /class=["'][^"']*\bg-recaptcha\b/.test(html) || /<form[^>]+action=["'][^"']*\/das_captcha/i.test(html);
}

/**
 * A JavaScript challenge page (Cloudflare, DDoS-Guard, or any small page whose only job is to set a
 * clearance cookie and reload). The challenge proxy answers 200 for these, so the HTML must say it.
 */
export function isChallengePage(html: string): boolean {
  if (/cf-chl|challenge-platform|<title>Just a moment\.\.\.<\/title>|ddos-guard/i.test(html)) return true;
  return html.length < 64 * 1024 && /document\.cookie\s*=/.test(html) && /location\.(reload|replace)|location\.href\s*=/.test(html);
}

export const CONSENT_ACTION = /\saction=["']https:\/\/consent\.youtube\.com\/s["']/i;
export const V_NAME = /\sname=["']v["']/i;
export const INPUT_VALUE = /\svalue=["']([^"']*)["']/i;

/** The EU consent wall: a form posting to consent.youtube.com/s. Returns its hidden `v`, or '' without one. */
export function consentFormValue(html: string): string | null {
  if (findStartTag(html, 'form', CONSENT_ACTION) === null) return null;
  const input = findStartTag(html, 'input', V_NAME);
  return input === null ? '' : (INPUT_VALUE.exec(input)?.[1] ?? '');
}

/** Transport and page level: status codes, redirects, captcha and consent walls. */
export function classifyAnswer(a: RawAnswer): Verdict {
  if (a.status === 429) return { outcome: 'blocked', reason: 'HTTP 429 (rate limited)', block: 'http_429' };
  if (a.location !== null) {
    if (/^https?:\/\/consent\.(youtube|google)\.com\//i.test(a.location)) {
      return { outcome: 'consent', reason: 'redirect to the consent wall', consentValue: null };
    }
    if (/\/sorry\//.test(a.location)) return { outcome: 'blocked', reason: 'redirect to the "sorry" captcha', block: 'captcha' };
    return { outcome: 'transient', reason: `unexpected redirect (HTTP ${a.status})` };
  }
  if (looksLikeHtml(a)) {
    if (isCaptchaPage(a.body)) return { outcome: 'blocked', reason: 'captcha wall', block: 'captcha' };
    if (isChallengePage(a.body)) return { outcome: 'blocked', reason: 'JavaScript challenge', block: 'js_challenge' };
    const v = consentFormValue(a.body);
    if (v !== null) return { outcome: 'consent', reason: 'consent form', consentValue: v || null };
  }
  if (a.status >= 500) return { outcome: 'transient', reason: `HTTP ${a.status}` };
  if (a.status === 401 || a.status === 403) return { outcome: 'blocked', reason: `HTTP ${a.status} (refused)` };
  if (a.status === 404 || a.status === 410) return { outcome: 'not_found', reason: `HTTP ${a.status}` };
  if (a.status === 400) {
    return /INVALID_ARGUMENT/.test(a.body)
      ? { outcome: 'not_found', reason: 'HTTP 400 INVALID_ARGUMENT' }
      : { outcome: 'transient', reason: 'HTTP 400' };
  }
  if (a.status < 200 || a.status >= 300) return { outcome: 'transient', reason: `HTTP ${a.status}` };
  return OK;
}

/** JSON of an answer the caller expects JSON from; unparsable is transient (docs/crawler.md §4). */
export function parseJsonAnswer(a: RawAnswer, what: string): unknown {
  try {
    return JSON.parse(a.body) as unknown;
  } catch {
    throw new PlatformError('transient', `${what}: unparsable JSON`);
  }
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown): string => {
  const o = obj(v);
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (Array.isArray(o.runs)) return o.runs.map((r) => String(obj(r).text ?? '')).join('');
  return '';
};

/**
 * The player's "This content isn't available, try again later" (either apostrophe, with or without
 * the full stop): the session is rate-limited for up to an hour, so the crawler cools down for tens
 * of minutes instead of the short blocked wait (docs/crawler.md §4). It stays `blocked` so every
 * caller's block handling still applies; the signal tells it apart.
 */
const TRY_AGAIN_LATER = /content isn['’]t available, try again later/i;

/** The player's own words for why it will not play, wherever this client version put them. */
function playabilityReason(ps: Obj): string {
  if (typeof ps.reason === 'string' && ps.reason) return ps.reason;
  const screen = obj(obj(ps.errorScreen).playerErrorMessageRenderer);
  const fromScreen = text(screen.reason);
  if (fromScreen) return fromScreen;
  if (Array.isArray(ps.messages) && typeof ps.messages[0] === 'string') return ps.messages[0];
  return '';
}

/** The InnerTube player answer (docs/crawler.md §3.2 and §4). `ok` means captions are listed. */
export function classifyPlayer(player: unknown, videoId: string): Verdict {
  const p = obj(player);
  const ps = obj(p.playabilityStatus);
  const status = typeof ps.status === 'string' ? ps.status : '';
  const reason = playabilityReason(ps);
  // Both apostrophes occur; the platform writes U+2019 in the bot check.
  if (/not a bot/i.test(reason)) return { outcome: 'blocked', reason: `bot check: ${reason}`, block: 'bot_check' };
  // The 2026 captcha before playback, whatever the status says (docs/crawler.md §4).
  if (obj(ps.errorScreen).playerCaptchaViewModel !== undefined) return { outcome: 'blocked', reason: `captcha (playerCaptchaViewModel)${reason ? `: ${reason}` : ''}`, block: 'captcha' };
  if (TRY_AGAIN_LATER.test(reason)) return { outcome: 'blocked', reason: `session rate-limited (try again later): ${reason}`, signal: 'session_rate_limited', block: 'session_rate_limit' };
  const details = obj(p.videoDetails);
  if (typeof details.videoId === 'string' && details.videoId !== videoId) {
    return { outcome: 'blocked', reason: `player answered for another video (${details.videoId}): poisoned answers`, signal: 'poisoned', block: 'poisoned' };
  }
  switch (status) {
    case 'OK':
      return obj(p.captions).playerCaptionsTracklistRenderer === undefined
        ? { outcome: 'no_captions', reason: 'the video has no captions (disabled or not ready yet)' }
        : OK;
    case 'LOGIN_REQUIRED':
      return { outcome: 'unavailable', reason: /inappropriate/i.test(reason) ? `age restricted: ${reason}` : `sign-in required: ${reason || 'no reason given'}` };
    case 'ERROR':
    case 'UNPLAYABLE':
    case 'CONTENT_CHECK_REQUIRED':
      return { outcome: 'unavailable', reason: `${status}: ${reason || 'no reason given'}` };
    case 'LIVE_STREAM_OFFLINE':
      // A premiere or stream that has not aired (the reason is its countdown): an upcoming video.
      return { outcome: 'no_captions', reason: `live stream not started: ${reason || 'offline'}`, signal: 'not_aired' };
    default:
      return { outcome: 'transient', reason: `player answered with unknown status "${status || 'none'}"` };
  }
}

/** A timed-text body: an empty 200 is the platform refusing, not an empty transcript. */
export function classifyTimedText(a: RawAnswer): Verdict {
  const v = classifyAnswer(a);
  if (v.outcome !== 'ok') return v;
  return a.body.trim() === '' ? { outcome: 'blocked', reason: 'empty timed-text answer (token missing or soft block)', block: 'empty_timed_text' } : OK;
}

/** A browse answer of a channel that does not exist (or was removed) still comes with HTTP 200. */
export function classifyBrowse(json: unknown): Verdict {
  const alerts = obj(json).alerts;
  if (Array.isArray(alerts)) {
    for (const a of alerts) {
      const r = obj(obj(a).alertRenderer);
      if (r.type === 'ERROR') return { outcome: 'not_found', reason: text(r.text) || 'channel not available' };
    }
  }
  return OK;
}
