// The app's words in English and Turkish, as the JSON API's messages come in both (api/errors.ts).
// The English labels are the pages' accessible names, which tests and assistive technology find
// them by; a page picks its language from `?lang=` (the switch on every page), else Accept-Language.

import type { IncomingMessage } from 'node:http';

export type Locale = 'en' | 'tr';

const EN = {
  appName: 'transcript-feed',
  signInTitle: 'Sign in',
  apiKey: 'API key',
  signIn: 'Sign in',
  signOut: 'Sign out',
  signInFailed: 'That key is not a valid, enabled key.',
  player: 'Video player',
  signInUnavailable: 'Signing in is not possible right now: the service could not store the session. Try again in a minute.',
  tooManyAttempts: (s: number) => `Too many failed sign-ins from this address; try again in ${s} seconds.`,
  home: 'Home',
  followed: 'Channels and playlists you follow',
  nothingFollowed: 'You follow nothing yet.',
  status: 'Status',
  language: 'Language',
  refused: 'This form was refused: it did not come from this app. Reload the page and try again.',
  navigation: 'Main',
  playlist: 'playlist',
  channel: 'channel',
  waitingHandle: 'waiting for the handle to be resolved',
  videos: 'Videos',
  noVideos: 'The crawler has not stored any video of this channel yet; its first batch is on the way.',
  state: { ready: 'stored', failed: 'waiting', no_transcript: 'no captions', unavailable: 'unavailable' },
  transcript: 'Transcript',
  noTranscript: 'No transcript is stored for this video.',
  videoNotFound: 'This video is not in the store.',
  channelLink: 'Channel',
  watchOnPlatform: 'Watch on YouTube',
  search: 'Search',
  searchLabel: 'Search transcripts',
  noHits: 'Nothing stored matches.',
  searchFeed: 'Subscribe to this search as a feed',
};

type Messages = typeof EN;

const TR: Messages = {
  appName: 'transcript-feed',
  signInTitle: 'Oturum aç',
  apiKey: 'API anahtarı',
  signIn: 'Oturum aç',
  signOut: 'Oturumu kapat',
  signInFailed: 'Bu anahtar geçerli ve etkin bir anahtar değil.',
  player: 'Video oynatıcı',
  signInUnavailable: 'Şu anda giriş yapılamıyor: hizmet oturumu kaydedemedi. Bir dakika sonra yeniden deneyin.',
  tooManyAttempts: (s: number) => `Bu adresten çok fazla başarısız deneme oldu; ${s} saniye sonra yeniden deneyin.`,
  home: 'Ana sayfa',
  followed: 'Takip ettiğiniz kanallar ve oynatma listeleri',
  nothingFollowed: 'Henüz hiçbir şeyi takip etmiyorsunuz.',
  status: 'Durum',
  language: 'Dil',
  refused: 'Bu form reddedildi: bu uygulamadan gelmedi. Sayfayı yenileyip yeniden deneyin.',
  navigation: 'Ana menü',
  playlist: 'oynatma listesi',
  channel: 'kanal',
  waitingHandle: 'kullanıcı adının çözülmesi bekleniyor',
  videos: 'Videolar',
  noVideos: 'Tarayıcı bu kanalın henüz hiçbir videosunu saklamadı; ilk parti yolda.',
  state: { ready: 'saklandı', failed: 'bekliyor', no_transcript: 'altyazı yok', unavailable: 'erişilemez' },
  transcript: 'Döküm',
  noTranscript: 'Bu video için saklanmış bir döküm yok.',
  videoNotFound: 'Bu video depoda yok.',
  channelLink: 'Kanal',
  watchOnPlatform: "YouTube'da izle",
  search: 'Ara',
  searchLabel: 'Dökümlerde ara',
  noHits: 'Saklananlar arasında eşleşen yok.',
  searchFeed: 'Bu aramaya feed olarak abone ol',
};

export type Words = Messages;

export const wordsOf = (locale: Locale): Words => (locale === 'tr' ? TR : EN);

/** `?lang=tr|en` first (the page's switch), else the first of Accept-Language's tags we speak. */
export function localeOf(req: IncomingMessage, lang: unknown): Locale {
  if (lang === 'tr' || lang === 'en') return lang;
  const header = req.headers['accept-language'] ?? '';
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', q = 'q=1'] = part.trim().split(';');
      return { tag: tag.toLowerCase(), q: Number(q.replace(/^q=/, '')) || 0 };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    if (tag === 'tr' || tag.startsWith('tr-')) return 'tr';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}
