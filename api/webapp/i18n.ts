// The app's words in English and Turkish, as the JSON API's messages come in both (api/errors.ts).
// The English labels are the pages' accessible names, which tests and assistive technology find
// them by; a page picks its language from `?lang=` (the switch on every page), else Accept-Language.

import type { IncomingMessage } from 'node:http';
import { errorBody } from '../errors';
import type { CrawlView } from '../feed/crawl-view';

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
  follow: 'Follow',
  unfollow: 'Unfollow',
  feeds: 'Feeds',
  atomFeed: 'Atom feed',
  rssFeed: 'RSS feed',
  jsonFeed: 'JSON Feed',
  opml: 'OPML of everything you follow',
  copy: 'Copy',
  copied: 'Copied',
  feedsUnavailable: 'The feed addresses cannot be shown here for this key: ask its administrator for them.',
  feedsPrivate: 'These addresses carry your API key: do not share them.',
  pages: 'Pages',
  nextPage: 'Next page',
  previousPage: 'Previous page',
  pageNumber: (n: number) => `Page ${n}`,
  emptyPage: 'There are no videos on this page.',
  checkAgain: 'Check again',
  reloads: 'This page reloads itself every 10 seconds until then.',
  notStoredYet: (view: CrawlView, playlist: boolean) => notStoredEnglish(view, playlist ? 'playlist' : 'channel'),
  channelUnknown: 'No channel with this id is known here. Follow it from the home page and the crawler fetches it.',
  playlistUnknown: 'No playlist with this id is known here. Follow it from the home page and the crawler fetches it.',
  playlistPrivate: 'The platform says this playlist is private.',
  playlistDeleted: 'The platform says this playlist does not exist.',
  addBox: 'Add a channel or playlist',
  addHint: 'A channel id, @handle, channel URL, playlist URL or playlist id',
  add: 'Add',
  storedVideos: (n: number) => (n === 1 ? '1 video stored' : `${n} videos stored`),
  newestVideo: 'newest',
  newestVideos: 'Newest videos',
  crawl: {
    waiting: 'waiting for the first batch',
    running: 'being crawled now',
    upToDate: 'up to date',
    blocked: (at: string) => `blocked by the platform, next try ${at}`,
    unreachable: (at: string) => `the platform could not be reached, next try ${at}`,
    notFound: (at: string) => `not found on the platform, next try ${at}`,
  },
  chapters: 'Chapters',
  summary: 'Summary',
  summaryNote: (model: string) => `Written by a language model (${model}) from the transcript; it can be wrong.`,
  transcriptLanguage: 'Transcript language',
  showLanguage: 'Show',
  kinds: { manual: 'manual captions', automatic: 'automatic captions', translated: 'machine translation' },
  translationsOffered: 'Machine translation, fetched on request',
  translationAsked: (lang: string) => `The machine translation into ${lang} is asked for: the crawler fetches it on its next visit to this channel. Until then the page shows the transcript below.`,
  downloads: 'Download the transcript',
  findLabel: 'Find in transcript',
  find: 'Find',
  findSome: 'Paragraphs holding it: {n}.',
  findNone: 'No paragraph matches.',
  searchIn: 'Search in',
  everything: 'Everything',
  followedChannels: 'Channels I follow',
  onlyChannel: (title: string) => `Only in ${title}`,
  noMoreHits: 'No more hits.',
  rateLimited: (s: number) => `Too many requests with this key; try again in ${s} seconds.`,
};

/** The feed 404's message (api/error-phrasing.ts) in English: what the crawler knows, and when it tries again. */
function notStoredEnglish(view: CrawlView, noun: string): string {
  const when = 'nextTryAt' in view ? (view.nextTryAt.getTime() <= view.now.getTime() ? 'shortly' : `at ${view.nextTryAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`) : '';
  switch (view.state) {
    case 'waiting':
      return `No video processed yet: the crawler has not looked at this ${noun} yet; it is queued, try again in a few minutes.`;
    case 'running':
      return `No video processed yet: the crawler is working on this ${noun} right now; its videos show as soon as the first ones are stored.`;
    case 'not_found':
      return `No video processed yet: the platform says this ${noun} does not exist; the crawler looks again ${when}.`;
    case 'blocked':
      return `No video processed yet: the platform is blocking requests right now; the crawler tries again ${when}.`;
    case 'unreachable':
      return `No video processed yet: the platform could not be reached or answered unexpectedly; the crawler tries again ${when}.`;
    case 'empty':
      return `No video processed yet: the crawler looked at this ${noun} but has no transcript to show yet (videos whose captions have not arrived are tried again later); it looks again ${when}.`;
  }
}

