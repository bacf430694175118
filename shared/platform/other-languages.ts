// The reader's other languages for one video, from the player answer already in hand
// (docs/crawler.md §3): the video's own track in that language when it has one, else the platform's
// machine translation of a translatable track (`&tlang=<code>`, only into a language the answer
// offers). One timed-text request per language, no new player call. A language that fails is left
// out (the video's main transcript is stored all the same) and logged.

import type { Logger } from '../logger';
import { timedParagraphs } from '../transcript/paragraphs';
import type { PlatformHttp } from './http-client';
import { fetchSpokenCues } from './timed-text-fetch';
import { captionTracks, offeredCode, plainTimedTextUrl, trackIn, translationLanguages, type CaptionTrack } from './tracks';
import { PlatformError } from './types';
import type { LanguageTranscript } from '../transcript/types';
import { speaks } from '../transcript/languages';

/**
 * At most this many languages besides the main one: as many as a channel keeps for its readers
 * (LANGUAGES_KEPT_PER_CHANNEL). A code the player answer does not offer costs no request.
 */
export const MAX_OTHER_LANGUAGES = 8;

export interface OtherLanguagesInput {
  videoId: string;
  player: unknown;
  /** The track of the main transcript (never fetched again). */
  main: CaptionTrack;
  languages: readonly string[];
  /** Chapter starts, so that these paragraphs break where the main transcript's do. */
  boundariesMs: readonly number[];
  log: Logger;
}

/** What a later backfill may ask of this video: its fetchable tracks, and translations when one is translatable. */
export function offeredLanguages(player: unknown): string[] {
  const tracks = captionTracks(player).filter((t) => !t.needsToken);
  const targets = tracks.some((t) => t.translatable) ? translationLanguages(player) : [];
  return [...new Set([...tracks.map((t) => t.languageCode), ...targets])];
}

export async function fetchOtherLanguages(http: PlatformHttp, input: OtherLanguagesInput): Promise<LanguageTranscript[]> {
  const { videoId, player, main, log } = input;
  const tracks = captionTracks(player).filter((t) => !t.needsToken);
  const offered = translationLanguages(player);
  const source = main.translatable ? main : (tracks.find((t) => t.translatable) ?? null);
  const out: LanguageTranscript[] = [];
  for (const lang of input.languages) {
    if (out.length >= MAX_OTHER_LANGUAGES) break;
    if (speaks(main.languageCode, lang) || out.some((o) => speaks(o.language, lang))) continue;
    const own = trackIn(tracks, lang);
    const code = own === null ? offeredCode(offered, lang) : null;
    if (own === null && (code === null || source === null)) {
      log.debug({ videoId, lang }, 'no track in this language and no translation offered into it');
      continue;
    }
    const target = own !== null ? plainTimedTextUrl(own.baseUrl) : `${plainTimedTextUrl(source!.baseUrl)}&tlang=${encodeURIComponent(code!)}`;
    const language = own?.languageCode ?? code!;
    try {
      const cues = await fetchSpokenCues(http, videoId, target, language);
      out.push({ language, kind: own?.kind ?? 'translated', paragraphs: timedParagraphs(cues, input.boundariesMs), cueCount: cues.length });
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      log.info({ videoId, lang: language, outcome: err.outcome, reason: err.reason }, 'a wanted language could not be fetched; the main transcript is kept');
    }
  }
  return out;
}
