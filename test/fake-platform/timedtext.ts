// GET /api/timedtext: caption URLs the player hands out, and the three bodies a client can get
// from them (docs/crawler.md §3): plain `<transcript>` (text escaped twice, `&amp;#39;`), `fmt=json3`
// and `fmt=srv3`. URLs are signed like the real ones; an unsigned, expired or tampered URL, or one
// marked `exp=xpe` (needs a proof-of-origin token the service cannot make), gets the platform's
// refusal: an empty 200. With the stall switch on, that refusal comes late (timedTextStall).

import { createHmac, randomBytes } from 'node:crypto';
import type { FakeCue } from './types';
import type { CaptionTrack } from './catalog';
import type { FakeContext } from './context';
import { empty, escapeXml, json, xml, type FakeRequest, type FakeResponse } from './http';

const SECRET = randomBytes(16);

/** What the fake translates into (`&tlang=`); the real answers offer 18 to 156. */
export const TRANSLATION_LANGUAGES: readonly string[] = ['de', 'en', 'es', 'fr', 'ja', 'tr'];
const URL_LIFETIME_S = 6 * 3600;

function sign(v: string, lang: string, kind: string, expire: string, exp: string): string {
  const mac = createHmac('sha1', SECRET).update([v, lang, kind, expire, exp].join('|')).digest('hex').toUpperCase();
  return `${mac}.${mac.split('').reverse().join('')}`;
}

export interface CaptionUrlOptions {
  /** `srv3` like ANDROID's tracks; null like VISIONOS's (no fmt). */
  fmt: 'srv3' | null;
  /** WEB-family clients: the URL carries `exp=xpe` and is refused without a token. */
  needsToken: boolean;
  /** Which experiment flag marks a token-bound URL (default `xpe`; yt-dlp checks `xpv` too). */
  exp?: 'xpe' | 'xpv';
}

/** An absolute caption URL on the fake's host, parameters in the real order. */
export function captionUrl(origin: string, videoId: string, track: CaptionTrack, opts: CaptionUrlOptions): string {
  const expire = String(Math.floor(Date.now() / 1000) + URL_LIFETIME_S);
  const kind = track.kind === 'asr' ? 'asr' : '';
  const exp = opts.needsToken ? (opts.exp ?? 'xpe') : '';
  const q = new URLSearchParams({ v: videoId, ei: 'xp1JaMfUBcyLzPsP9ren4QQ', caps: 'asr', opi: '112496729' });
  if (exp) q.set('exp', exp);
  q.set('xoaf', '5');
  q.set('hl', 'en');
  q.set('ip', '0.0.0.0');
  q.set('ipbits', '0');
  q.set('expire', expire);
  q.set('sparams', `ip,ipbits,expire,v,ei,caps,opi${exp ? ',exp' : ''},xoaf`);
  q.set('signature', sign(videoId, track.languageCode, kind, expire, exp));
  q.set('key', 'yt8');
  if (kind) q.set('kind', kind);
  q.set('lang', track.languageCode);
  if (opts.fmt) q.set('fmt', opts.fmt);
  // URLSearchParams writes the commas of sparams as %2C; the platform leaves them bare.
  return `${origin}/api/timedtext?${q.toString().replace(/%2C/g, ',')}`;
}

/** Whether a request is one the platform would serve: signed, fresh, and token-bound only with a token. */
function acceptable(q: URLSearchParams, tokenValid: boolean): boolean {
  const exp = q.get('exp') ?? '';
  if ((exp === 'xpe' || exp === 'xpv') && !tokenValid) return false;
  const expire = q.get('expire') ?? '';
  if (!/^\d+$/.test(expire) || Number(expire) * 1000 < Date.now()) return false;
  return q.get('signature') === sign(q.get('v') ?? '', q.get('lang') ?? '', q.get('kind') ?? '', expire, exp);
}

