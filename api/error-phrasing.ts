// The Turkish sentences of the "no feed yet" 404s (api/errors.ts noVideosYet, noPlaylistVideosYet,
// handleNotReached): what the crawler knows of the work item and when it tries again, in the
// grammatical cases the sentences need.

import type { CrawlView } from './feed/crawl-view';

/** "2026-11-25 16:30 UTC'de", or "birazdan" when the time has come (the crawler is behind). */
function whenTurkish(at: Date, now: Date): string {
  if (at.getTime() <= now.getTime()) return 'birazdan';
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC'de`;
}


/** The work item in the 404's message, in the Turkish cases the sentences need. */
export interface Noun {
  /** "bu kanala" */
  readonly dative: string;
  /** "bu kanalı" */
  readonly accusative: string;
  /** "bu kanalın" */
  readonly genitive: string;
}
export const CHANNEL_NOUN: Noun = { dative: 'kanala', accusative: 'kanalı', genitive: 'kanalın' };
export const PLAYLIST_NOUN: Noun = { dative: 'oynatma listesine', accusative: 'oynatma listesini', genitive: 'oynatma listesinin' };

/** The 404's message: what the crawler knows, instead of always "a few minutes". */
export function noVideosMessage(crawl: CrawlView | undefined, n: Noun): string {
  switch (crawl?.state) {
    case undefined:
    case 'waiting':
      return `Tarayıcı bu ${n.dative} henüz bakmadı; sıraya alındı, lütfen birkaç dakika sonra tekrar deneyin`;
    case 'running':
      return `Tarayıcı bu ${n.accusative} şu anda işliyor; ilk videolar kaydedilince akış görünür, lütfen birkaç dakika sonra tekrar deneyin`;
    case 'not_found':
      return `Platform bu ${n.genitive} var olmadığını söylüyor; tarayıcı ${whenTurkish(crawl.nextTryAt, crawl.now)} yeniden bakacak`;
    case 'blocked':
      return `Platform şu anda istekleri engelliyor; tarayıcı ${whenTurkish(crawl.nextTryAt, crawl.now)} yeniden deneyecek`;
    case 'unreachable':
      return `Platforma ulaşılamadı ya da platform beklenmeyen bir yanıt verdi; tarayıcı ${whenTurkish(crawl.nextTryAt, crawl.now)} yeniden deneyecek`;
    case 'empty':
      return `Tarayıcı bu ${n.dative} baktı ama henüz gösterilecek transkript yok (altyazısı gelmemiş videolar sonra yeniden denenir); tarayıcı ${whenTurkish(crawl.nextTryAt, crawl.now)} yeniden bakacak`;
  }
}

/**
 * The 404's message for a handle the platform could not be asked about: why, that the channel is
 * queued for the crawler, and when its name is asked again.
 */
export function handleNotReachedMessage(handle: string, view: CrawlView | undefined): string {
  const why = view?.state === 'blocked' ? 'Platform şu anda istekleri engelliyor' : 'Platforma ulaşılamadı (ağ bağlantısı yok ya da platform yanıt vermiyor)';
  const when = view !== undefined && 'nextTryAt' in view ? whenTurkish(view.nextTryAt, view.now) : 'birazdan';
  return `${why}, bu yüzden '@${handle}' kanal adı çözümlenemedi; kanal tarayıcının sırasına alındı ve adı ${when} yeniden sorulacak, lütfen sonra tekrar deneyin`;
}

