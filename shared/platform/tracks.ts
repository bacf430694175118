// Caption tracks of a player answer and the choice among them (docs/crawler.md §3.2–3.3): each wanted
// language in order, a manual track before an automatic one; else the video's first manual track,
// else its automatic one. Tracks whose URL needs a proof-of-origin token (exp=xpe) are never chosen.

import type { TranscriptKind } from '../store/types';
import { asArray, asString, dig, textOf } from './page-data';
import { speaks } from '../transcript/languages';

export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  name: string;
  kind: TranscriptKind;
  /** The URL carries exp=xpe or exp=xpv: fetching it without a token the service cannot make is pointless. */
  needsToken: boolean;
  /** `isTranslatable`: the platform translates it into any of `translationLanguages` (`&tlang=`). */
  translatable: boolean;
}

export function needsToken(baseUrl: string): boolean {
  const q = baseUrl.indexOf('?');
  if (q < 0) return false;
  const exp = new URLSearchParams(baseUrl.slice(q + 1)).get('exp');
  // yt-dlp checks both experiment flags: either means the URL answers nothing without a PO token.
  return exp !== null && exp.split(',').some((e) => e === 'xpe' || e === 'xpv');
}

export function captionTracks(player: unknown): CaptionTrack[] {
  const raw = asArray(dig(player, 'captions', 'playerCaptionsTracklistRenderer', 'captionTracks'));
  const tracks: CaptionTrack[] = [];
  for (const t of raw) {
    const baseUrl = asString(dig(t, 'baseUrl'));
    const languageCode = asString(dig(t, 'languageCode'));
    if (!baseUrl || !languageCode) continue;
    tracks.push({
      baseUrl,
      languageCode,
      name: textOf(dig(t, 'name')) ?? languageCode,
      kind: dig(t, 'kind') === 'asr' || /^a\./.test(asString(dig(t, 'vssId')) ?? '') ? 'automatic' : 'manual',
      needsToken: needsToken(baseUrl),
      translatable: dig(t, 'isTranslatable') === true,
    });
  }
  return tracks;
}

/** `en` matches `en`, `en-US`, `en-GB`; an exact code is still preferred by the order of the list. */
const trackSpeaks = (track: CaptionTrack, lang: string): boolean => speaks(track.languageCode, lang);

export function chooseTrack(all: readonly CaptionTrack[], languages: readonly string[]): CaptionTrack | null {
  const tracks = all.filter((t) => !t.needsToken);
  for (const lang of languages) {
    const found = trackIn(tracks, lang);
    if (found) return found;
  }
  return tracks.find((t) => t.kind === 'manual') ?? tracks.find((t) => t.kind === 'automatic') ?? null;
}

/** The video's own track in `lang` (manual before automatic, an exact code first); null if none. */
export function trackIn(all: readonly CaptionTrack[], lang: string): CaptionTrack | null {
  const tracks = all.filter((t) => !t.needsToken);
  for (const kind of ['manual', 'automatic'] as const) {
    const of = tracks.filter((t) => t.kind === kind && trackSpeaks(t, lang));
    const exact = of.find((t) => t.languageCode.toLowerCase() === lang.toLowerCase());
    if (exact ?? of[0]) return (exact ?? of[0])!;
  }
  return null;
}

/** `translationLanguages[].languageCode`: what a translatable track can be translated into. */
export function translationLanguages(player: unknown): string[] {
  return asArray(dig(player, 'captions', 'playerCaptionsTracklistRenderer', 'translationLanguages'))
    .map((l) => asString(dig(l, 'languageCode')))
    .filter((c): c is string => c !== null && /^[A-Za-z0-9-]{2,20}$/.test(c));
}

/** The offered code for `lang` (`pt` → `pt-BR` only when no plain `pt` is offered); null if none. */
export function offeredCode(offered: readonly string[], lang: string): string | null {
  const want = lang.toLowerCase();
  return offered.find((c) => c.toLowerCase() === want) ?? offered.find((c) => c.toLowerCase().startsWith(`${want}-`)) ?? null;
}

/**
 * The caption URL without `fmt`, which makes the platform answer the plain timed-text XML. The
 * other parameters are kept byte for byte: they are covered by the URL's signature.
 */
export function plainTimedTextUrl(baseUrl: string): string {
  const q = baseUrl.indexOf('?');
  if (q < 0) return baseUrl;
  const kept = baseUrl.slice(q + 1).split('&').filter((p) => p !== '' && !/^fmt(=|$)/.test(p));
  return kept.length ? `${baseUrl.slice(0, q)}?${kept.join('&')}` : baseUrl.slice(0, q);
}
