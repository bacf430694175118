// The one catalogue of API errors: each entry is a named condition with its status, Turkish `error`
// text and body fields. Route code throws ApiError(name, context); the error middleware is the only
// place that turns one into a response. test/api/errors.test.ts pins the spec's rows.

import { USAGE, type Usage } from './service-info';

export interface ErrorBody {
  error: string;
  message?: string;
  channel_id?: string;
  usage?: Usage;
  retry_after?: number;
}

/** What a thrower may add: the channel in question, the key's limit, a safe detail for 500s. */
export interface ErrorContext {
  channelId?: string;
  limit?: number;
  /** For `server`: a short, safe description (no stack, no SQL, no key). */
  detail?: string;
  /** For `badParameter`-like entries: which query parameter. */
  param?: string;
}

interface Entry {
  readonly status: 400 | 401 | 404 | 405 | 429 | 500;
  readonly error: (ctx: ErrorContext) => string;
  readonly message?: (ctx: ErrorContext) => string;
  readonly usage?: true;
  readonly channelId?: true;
  readonly retryAfter?: number;
}

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
    message: text('Transkriptler işleniyor, lütfen birkaç dakika sonra tekrar deneyin'),
    channelId: true,
  },
  rateLimited: {
    status: 429,
    error: text('İstek limiti aşıldı'),
    message: (c) => `Dakikada en fazla ${c.limit ?? 0} istek yapılabilir; ${RETRY_AFTER_SECONDS} saniye sonra tekrar deneyin`,
    retryAfter: RETRY_AFTER_SECONDS,
  },
  server: { status: 500, error: (c) => SERVER_ERROR_PREFIX + (c.detail ?? 'beklenmeyen hata'), channelId: true },

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
    message: text("format 'Atom' (varsayılan) ya da 'Rss' olmalıdır"),
    usage: true,
  },
  invalidMaxItems: {
    status: 400,
    error: text('Geçersiz max_items değeri'),
    message: text('max_items 1 ile 100 arasında bir tam sayı olmalıdır (varsayılan 10)'),
    usage: true,
  },
  repeatedParameter: {
    status: 400,
    error: text('Parametre birden fazla kez verildi'),
    message: (c) => `${c.param ?? 'Bir parametre'} yalnızca bir kez verilebilir`,
    usage: true,
  },
  badRequest: { status: 400, error: text('Geçersiz istek'), message: text('İstek çözümlenemedi') },
  pathNotFound: {
    status: 404,
    error: text('Bulunamadı'),
    message: text('Kullanılabilir yollar: /, /health, /info'),
  },
  methodNotAllowed: {
    status: 405,
    error: text('İzin verilmeyen HTTP metodu'),
    message: text('Yalnızca GET (ve HEAD, OPTIONS) desteklenir'),
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

export function errorStatus(name: ErrorName): number {
  return CATALOGUE[name].status;
}

/** The JSON body of a catalogue entry. Fields appear only where the entry declares them. */
export function errorBody(name: ErrorName, ctx: ErrorContext = {}): ErrorBody {
  const e: Entry = CATALOGUE[name];
  const body: ErrorBody = { error: e.error(ctx) };
  if (e.message) body.message = e.message(ctx);
  if (e.channelId) body.channel_id = ctx.channelId ?? '';
  if (e.usage) body.usage = USAGE;
  if (e.retryAfter !== undefined) body.retry_after = e.retryAfter;
  return body;
}