/** The feed 404's own words (api/errors.ts noVideosYet, noPlaylistVideosYet), Turkish as the feed says them. */
function notStoredTurkish(view: CrawlView, playlist: boolean): string {
  const body = playlist ? errorBody('noPlaylistVideosYet', { crawl: view }) : errorBody('noVideosYet', { crawl: view });
  return `${body.error}: ${body.message ?? ''}`;
}

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
  follow: 'Takip et',
  unfollow: 'Takibi bırak',
  feeds: 'Akışlar',
  atomFeed: 'Atom akışı',
  rssFeed: 'RSS akışı',
  jsonFeed: 'JSON Feed',
  opml: 'Takip ettiğiniz her şeyin OPML dosyası',
  copy: 'Kopyala',
  copied: 'Kopyalandı',
  feedsUnavailable: 'Bu anahtarın akış adresleri burada gösterilemiyor: yöneticisinden isteyin.',
  feedsPrivate: 'Bu adresler API anahtarınızı içerir: paylaşmayın.',
  pages: 'Sayfalar',
  nextPage: 'Sonraki sayfa',
  previousPage: 'Önceki sayfa',
  pageNumber: (n: number) => `Sayfa ${n}`,
  emptyPage: 'Bu sayfada video yok.',
  checkAgain: 'Yeniden bak',
  reloads: 'Bu sayfa o zamana kadar her 10 saniyede bir kendini yeniler.',
  notStoredYet: notStoredTurkish,
  channelUnknown: 'Bu kimlikte bir kanal burada bilinmiyor. Ana sayfadan takip edin, tarayıcı onu getirsin.',
  playlistUnknown: 'Bu kimlikte bir oynatma listesi burada bilinmiyor. Ana sayfadan takip edin, tarayıcı onu getirsin.',
  playlistPrivate: 'Platform bu oynatma listesinin gizli olduğunu söylüyor.',
  playlistDeleted: 'Platform bu oynatma listesinin var olmadığını söylüyor.',
  addBox: 'Kanal veya oynatma listesi ekle',
  addHint: 'Kanal kimliği, @kullanıcı adı, kanal adresi, oynatma listesi adresi veya kimliği',
  add: 'Ekle',
  storedVideos: (n: number) => `${n} video saklandı`,
  newestVideo: 'en yeni',
  newestVideos: 'En yeni videolar',
  crawl: {
    waiting: 'ilk parti bekleniyor',
    running: 'şu anda taranıyor',
    upToDate: 'güncel',
    blocked: (at: string) => `platform engelledi, sonraki deneme ${at}`,
    unreachable: (at: string) => `platforma ulaşılamadı, sonraki deneme ${at}`,
    notFound: (at: string) => `platformda bulunamadı, sonraki deneme ${at}`,
  },
  chapters: 'Bölümler',
  summary: 'Özet',
  summaryNote: (model: string) => `Dökümden bir dil modeli (${model}) yazdı; yanlış olabilir.`,
  transcriptLanguage: 'Döküm dili',
  showLanguage: 'Göster',
  kinds: { manual: 'elle yazılmış altyazı', automatic: 'otomatik altyazı', translated: 'makine çevirisi' },
  translationsOffered: 'Makine çevirisi, istek üzerine getirilir',
  translationAsked: (lang: string) => `${lang} diline makine çevirisi istendi: tarayıcı bu kanala bir sonraki uğrayışında getirir. O zamana kadar sayfa aşağıdaki dökümü gösterir.`,
  downloads: 'Dökümü indir',
  findLabel: 'Dökümde bul',
  find: 'Bul',
  findSome: 'Eşleşen paragraf: {n}.',
  findNone: 'Eşleşen paragraf yok.',
  searchIn: 'Nerede aransın',
  everything: 'Her yerde',
  followedChannels: 'Takip ettiğim kanallar',
  onlyChannel: (title: string) => `Yalnızca ${title}`,
  noMoreHits: 'Başka eşleşme yok.',
  rateLimited: (s: number) => `Bu anahtarla çok fazla istek yapıldı; ${s} saniye sonra yeniden deneyin.`,
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
