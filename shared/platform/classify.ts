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

/** The platform's answer to a retired client version: its status, or its message. */
const PRECONDITION = /FAILED_PRECONDITION|Precondition check failed/i;

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
    if (/INVALID_ARGUMENT/.test(a.body)) return { outcome: 'not_found', reason: 'HTTP 400 INVALID_ARGUMENT' };
    // A retired client version is refused outright, whatever is asked (docs/crawler.md §4): the
    // client's fault, so asking again per video as if it were transient only wastes requests.
    if (PRECONDITION.test(a.body)) return { outcome: 'transient', reason: 'HTTP 400 FAILED_PRECONDITION (this client version is retired)', signal: 'client_retired' };
    return { outcome: 'transient', reason: 'HTTP 400' };
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

/** Every text the answer gives for its refusal (reason, error screen's reason and subreason, messages), for the patterns below. */
function allReasonText(ps: Obj): string {
  const screen = obj(obj(ps.errorScreen).playerErrorMessageRenderer);
  const messages = Array.isArray(ps.messages) ? ps.messages.filter((m): m is string => typeof m === 'string') : [];
  return [typeof ps.reason === 'string' ? ps.reason : '', text(screen.reason), text(screen.subreason), ...messages].join(' ');
}

/**
 * An age check in every spelling the platform used by 2026 (yt-dlp's `_is_agegated`): the
 * statuses AGE_VERIFICATION_REQUIRED / AGE_CHECK_REQUIRED, a reason asking to confirm one's age or
 * calling the video age-restricted, and the older "may be inappropriate for some users".
 */
const AGE_STATUSES: ReadonlySet<string> = new Set(['AGE_VERIFICATION_REQUIRED', 'AGE_CHECK_REQUIRED']);
const AGE_REASON = /confirm your age|age[- ]restricted|inappropriate for some users/i;
/** The TV client's own fault (yt-dlp #17389, August 2026): not a word about the video. */
const RELOAD_REASON = /page needs to be reloaded/i;
/** VISIONOS (and ANDROID_VR) on a made-for-kids video, as UNPLAYABLE or, since July 2026, ERROR. */
const KIDS_REASON = /made for kids/i;
/** The embedded player on a video its owner keeps off other sites. */
const NOT_EMBEDDABLE_REASON = /playback on other websites has been disabled/i;

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
  const refusal = allReasonText(ps);
  if (AGE_STATUSES.has(status) || (status !== 'OK' && AGE_REASON.test(refusal))) {
    return { outcome: 'unavailable', reason: `age restricted: ${reason || status}`, signal: 'age_restricted' };
  }
  if (status !== 'OK' && RELOAD_REASON.test(refusal)) {
    return { outcome: 'transient', reason: `${status}: ${reason || 'the page needs to be reloaded'} (a fault of this client, not of the video)`, signal: 'client_fault' };
  }
  if ((status === 'UNPLAYABLE' || status === 'ERROR') && KIDS_REASON.test(refusal)) {
    return { outcome: 'unavailable', reason: `made for kids, not playable on this client: ${reason || status}`, signal: 'made_for_kids' };
  }
  if (status === 'UNPLAYABLE' && NOT_EMBEDDABLE_REASON.test(refusal)) {
    return { outcome: 'unavailable', reason: `not embeddable: ${reason}`, signal: 'not_embeddable' };
  }
  switch (status) {
    case 'OK':
      return obj(p.captions).playerCaptionsTracklistRenderer === undefined
        ? { outcome: 'no_captions', reason: 'the video has no captions (disabled or not ready yet)' }
        : OK;
    case 'LOGIN_REQUIRED':
      return { outcome: 'unavailable', reason: `sign-in required: ${reason || 'no reason given'}` };
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