function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Seconds as the platform writes them: up to 3 decimals, no trailing zeros. */
function secs(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Cues without `dur` last until the next one (srv3/json3 always state a duration). */
function durationMs(cues: FakeCue[], i: number): number {
  const cue = cues[i] as FakeCue;
  if (cue.dur !== undefined) return Math.round(cue.dur * 1000);
  const next = cues[i + 1];
  return Math.max(1, Math.round(((next ? next.start : cue.start + 2) - cue.start) * 1000));
}

/** The plain format: HTML-escaped text, XML-escaped again; `dur` left out where the cue has none. */
export function plainTranscript(cues: FakeCue[]): string {
  const lines = cues.map((cue) => {
    const dur = cue.dur !== undefined ? ` dur="${secs(cue.dur)}"` : '';
    return `<text start="${secs(cue.start)}"${dur}>${escapeXml(htmlEscape(cue.text))}</text>`;
  });
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${lines.join('')}</transcript>`;
}

function words(text: string): string[] {
  return text.split(/(?= )/);
}

/** fmt=srv3: milliseconds, `<s>` word segments on automatic tracks. */
export function srv3Transcript(cues: FakeCue[], asr: boolean): string {
  const ps = cues.map((cue, i) => {
    const t = Math.round(cue.start * 1000);
    const d = durationMs(cues, i);
    if (!asr || cue.text === '') return `<p t="${t}" d="${d}">${escapeXml(cue.text)}</p>`;
    const step = Math.floor(d / Math.max(1, words(cue.text).length));
    const segs = words(cue.text).map((w, k) => `<s${k ? ` t="${k * step}"` : ''} ac="0">${escapeXml(w)}</s>`);
    return `<p t="${t}" d="${d}" w="1">${segs.join('')}</p>`;
  });
  return (
    `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">\n<head>\n<ws id="0"/>\n<ws id="1" mh="2" ju="0" sd="3"/>\n` +
    `<wp id="0"/>\n<wp id="1" ap="6" ah="20" av="100" rc="2" cc="40"/>\n</head>\n<body>\n${ps.join('\n')}\n</body>\n</timedtext>\n`
  );
}

/** fmt=json3: events with `segs`, plus the styling events without segs a parser must skip. */
export function json3Transcript(cues: FakeCue[], asr: boolean): unknown {
  const last = cues[cues.length - 1];
  const total = last ? Math.round((last.start + (last.dur ?? 2)) * 1000) : 0;
  const events: unknown[] = [{ tStartMs: 0, dDurationMs: total, id: 1, wpWinPosId: 1, wsWinStyleId: 1 }];
  cues.forEach((cue, i) => {
    const tStartMs = Math.round(cue.start * 1000);
    const dDurationMs = durationMs(cues, i);
    if (cue.text === '') {
      events.push({ tStartMs, dDurationMs, wWinId: 1 });
      return;
    }
    if (!asr) {
      events.push({ tStartMs, dDurationMs, segs: [{ utf8: cue.text }] });
      return;
    }
    const step = Math.floor(dDurationMs / Math.max(1, words(cue.text).length));
    const segs = words(cue.text).map((utf8, k) => (k ? { utf8, tOffsetMs: k * step, acAsrConf: 0 } : { utf8, acAsrConf: 0 }));
    events.push({ tStartMs, dDurationMs, wWinId: 1, segs });
    // Automatic tracks interleave line breaks as appended events.
    events.push({ tStartMs: tStartMs + dDurationMs, dDurationMs: 1, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] });
  });
  return { wireMagic: 'pb3', pens: [{}], wsWinStyles: [{}, { mhModeHint: 2, juJustifCode: 0, sdScrollDir: 3 }], wpWinPositions: [{}, { apPoint: 6, ahHorPos: 20, avVerPos: 100, rcRows: 2, ccCols: 40 }], events };
}

export function timedTextRoute(ctx: FakeContext, req: FakeRequest): FakeResponse {
  const q = req.query;
  const videoId = q.get('v') ?? '';
  const exp = q.get('exp') ?? '';
  const stallMs = ctx.scenarios.timedTextStallFor(exp === 'xpe' || exp === 'xpv');
  if (stallMs !== null) return { ...empty(), stallMs };
  if (ctx.scenarios.timedTextRefusedFor(videoId) || ctx.scenarios.take('emptyTimedText')) return empty();
  if (!acceptable(q, ctx.tokens.valid(q.get('pot')))) return empty();
  const hosted = ctx.catalog.video(videoId);
  const asr = q.get('kind') === 'asr';
  const track = hosted && ctx.catalog.tracks(hosted.video).find((t) => t.languageCode === q.get('lang') && (t.kind === 'asr') === asr);
  // A track that does not exist is refused the same way.
  if (!track) return empty();
  // Machine translation (platform §3): `tlang` is appended to the signed URL, outside the signature;
  // a language not offered is refused like a bad URL.
  const tlang = q.get('tlang');
  if (tlang !== null && !TRANSLATION_LANGUAGES.includes(tlang)) return empty();
  const cues = tlang === null ? track.cues : translatedCues(track.cues, tlang);
  const fmt = q.get('fmt');
  if (fmt === 'json3') return json(json3Transcript(cues, asr));
  if (fmt === 'srv3') return xml(srv3Transcript(cues, asr));
  return xml(plainTranscript(cues));
}

/** The fake's "translation": the same timing, each text marked with its target language. */
export function translatedCues(cues: readonly FakeCue[], tlang: string): FakeCue[] {
  return cues.map((c) => ({ ...c, text: c.text === '' ? '' : `[${tlang}] ${c.text}` }));
}
