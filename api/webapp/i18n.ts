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
  subscriptions: 'Subscriptions',
  uploadHeading: 'Import a subscription list',
  uploadHint: 'An export of YouTube (Takeout CSV), NewPipe, FreeTube, Invidious, an OPML file or one channel a line; at most 2 MB and 5,000 channels.',
  subscriptionFile: 'Subscription file',
  importButton: 'Import',
  importResult: 'What the file named',
  importSummary: (imported: number, already: number, rejected: number) => `${imported} imported, ${already} already followed, ${rejected} rejected.`,
  importQueued: (queued: number, perHour: number) => `${queued} new channels wait for the crawler, which takes ${perHour} of a key's imports an hour.`,
  colEntry: 'Channel or playlist',
  colResult: 'Result',
  colReason: 'Reason',
  colLine: 'Line',
  outcome: { imported: 'imported', already: 'already', rejected: 'rejected' },
  reasons: { notAChannel: 'not a channel id, handle or channel link', otherService: 'a service other than YouTube', noFeedUrl: 'no xmlUrl' } as Record<string, string>,
  importProblems: {
    empty: 'The file is empty.', binary: 'The file is not UTF-8 text.', xmlDeclarations: 'XML declarations (DOCTYPE, ENTITY) are not allowed.',
    badXml: 'The file is not valid XML.', notOpml: 'The XML file is not OPML.', badCsv: 'The CSV file does not have the Takeout header (Channel Id, Channel Url, Channel Title).',
    badJson: 'The file is not valid JSON.', jsonShape: 'This JSON is not a subscription export this service knows.', tooMany: 'The file names more than 5,000 channels; import at most 5,000 at once.',
    tooLarge: 'The file is larger than 2 MB.', noFile: 'Choose a file to import.', badForm: 'The form could not be read; try again.',
  } as Record<string, string>,
  removeHeading: 'What you follow',
  remove: 'Remove',
  opmlDownload: 'Download the list as OPML',
  combinedFeed: 'Everything you follow as one feed',
  feedUrlHint: 'These addresses carry your API key: paste them into a feed reader, share them with nobody.',
  feedFormat: (format: string) => `${format} feed URL`,
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
  subscriptions: 'Abonelikler',
  uploadHeading: 'Abonelik listesi içe aktar',
  uploadHint: "YouTube (Takeout CSV), NewPipe, FreeTube, Invidious dışa aktarımı, bir OPML dosyası ya da satır başına bir kanal; en fazla 2 MB ve 5.000 kanal.",
  subscriptionFile: 'Abonelik dosyası',
  importButton: 'İçe aktar',
  importResult: 'Dosyanın adlandırdıkları',
  importSummary: (imported: number, already: number, rejected: number) => `${imported} içe aktarıldı, ${already} zaten takip ediliyordu, ${rejected} reddedildi.`,
  importQueued: (queued: number, perHour: number) => `${queued} yeni kanal tarayıcıyı bekliyor; tarayıcı bir anahtarın içe aktarmalarından saatte ${perHour} tanesini alır.`,
  colEntry: 'Kanal ya da oynatma listesi',
  colResult: 'Sonuç',
  colReason: 'Neden',
  colLine: 'Satır',
  outcome: { imported: 'içe aktarıldı', already: 'zaten var', rejected: 'reddedildi' },
  reasons: { notAChannel: 'kanal kimliği, handle ya da kanal bağlantısı değil', otherService: 'YouTube dışı bir servis', noFeedUrl: 'xmlUrl yok' } as Record<string, string>,
  importProblems: {
    empty: 'Dosya boş.', binary: 'Dosya UTF-8 metin değil.', xmlDeclarations: 'XML bildirimlerine (DOCTYPE, ENTITY) izin verilmez.',
    badXml: 'Dosya geçerli XML değil.', notOpml: 'XML dosyası OPML değil.', badCsv: 'CSV dosyasında Takeout başlığı (Channel Id, Channel Url, Channel Title) yok.',
    badJson: 'Dosya geçerli JSON değil.', jsonShape: 'Bu JSON, bu hizmetin tanıdığı bir abonelik dışa aktarımı değil.', tooMany: "Dosyada 5.000'den fazla kanal var; bir seferde en fazla 5.000 kanal içe aktarın.",
    tooLarge: "Dosya 2 MB'tan büyük.", noFile: 'İçe aktarılacak bir dosya seçin.', badForm: 'Form okunamadı; yeniden deneyin.',
  } as Record<string, string>,
  removeHeading: 'Takip ettikleriniz',
  remove: 'Kaldır',
  opmlDownload: 'Listeyi OPML olarak indir',
  combinedFeed: 'Takip ettiğiniz her şey tek feed olarak',
  feedUrlHint: 'Bu adresler API anahtarınızı taşır: bir feed okuyucusuna yapıştırın, kimseyle paylaşmayın.',
  feedFormat: (format: string) => `${format} feed adresi`,
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
