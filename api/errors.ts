// The one catalogue of API errors: each entry is a named condition with its status, Turkish `error`
// text and body fields. Route code throws ApiError(name, context); the error answer
// (api/http/error-answer.ts) is the only place that turns one into a response. The catalogue
// imports nothing from http/ (eslint.config.js); the Turkish sentences that depend on what the
// crawler knows are api/error-phrasing.ts. test/api/errors.test.ts pins the spec's rows.

import { StoreUnavailableError } from '../shared/store/types';
import { PlatformError } from '../shared/platform/types';
import type { Entry, ErrorBody, ErrorContext } from './error-shapes';
import { CHANNEL_NOUN, handleNotReachedMessage, noVideosMessage, PLAYLIST_NOUN } from './error-phrasing';
import { USAGE } from './service-info';

export type { ErrorBody, ErrorContext } from './error-shapes';

const text = (s: string) => (): string => s;

/** Fixed prefix of every 500 body, naming the upstream feed generator (spec, Errors). */
export const SERVER_ERROR_PREFIX = 'Feed oluşturucu hatası: ';
export const RETRY_AFTER_SECONDS = 60;

export const CATALOGUE = {
  // ── spec rows ────────────────────────────────────────────────────────────
  channelNotFound: { status: 400, error: text('Channel ID bulunamadı'), usage: true },
  invalidChannelId: {
    status: 400,
    error: text('Geçersiz channel_id formatı'),
    message: text("Channel ID 'UC' ile başlamalı ve 24 karakter olmalıdır"),
  },
  unauthorized: {
    status: 401,
    error: text('Geçersiz veya eksik API anahtarı'),
    message: text('X-API-Key header veya api_key query parametresi gerekli'),
  },
  noVideosYet: {
    status: 404,
    error: text('Henüz işlenmiş video yok'),
    message: (c) => noVideosMessage(c.crawl, CHANNEL_NOUN),
    channelId: true,
  },
  rateLimited: {
    status: 429,
    error: text('İstek limiti aşıldı'),
    message: (c) => `Dakikada en fazla ${c.limit ?? 0} istek yapılabilir; ${RETRY_AFTER_SECONDS} saniye sonra tekrar deneyin`,
    retryAfter: RETRY_AFTER_SECONDS,
  },
  handleLookupsLimited: {
    status: 429,
    error: text('Kanal adı sorgu limiti aşıldı'),
    message: (c) => `Bir API anahtarıyla dakikada en fazla ${c.limit ?? 0} yeni kanal adı (@handle) sorgulanabilir; ${RETRY_AFTER_SECONDS} saniye sonra tekrar deneyin ya da channel_id kullanın`,
    retryAfter: RETRY_AFTER_SECONDS,
  },
  newChannelsLimited: {
    status: 429,
    error: text('Yeni kanal limiti aşıldı'),
    message: (c) => `Bir API anahtarıyla saatte en fazla ${c.limit ?? 0} yeni kanal eklenebilir; retry_after saniye sonra tekrar deneyin`,
    retryAfter: 3600,
  },
  platformBusy: {
    status: 429,
    error: text('Kanal adı şu anda çözümlenemiyor'),
    message: text('Platform istek sınırı nedeniyle yeni kanal adları (@handle) şu anda sorgulanmıyor; bir süre sonra tekrar deneyin ya da channel_id kullanın'),
    retryAfter: 300,
  },
  tooManyConnections: {
    status: 429,
    error: text('Eşzamanlı yanıt limiti aşıldı'),
    message: (c) => `Bu API anahtarıyla aynı anda en fazla ${c.limit ?? 0} yanıt alınabilir; önceki yanıtlar bitince tekrar deneyin`,
    retryAfter: 5,
  },
  server: { status: 500, error: (c) => SERVER_ERROR_PREFIX + (c.detail ?? 'beklenmeyen hata'), channelId: true },

  // The spec's "channel id cannot be determined" row for a handle the platform does not know:
  // its error and usage, and a message naming the handle.
  unknownHandle: {
    status: 400,
    error: text('Channel ID bulunamadı'),
    message: (c) => `Platformda '@${c.handle ?? ''}' adlı bir kanal yok; adı kontrol edin ya da channel_id kullanın`,
    usage: true,
  },

  // A handle that could not be looked up because the platform is unreachable or blocking us: the
  // answer the channel_id form gives (404 "no processed video yet"), the handle queued for the
  // crawler (api/resolve-channel.ts). channel_id is empty: no id is known yet.
  handleNotReached: {
    status: 404,
    error: text('Henüz işlenmiş video yok'),
    message: (c) => handleNotReachedMessage(c.handle ?? '', c.crawl),
    channelId: true,
  },

  // ── conditions whose status the spec leaves open (README "Decisions") ────
  invalidHandle: {
    status: 400,
    error: text('Geçersiz channel formatı'),
    message: text("channel bir handle olmalı: isteğe bağlı '@' ile, en fazla 30 karakter; yalnızca harf, rakam, '_' ve '-'"),
    usage: true,
  },
  invalidChannelUrl: {
    status: 400,
    error: text('Geçersiz channel_url'),
    message: text('channel_url yalnızca https://www.youtube.com/channel/UC…, https://www.youtube.com/@handle ya da www olmadan aynı biçimler olabilir'),
    usage: true,
  },
  invalidFormat: {
    status: 400,
    error: text('Geçersiz format değeri'),
    message: text("format 'Atom' (varsayılan), 'Rss' ya da 'Json' (JSON Feed 1.1) olmalıdır"),
    usage: true,
  },
  invalidMaxItems: {
    status: 400,
    error: text('Geçersiz max_items değeri'),
    message: text('max_items 1 ile 100 arasında bir tam sayı olmalıdır (varsayılan 10)'),
    usage: true,
  },
  invalidInclude: {
    status: 400,
    error: text('Geçersiz include değeri'),
    message: text("include 'shorts', 'live' ya da 'shorts,live' olmalıdır (verilmezse yalnızca normal videolar listelenir)"),
    usage: true,
  },
  invalidLang: {
    status: 400,
    error: text('Geçersiz lang değeri'),
    message: text("lang en fazla 5 dil kodu olmalıdır, virgülle ayrılmış (örnek: 'tr' ya da 'tr,en'; 'pt-BR' gibi bölge kodları da olur)"),
    usage: true,
  },
  invalidSummary: { status: 400, error: text('Geçersiz summary değeri'), usage: true,
    message: text("summary '1' (özet transkriptin önünde) ya da 'only' (yalnızca özet) olmalıdır") },
  repeatedParameter: {
    status: 400,
    error: text('Parametre birden fazla kez verildi'),
    message: (c) => `${c.param ?? 'Bir parametre'} yalnızca bir kez verilebilir`,
    usage: true,
  },
  // ── GET /search ─────────────────────────────────────────────────────────
  searchQueryMissing: {
    status: 400,
    error: text('Arama sorgusu gerekli'),
    message: text('q parametresine aranacak kelimeleri yazın (örnek: q=istanbul "açık kaynak" -reklam)'),
  },
  searchQueryTooLong: {
    status: 400,
    error: text('Arama sorgusu çok uzun'),
    message: text('q en fazla 200 karakter olabilir'),
  },
  searchTooManyTerms: {
    status: 400,
    error: text('Arama sorgusunda çok fazla terim var'),
    message: text('q en fazla 10 terim içerebilir (kelime, "ifade" ya da -hariç; OR sayılmaz)'),
  },
  searchNoWords: {
    status: 400,
    error: text('Arama sorgusunda aranacak kelime yok'),
    message: text('En az bir kelime ya da "tırnak içinde bir ifade" yazın; -kelime yalnızca sonuçlardan çıkarır'),
  },
  invalidSearchMaxItems: {
    status: 400,
    error: text('Geçersiz max_items değeri'),
    message: text('max_items 1 ile 100 arasında bir tam sayı olmalıdır (aramada varsayılan 20)'),
  },
  // 429 as the spec's other "not now, retry after" answers (it uses no 503): the search asked more
  // of the service than one query may take.
  searchTimeBudget: {
    status: 429,
    error: text('Arama zaman sınırını aştı'),
    message: (c) => `Bu arama ${((c.limit ?? 0) / 1000).toLocaleString('tr-TR')} saniyede bitmedi; daha az ya da daha seyrek kelimeyle, ya da kanalla sınırlayarak arayın (aynı arama retry_after saniye boyunca aynı yanıtı alır)`,
    retryAfter: 60,
  },
  tooManySearchChannels: {
    status: 400,
    error: text('Çok fazla kanal verildi'),
    message: text('Arama en fazla 20 kanalla sınırlanabilir (channel_id, channel ve channel_url birlikte)'),
  },
  invalidSubscriptionsScope: {
    status: 400,
    error: text('Geçersiz subscriptions değeri'),
    message: text("subscriptions '1' (yalnızca takip edilen kanallar) ya da '0' olmalıdır"),
  },
  invalidPlaylistId: {
    status: 400,
    error: text('Geçersiz playlist_id formatı'),
    message: text("playlist_id platformun oynatma listesi kimliği olmalı: PL…, OLAK5uy_…, UU… ya da FL… (yalnızca harf, rakam, '_' ve '-'); karışık listeler (RD…) ve kişisel listeler (WL, LL) desteklenmez"),
    usage: true,
  },
  invalidPlaylistUrl: {
    status: 400,
    error: text('Geçersiz playlist_url'),
    message: text('playlist_url yalnızca https://www.youtube.com/playlist?list=<playlist_id> ya da www olmadan aynı biçim olabilir'),
    usage: true,
  },
  noPlaylistVideosYet: {
    status: 404,
    error: text('Henüz işlenmiş video yok'),
    message: (c) => noVideosMessage(c.crawl, PLAYLIST_NOUN),
    playlistId: true,
  },
  playlistPrivate: {
    status: 404,
    error: text('Oynatma listesi gizli'),
    message: text('Platform bu oynatma listesinin gizli olduğunu söylüyor; sahibi listeyi herkese açık ya da liste dışı yapınca akış çalışır'),
    playlistId: true,
  },
  playlistDeleted: {
    status: 404,
    error: text('Oynatma listesi bulunamadı'),
    message: text('Platform bu oynatma listesinin olmadığını ya da silindiğini söylüyor'),
    playlistId: true,
  },
  invalidTranscriptFile: {
    status: 400,
    error: text('Geçersiz transkript dosyası adı'),
    message: text("Transkript dosyası /transcripts/<video_id>.vtt, .srt ya da .txt biçiminde istenir; video id 11 karakterdir (harf, rakam, '_' ve '-')"),
  },
  transcriptNotFound: {
    status: 404,
    error: text('Bu video için kayıtlı transkript yok'),
    message: text('Transkript henüz işlenmemiş ya da videonun altyazısı yok; kanalın ya da oynatma listesinin akışını isteyip birkaç dakika sonra tekrar deneyin'),
  },
  adminUnauthorized: {
    status: 401,
    error: text('Geçersiz veya eksik API anahtarı'),
    message: text('Yönetici API anahtarı gerekli: X-API-Key header, api_key query parametresi ya da HTTP Basic parolası olarak'),
    basicChallenge: true,
  },
  adminOnly: {
    status: 403,
    error: text('Bu işlem için yönetici anahtarı gerekli'),
    message: text("Bu yol yalnızca anahtar dosyasında 'role: admin' olan API anahtarlarıyla kullanılabilir"),
  },
  // A browser sends the Basic key it keeps after /status with any site's form: api/http/same-origin.ts.
  crossSiteRefused: { status: 403, error: text('Başka bir siteden gelen yönetici isteği reddedildi'), message: text('Durum değiştiren yönetici yolları yalnızca servisin kendi adresinden (Origin) ya da tarayıcı olmayan istemcilerden kabul edilir; Sec-Fetch-Site: cross-site reddedilir') },
  unsupportedAdminBody: { status: 415, error: text('Desteklenmeyen içerik türü'), message: text('Bu yönetici yolu gövde almaz: Content-Type olmadan (ya da application/json ile) boş gövdeyle gönderin') },
  invalidAdminLimit: {
    status: 400,
    error: text('Geçersiz limit değeri'),
    message: text('limit 1 ile 500 arasında bir tam sayı olmalıdır (varsayılan 100)'),
  },
  invalidCursor: {
    status: 400,
    error: text('Geçersiz after değeri'),
    message: text("after yalnızca bir önceki sayfanın 'next' değeri olabilir"),
  },
  invalidPurge: {
    status: 400,
    error: text('Geçersiz purge değeri'),
    message: text("purge '1' (videolar ve transkriptler de silinir) ya da '0' olmalıdır"),
  },
  unknownChannel: {
    status: 404,
    error: text('Kanal bulunamadı'),
    message: text('Bu channel_id ile kayıtlı bir kanal yok'),
    channelId: true,
  },
  badRequest: { status: 400, error: text('Geçersiz istek'), message: text('İstek çözümlenemedi') },
  notificationTooLarge: {
    status: 413,
    error: text('Bildirim çok büyük'),
    message: text('Bir WebSub bildirimi en fazla 1 MB olabilir'),
  },

  // ── subscriptions (POST/GET/DELETE /subscriptions, GET /subscriptions/feed) ──
  // The import entries' message says what was wrong with the file (ctx.detail), with its line.
  importEmpty: { status: 400, error: text('Abonelik dosyası boş'), message: (c) => c.detail ?? 'dosya boş', line: true },
  importBinary: { status: 400, error: text('Abonelik dosyası metin değil'), message: (c) => c.detail ?? 'dosya metin değil', line: true },
  importXmlDeclarations: { status: 400, error: text('XML bildirimlerine izin verilmez'), message: (c) => c.detail ?? 'DOCTYPE ya da ENTITY', line: true },
  importBadXml: { status: 400, error: text('Geçersiz XML dosyası'), message: (c) => c.detail ?? 'geçersiz XML', line: true },
  importNotOpml: { status: 400, error: text('XML dosyası OPML değil'), message: (c) => c.detail ?? 'kök öğe <opml> olmalı', line: true },
  importBadCsv: { status: 400, error: text('Geçersiz CSV dosyası'), message: (c) => c.detail ?? 'beklenen başlık yok', line: true },
  importBadJson: { status: 400, error: text('Geçersiz JSON dosyası'), message: (c) => c.detail ?? 'geçerli JSON değil', line: true },
  importJsonShape: { status: 400, error: text('Tanınmayan JSON abonelik dosyası'), message: (c) => c.detail ?? 'tanınan bir biçim değil', line: true },
  importTooMany: { status: 413, error: text('Çok fazla kanal'), message: (c) => c.detail ?? 'en fazla 5000 kanal', line: true },
  importFlattened: {
    status: 400,
    error: text('Dosyanın satır sonları silinmiş'),
    message: text('Gövde form olarak gönderilmiş ve hiç satır sonu yok: curl -d dosyanın satır sonlarını siler. Dosyayı --data-binary @dosya ya da -F file=@dosya ile gönderin'),
  },
  importNoFile: { status: 400, error: text('Formda dosya yok'), message: text('multipart/form-data gövdesinde dosya parçası yok: dosyayı -F file=@dosya ile gönderin') },
  importBadForm: { status: 400, error: text('Geçersiz multipart gövde'), message: text('multipart/form-data gövdesi okunamadı (sınır ya da parça başlıkları bozuk)') },
  bodyTooLarge: { status: 413, error: text('İstek gövdesi çok büyük'), message: text('İstek gövdesi en fazla 2 MB olabilir') },
  invalidSubscription: {
    status: 400,
    error: text('Geçersiz abonelik'),
    message: text("Silinecek abonelik bir kanal kimliği (UC ile başlayan 24 karakter), bir oynatma listesi kimliği (PL…) ya da '@handle' olmalıdır"),
  },
  invalidExportFormat: {
    status: 400,
    error: text('Geçersiz format değeri'),
    message: text("Abonelik listesi için format 'Opml' (varsayılan) ya da 'Json' olmalıdır"),
  },
  subscriptionNotFound: { status: 404, error: text('Abonelik bulunamadı'), message: text('Bu anahtar bu kanala abone değil') },
  invalidWait: { status: 400, error: text('Geçersiz wait değeri'), message: text('wait 0 ile 30 arasında bir saniye sayısı olmalıdır') },
  pathNotFound: {
    status: 404,
    error: text('Bulunamadı'),
    message: (ctx) => `Kullanılabilir yollar: ${ctx.paths ?? '/'}`,
  },
  methodNotAllowed: {
    status: 405,
    error: text('İzin verilmeyen HTTP metodu'),
    // The methods of this path as its Allow header says them, and those of the paths beneath it, so
    // that PUT /subscriptions learns of DELETE /subscriptions/<ref> too.
    message: (c) => `Bu yolda yalnızca ${c.allow ?? 'GET, HEAD, OPTIONS'} desteklenir${c.beneath ? `; altındaki yollarda: ${c.beneath}` : ''}`,
  },
  // 400, not 417: the spec's status codes are kept (README "Decisions").
  unsupportedExpect: {
    status: 400,
    error: text('Desteklenmeyen Expect başlığı'),
    message: text("Yalnızca 'Expect: 100-continue' desteklenir; istekler gövde taşımaz"),
  },
} as const satisfies Record<string, Entry>;

