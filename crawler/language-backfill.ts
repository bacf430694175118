// The videos stored before a reader asked for a language: a language is fetched with
// every new video, but the channel's stored ones need one more visit each. This picks, among the
// listed window, the ready videos that lack a language still to be backfilled (their own language
// counts); the run fetches them like any pending video (player + one timed text per language), and
// marks the languages covered once the run got through, so a language a video simply does not
// have is not asked for again. A video whose stored answer listed what it offers is asked only
// for a language on that list.

import type { ListedVideo } from '../shared/platform/types';
import type { StoredTextStore } from '../shared/store/types';
import { speaks } from '../shared/transcript/languages';

/** The listed videos to fetch again for `languages`, in listing order; none already pending. */
export async function videosLackingLanguages(
  store: StoredTextStore,
  listed: readonly ListedVideo[],
  pending: readonly ListedVideo[],
  languages: readonly string[],
): Promise<ListedVideo[]> {
  if (languages.length === 0) return [];
  const queued = new Set(pending.map((v) => v.videoId));
  const candidates = listed.filter((v) => !queued.has(v.videoId));
  const ids = candidates.map((v) => v.videoId);
  const ready = new Map((await store.getVideos(ids)).filter((v) => v.state === 'ready').map((v) => [v.videoId, v]));
  const rows = await store.getTranscripts([...ready.keys()]);
  return candidates.filter((listedVideo) => {
    const v = ready.get(listedVideo.videoId);
    if (v === undefined) return false;
    const has = (lang: string): boolean => (v.language !== null && speaks(v.language, lang)) || rows.some((r) => r.videoId === v.videoId && speaks(r.language, lang));
    // The stored answer's own list: a language it did not offer would cost a player call for
    // nothing (null: stored before the list was kept, so asked once).
    const offered = v.offeredLanguages ?? null;
    const mayHave = (lang: string): boolean => offered === null || offered.some((code) => speaks(code, lang));
    return languages.some((lang) => !has(lang) && mayHave(lang));
  });
}
