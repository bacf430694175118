import { expect } from 'chai';
import type { Request } from 'express';
import { ApiCache } from '../../api/cache';
import { FeedStateReader, validatorsFor, type RepresentationKey, type Validators } from '../../api/feed/state';
import { notModified } from '../../api/http/feed-answer';
import { withoutApiKey } from '../../api/http/key-redaction';
import { matchKey, presentedKey } from '../../api/http/keyed';
import { ChannelRegistrar } from '../../api/registration/channel-registrar';
import { rateLimitId, sha256, type ApiKey } from '../../shared/config/security';
import type { ChannelRecord, RegisterChannelInput } from '../../shared/store/types';
import { videoRecord } from '../support/factories';

const key = (k: string, name: string, enabled = true): ApiKey => ({ name, rateLimit: 5, enabled, role: 'reader', digest: sha256(k), keyId: sha256(k).toString('hex'), id: rateLimitId(k) });

describe('API steps', () => {
  describe('withoutApiKey (access log and self link)', () => {
    const cases: [string, string][] = [
      ['/', '/'],
      ['/?channel_id=UC1', '/?channel_id=UC1'],
      ['/?api_key=secret', '/'],
      ['/?channel=a&api_key=secret&format=Rss', '/?channel=a&format=Rss'],
      ['/?api_key=secret&api_key=again&x=1', '/?x=1'],
      ['/?api%5Fkey=secret&x=1', '/?x=1'],
      ['/?API_KEY=secret', '/'],
      ['/?api_key', '/'],
      ['/?my_api_key=keep&api_keys=keep', '/?my_api_key=keep&api_keys=keep'],
      ['/?%zz=1&api_key=secret', '/?%zz=1'],
      ['/info?api_key=a%20b', '/info'],
    ];
    for (const [url, want] of cases) it(`${url} → ${want}`, () => expect(withoutApiKey(url)).to.equal(want));
  });

  describe('key matching', () => {
    const keys = [key('first-key-0001', 'one'), key('second-key-0002', 'two'), key('off-key-00003', 'off', false)];
    it('finds the enabled key whose digest matches', () => {
      expect(matchKey('second-key-0002', keys)?.name).to.equal('two');
      expect(matchKey('first-key-0001', keys)?.name).to.equal('one');
    });
    it('refuses unknown keys, near misses and disabled keys', () => {
      for (const k of ['first-key-000', 'first-key-00011', 'FIRST-KEY-0001', '', 'off-key-00003']) expect(matchKey(k, keys), k).to.equal(null);
    });
    it('takes the header over the query parameter, and no key from a repeated parameter', () => {
      const req = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
      expect(presentedKey(req({ 'x-api-key': 'h' }), { api_key: 'q' })).to.equal('h');
      expect(presentedKey(req({}), { api_key: 'q' })).to.equal('q');
      expect(presentedKey(req({ 'x-api-key': '' }), { api_key: 'q' })).to.equal('q');
      expect(presentedKey(req({}), { api_key: ['q', 'q'] })).to.equal(null);
      expect(presentedKey(req({}), {})).to.equal(null);
    });
  });

  describe('conditional GET', () => {
    const base: RepresentationKey = { channelId: 'UC1', format: 'atom', maxItems: 10, version: new Date(Date.UTC(2024, 0, 1, 10, 0, 0, 500)), count: 3, fingerprint: 'f', author: 'a', selfUrl: 'http://h/?channel_id=UC1' };
    const v = validatorsFor(base);

    it('gives a strong ETag that changes with every input of the body', () => {
      expect(v.etag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      const variants: Partial<RepresentationKey>[] = [{ format: 'rss' }, { maxItems: 11 }, { version: new Date(0) }, { count: 4 }, { fingerprint: 'g' }, { author: 'b' }, { selfUrl: 'http://h/' }, { channelId: 'UC2' }];
      const tags = new Set(variants.map((d) => validatorsFor({ ...base, ...d }).etag));
      expect(tags.size).to.equal(variants.length);
      expect(tags.has(v.etag)).to.equal(false);
      expect(validatorsFor({ ...base }).etag).to.equal(v.etag);
    });

    it('decides 304 as RFC 9110 says', () => {
      const lm = v.lastModified;
      const table: [Record<string, string>, boolean][] = [
        [{}, false],
        [{ 'if-none-match': v.etag }, true],
        [{ 'if-none-match': `W/${v.etag}` }, true],
        [{ 'if-none-match': `"a", ${v.etag}` }, true],
        [{ 'if-none-match': '*' }, true],
        [{ 'if-none-match': '"other"' }, false],
        [{ 'if-none-match': '"other"', 'if-modified-since': lm }, false],
        [{ 'if-modified-since': lm }, true],
        [{ 'if-modified-since': new Date(Date.parse(lm) + 1000).toUTCString() }, true],
        [{ 'if-modified-since': new Date(Date.parse(lm) - 1000).toUTCString() }, false],
        [{ 'if-modified-since': 'not a date' }, false],
      ];
      for (const [headers, want] of table) expect(notModified(headers, v), JSON.stringify(headers)).to.equal(want);
    });
  });

  describe('the one cache', () => {
    it('evicts the least recently used bodies beyond its byte budget', () => {
      const cache = new ApiCache({ maxBytes: 100 });
      const c = cache.slot<Buffer>('body');
      c.set('a', Buffer.alloc(40));
      c.set('b', Buffer.alloc(40));
      expect(c.get('a')).to.have.length(40); // a is now the most recent
      c.set('c', Buffer.alloc(40));
      expect(c.get('b')).to.equal(undefined);
      expect(c.get('a')).to.have.length(40);
      expect(cache.totalBytes).to.equal(80);
      c.set('huge', Buffer.alloc(101));
      expect(c.get('huge')).to.equal(undefined);
      expect(cache.size).to.equal(2);
    });

    it('keeps kinds apart and bounds the number of entries', () => {
      const cache = new ApiCache({ maxEntries: 3 });
      const etags = cache.slot<Validators>('validators');
      const bodies = cache.slot<Buffer>('body');
      etags.set('k', { etag: '"x"', lastModified: 'now' });
      expect(bodies.get('k')).to.equal(undefined);
      expect(cache.slot<Validators>('validators').get('k')).to.deep.equal({ etag: '"x"', lastModified: 'now' });
      for (let i = 0; i < 10; i++) bodies.set(String(i), Buffer.alloc(1));
      expect(cache.size).to.equal(3);
      expect(etags.get('k')).to.equal(undefined);
      expect(bodies.get('9')).to.have.length(1);
    });

    it('memoizes validators without changing them', () => {
      const memo = new ApiCache().slot<Validators>('validators');
      const k: RepresentationKey = { channelId: 'UC1', format: 'rss', maxItems: 5, version: new Date(1e12), count: 1, fingerprint: 'f', author: 'a', selfUrl: 's' };
      const first = validatorsFor(k, memo);
      expect(validatorsFor(k, memo)).to.equal(first);
      expect(validatorsFor(k)).to.deep.equal(first);
    });
  });

  describe('registration memo', () => {
    it('skips repeated registrations within the TTL, never a larger wanted', async () => {
      const calls: RegisterChannelInput[] = [];
      let wanted = 0;
      const store = {
        registerChannel: (input: RegisterChannelInput) => {
          calls.push(input);
          wanted = Math.max(wanted, input.wanted);
          return Promise.resolve({ channelId: input.channelId, handle: input.handle ?? null, title: null, wanted } as ChannelRecord);
        },
        askLanguages: () => Promise.resolve(),
        getChannel: () => Promise.resolve(null),
        newChannelsOfKey: () => Promise.resolve({ count: 0, oldest: null }),
      };
      const r = new ChannelRegistrar(store);
      const t = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
      await r.register({ channelId: 'UC1', wanted: 10 }, t(0));
      await r.register({ channelId: 'UC1', wanted: 10 }, t(1000));
      await r.register({ channelId: 'UC1', wanted: 5 }, t(2000));
      expect(calls).to.have.length(1);
      await r.register({ channelId: 'UC1', wanted: 20 }, t(2500));
      expect(calls).to.have.length(2);
      await r.register({ channelId: 'UC1', wanted: 20 }, t(9000));
      expect(calls).to.have.length(3);
      // A handle learned later is written, not swallowed by the memo.
      await r.register({ channelId: 'UC1', wanted: 1, handle: 'name' }, t(9001));
      expect(calls).to.have.length(4);
    });
  });

  describe('feed state', () => {
    const v = (id: string, fetched: number) => videoRecord({ videoId: id, fetchedAt: new Date(fetched) });
    it('lists only when the version moved or the TTL passed', async () => {
      let version = 100;
      let lists = 0;
      const store = {
        feedVersion: () => Promise.resolve(new Date(version)),
        listFeedEntries: () => {
          lists++;
          return Promise.resolve([v('a', version), v('b', 50)]);
        },
        getTranscripts: () => Promise.resolve([]),
      };
      const r = new FeedStateReader(store);
      const t = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms);
      const first = await r.read('UC1', 10, t(0));
      expect(first).to.include({ count: 2 });
      expect(first!.videos).to.have.length(2);
      const warm = await r.read('UC1', 10, t(1000));
      expect(warm!.videos).to.equal(null);
      expect(warm!.fingerprint).to.equal(first!.fingerprint);
      expect(lists).to.equal(1);
      version = 200;
      // A later request: another event-loop turn (requests of one turn share one version read).
      await new Promise(setImmediate);
      const moved = await r.read('UC1', 10, t(1500));
      expect(lists).to.equal(2);
      expect(moved!.fingerprint).not.to.equal(first!.fingerprint);
      await r.read('UC1', 10, t(1500 + 5000));
      expect(lists).to.equal(3);
    });

    it('reads the version once per channel and event-loop turn, afresh in the next', async () => {
      const reads: string[] = [];
      let version = 100;
      const store = {
        feedVersion: (channelId: string) => {
          reads.push(channelId);
          return Promise.resolve(new Date(version));
        },
        listFeedEntries: () => Promise.resolve([v('a', version)]),
        getTranscripts: () => Promise.resolve([]),
      };
      const r = new FeedStateReader(store);
      const now = new Date(Date.UTC(2030, 0, 1));
      await r.read('UC1', 10, now);
      await new Promise(setImmediate);
      reads.length = 0;
      const together = await Promise.all([r.read('UC1', 10, now), r.read('UC1', 5, now), r.read('UC2', 10, now), r.read('UC1', 10, now)]);
      expect(reads).to.deep.equal(['UC1', 'UC2']);
      expect(together.map((s) => s?.version.getTime())).to.deep.equal([100, 100, 100, 100]);
      version = 200;
      await new Promise(setImmediate);
      expect((await r.read('UC1', 10, now))!.version.getTime()).to.equal(200);
      expect(reads).to.deep.equal(['UC1', 'UC2', 'UC1']);
    });

    it('is null when nothing is stored', async () => {
      const r = new FeedStateReader({ feedVersion: () => Promise.resolve(null), listFeedEntries: () => Promise.resolve([]), getTranscripts: () => Promise.resolve([]) });
      expect(await r.read('UC1', 10, new Date())).to.equal(null);
    });
  });
});