export type ErrorName = keyof typeof CATALOGUE;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorName,
    readonly context: ErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(code, options);
  }

  get status(): number {
    return CATALOGUE[this.code].status;
  }
}

/** The JSON body of a catalogue entry. Fields appear only where the entry declares them. */
export function errorBody(name: ErrorName, ctx: ErrorContext = {}): ErrorBody {
  const e: Entry = CATALOGUE[name];
  const body: ErrorBody = { error: e.error(ctx) };
  if (e.message) body.message = e.message(ctx);
  if (e.channelId) body.channel_id = ctx.channelId ?? '';
  if (e.playlistId) body.playlist_id = ctx.playlistId ?? '';
  if (e.usage) body.usage = USAGE;
  if (e.retryAfter !== undefined) body.retry_after = ctx.retryAfter ?? e.retryAfter;
  if (e.line && ctx.line !== undefined) body.line = ctx.line;
  return body;
}

/** Map anything thrown to a catalogue entry. Unknown errors get a fixed detail, never their message. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreUnavailableError) return new ApiError('server', { detail: 'veri deposuna ulaşılamıyor' }, { cause: err });
  if (err instanceof PlatformError) return new ApiError('server', { detail: `platform hatası (${err.outcome})` }, { cause: err });
  // Errors raised by Express or its parsers on a malformed request carry a 4xx status.
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  if (status === 413) return new ApiError('bodyTooLarge', {}, { cause: err });
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError('badRequest', {}, { cause: err });
  return new ApiError('server', { detail: 'beklenmeyen hata' }, { cause: err });
}

