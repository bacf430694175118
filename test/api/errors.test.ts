import { expect } from 'chai';
import { ApiError, CATALOGUE, errorBody, SERVER_ERROR_PREFIX, toApiError, type ErrorName } from '../../api/errors';
import type { CrawlView } from '../../api/feed/crawl-view';
import { USAGE } from '../../api/service-info';
import { PlatformError } from '../../shared/platform/types';
import { StoreUnavailableError } from '../../shared/store/types';

const USAGE_KEYS = ['channel_id', 'channel', 'channel_url', 'format', 'max_items'];

describe('error catalogue (spec, Errors table)', () => {
  // One row per line of the spec's table: status, the Turkish text, and exactly the body fields.
  const rows: { name: ErrorName; status: number; error: string; fields: string[] }[] = [
    { name: 'channelNotFound', status: 400, error: 'Channel ID bulunamadı', fields: ['error', 'usage'] },
    { name: 'invalidChannelId', status: 400, error: 'Geçersiz channel_id formatı', fields: ['error', 'message'] },
    { name: 'unauthorized', status: 401, error: 'Geçersiz veya eksik API anahtarı', fields: ['error', 'message'] },
    { name: 'noVideosYet', status: 404, error: 'Henüz işlenmiş video yok', fields: ['error', 'channel_id', 'message'] },
    { name: 'rateLimited', status: 429, error: 'İstek limiti aşıldı', fields: ['error', 'message', 'retry_after'] },
    { name: 'server', status: 500, error: `${SERVER_ERROR_PREFIX}beklenmeyen hata`, fields: ['error', 'channel_id'] },
  ];
  for (const r of rows) {
    it(`${r.status} ${r.name}: "${r.error}" with ${r.fields.join(', ')}`, () => {
      const body = errorBody(r.name, { channelId: 'UCxxxxxxxxxxxxxxxxxxxxxx', limit: 7 });
      expect(CATALOGUE[r.name].status).to.equal(r.status);
      expect(body.error).to.equal(r.error);
      expect(Object.keys(body).sort()).to.deep.equal([...r.fields].sort());
    });
  }

  it('usage has exactly the five parameter keys, each a string', () => {
    expect(Object.keys(errorBody('channelNotFound').usage!)).to.deep.equal(USAGE_KEYS);
    for (const v of Object.values(USAGE)) expect(v).to.be.a('string').and.not.equal('');
  });

  it('an unknown handle is the spec\'s "cannot be determined" 400 (error, usage) with a message naming it', () => {
    const body = errorBody('unknownHandle', { handle: 'Ghost_1' });
    expect(CATALOGUE.unknownHandle.status).to.equal(400);
    expect(body.error).to.equal(errorBody('channelNotFound').error);
    expect(body.usage).to.deep.equal(USAGE);
    expect(body.message).to.contain("'@Ghost_1'");
  });

  it('the 404 message says what the crawler knows, with the next try in UTC', () => {
    const now = new Date('2026-11-25T14:00:00Z');
    const message = (crawl?: CrawlView) => errorBody('noVideosYet', { channelId: 'UCx', crawl }).message;
    expect(message()).to.contain('henüz bakmadı').and.contain('birkaç dakika');
    expect(message({ state: 'waiting' })).to.equal(message());
    expect(message({ state: 'running' })).to.contain('şu anda işliyor');
    const next = new Date('2026-11-26T14:05:59Z');
    expect(message({ state: 'not_found', nextTryAt: next, now })).to.contain('var olmadığını').and.contain("2026-11-26 14:05 UTC'de");
    expect(message({ state: 'blocked', nextTryAt: next, now })).to.contain('engelliyor').and.contain('2026-11-26 14:05 UTC');
    expect(message({ state: 'unreachable', nextTryAt: next, now })).to.contain('ulaşılamadı').and.contain('2026-11-26 14:05 UTC');
    expect(message({ state: 'empty', nextTryAt: next, now })).to.contain('transkript yok').and.contain('2026-11-26 14:05 UTC');
    // A due time already passed (the crawler is behind): "shortly", never a time in the past.
    expect(message({ state: 'blocked', nextTryAt: now, now })).to.contain('birazdan').and.not.contain('UTC');
    // A playlist's says the same of the playlist.
    const playlist = (crawl?: CrawlView) => errorBody('noPlaylistVideosYet', { playlistId: 'PLx', crawl }).message;
    expect(playlist()).to.contain('bu oynatma listesine henüz bakmadı');
    expect(playlist({ state: 'running' })).to.contain('bu oynatma listesini şu anda işliyor');
    expect(playlist({ state: 'blocked', nextTryAt: next, now })).to.equal(message({ state: 'blocked', nextTryAt: next, now }));
  });

  it('the channel_id message says UC and 24 characters', () => {
    expect(errorBody('invalidChannelId').message).to.match(/UC/).and.match(/24/);
  });

  it('the 401 message names the X-API-Key header and the api_key parameter', () => {
    expect(errorBody('unauthorized').message).to.contain('X-API-Key').and.contain('api_key');
  });

  it('the 429 message carries the key limit as a number, retry_after is 60', () => {
    const body = errorBody('rateLimited', { limit: 37 });
    expect(body.message).to.match(/\b37\b/);
    expect(body.retry_after).to.equal(60);
  });

  it('the 500 text is the fixed prefix naming the feed generator, then the detail', () => {
    const body = errorBody('server', { detail: 'veri deposuna ulaşılamıyor', channelId: 'UCx' });
    expect(body).to.deep.equal({ error: 'Feed oluşturucu hatası: veri deposuna ulaşılamıyor', channel_id: 'UCx' });
  });

  it('uses only the spec status codes (plus 405 for methods the spec does not serve, 413 for an upload over its limit, 403 for a reader key on an admin route or a cross-site admin change, 415 for a form body on one)', () => {
    const statuses = new Set(Object.values(CATALOGUE).map((e) => e.status));
    for (const s of statuses) expect([400, 401, 403, 404, 405, 413, 415, 429, 500]).to.include(s);
    expect(Object.entries(CATALOGUE).filter(([, e]) => e.status === 415).map(([n]) => n)).to.deep.equal(['unsupportedAdminBody']);
    const tooLarge = Object.entries(CATALOGUE).flatMap(([name, e]) => (e.status === 413 ? [name] : []));
    expect(tooLarge).to.have.members(['importTooMany', 'bodyTooLarge', 'notificationTooLarge']);
    expect(Object.entries(CATALOGUE).filter(([, e]) => e.status === 403).map(([n]) => n)).to.deep.equal(['adminOnly', 'crossSiteRefused']);
  });

  it('every condition the spec leaves open is a 400 with Turkish error, message and usage', () => {
    for (const name of ['invalidHandle', 'invalidChannelUrl', 'invalidFormat', 'invalidMaxItems', 'repeatedParameter'] as const) {
      const body = errorBody(name, { param: 'format' });
      expect(CATALOGUE[name].status).to.equal(400);
      expect(Object.keys(body).sort()).to.deep.equal(['error', 'message', 'usage']);
    }
  });

  describe('mapping thrown errors', () => {
    it('keeps ApiErrors as they are', () => {
      const e = new ApiError('noVideosYet', { channelId: 'UCx' });
      expect(toApiError(e)).to.equal(e);
    });
    it('turns a store outage into a 500 with a safe detail', () => {
      const e = toApiError(new StoreUnavailableError('SQLITE_CANTOPEN /secret/path/db.sqlite'));
      expect(e.code).to.equal('server');
      expect(errorBody('server', e.context).error).to.equal('Feed oluşturucu hatası: veri deposuna ulaşılamıyor');
    });
    it('turns a platform error into a 500 naming only the outcome', () => {
      const e = toApiError(new PlatformError('blocked', 'captcha at /sorry?token=abc'));
      expect(errorBody('server', e.context).error).to.equal('Feed oluşturucu hatası: platform hatası (blocked)');
    });
    it('turns a 4xx error from Express into a 400, anything else into a 500 without its message', () => {
      expect(toApiError(Object.assign(new URIError('Failed to decode param'), { status: 400 })).code).to.equal('badRequest');
      const e = toApiError(new Error('SELECT * FROM secrets'));
      expect(e.code).to.equal('server');
      expect(JSON.stringify(errorBody('server', e.context))).not.to.contain('SELECT');
    });
  });
});
