// Which of the languages readers asked for a channel keeps (the crawler fetches these for each new
// video and backfills the stored ones), decided the same way by both stores from the asks they
// keep: one per channel, key and language, with its time.
//
// Every language asked within LANGUAGE_KEEP_MS is a candidate. A key keeps at most
// LANGUAGES_KEPT_PER_KEY of its own (its oldest-asked go first); the channel keeps at most
// LANGUAGES_KEPT_PER_CHANNEL, chosen round by round over keys: every key's most recently asked
// language before anyone's second, then the seconds, and so on; within a round the most recently
// asked first. So one key asking many codes fills only its own rounds, and never pushes out the
// language another reader reads in (unless the channel has more readers with different first
// languages than it keeps).

/** Languages asked within this long are kept. */
export const LANGUAGE_KEEP_MS = 30 * 24 * 3_600_000;
/** Languages a channel keeps (fetched with each new video: one timed-text request each where offered). */
export const LANGUAGES_KEPT_PER_CHANNEL = 8;
/** Languages one key keeps per channel: as many as one `lang` names. */
export const LANGUAGES_KEPT_PER_KEY = 5;

export interface LanguageAsk {
  /** The key's id, '' when no key asked (an operator, a test). */
  keyId: string;
  language: string;
  askedAt: Date;
}

/** The channel's kept languages, at most `limit`, in the order above. */
export function chooseLanguages(asks: readonly LanguageAsk[], now: Date, limit: number): string[] {
  const since = now.getTime() - LANGUAGE_KEEP_MS;
  const byKey = new Map<string, LanguageAsk[]>();
  for (const a of asks) {
    if (a.askedAt.getTime() < since) continue;
    byKey.set(a.keyId, [...(byKey.get(a.keyId) ?? []), a]);
  }
  const best = new Map<string, { rank: number; at: number }>();
  for (const own of byKey.values()) {
    own.sort(newestFirst);
    own.slice(0, LANGUAGES_KEPT_PER_KEY).forEach((a, rank) => {
      const seen = best.get(a.language);
      const at = a.askedAt.getTime();
      if (seen === undefined) best.set(a.language, { rank, at });
      else best.set(a.language, { rank: Math.min(rank, seen.rank), at: Math.max(at, seen.at) });
    });
  }
  return [...best.entries()]
    .sort(([la, a], [lb, b]) => a.rank - b.rank || b.at - a.at || (la < lb ? -1 : la > lb ? 1 : 0))
    .slice(0, Math.max(0, limit))
    .map(([language]) => language);
}

const newestFirst = (a: LanguageAsk, b: LanguageAsk): number =>
  b.askedAt.getTime() - a.askedAt.getTime() || (a.language < b.language ? -1 : a.language > b.language ? 1 : 0);
