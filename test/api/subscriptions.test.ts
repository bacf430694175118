// A key's subscriptions over real HTTP: every import format from the apps' own export samples
// (test/fixtures/subscriptions), the OPML export and its round trip through newsboat's importer,
// removal, the follow a feed request records, and the files an attacker would send (each a 4xx
// with nothing stored, no entity expanded, nothing fetched).

import { expect } from 'chai';
import { newsboatImport } from '../support/newsboat';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { MAX_IMPORT_CHANNELS } from '../../api/subscriptions/import-file';
import { DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR } from '../../shared/store/import-queue';
import { CHANNEL, KEY, LIMITED_KEY, startApi, video, type TestApi } from './support';

const FIXTURES = path.resolve(__dirname, '../fixtures/subscriptions');
const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES, name));

const ID = {
  a: 'UCBa659QWEk1AI4Tg--mrJ2A', b: 'UCsXVk37bltHxD1rDPwtNM8Q', c: 'UC6nSFpj9HTCZ5t-N3Rm3-HA',
  d: 'UCHnyfMqiRRG1u-2MsSQLbXA', e: 'UCYO_jab_esuFRV4b17AJtAw', f: 'UC9-y-6csu5WGm29I7JiwpnA',
} as const;

const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

interface ImportAnswer {
  imported: number;
  already: number;
  queued: number;
  handles_to_resolve: number;
  new_channels_per_hour: number;
  format: string;
  channels: { channel_id?: string; handle?: string; title: string | null; feed_url: string }[];
  rejected: { line: number; text: string; reason: string }[];
}

interface ErrorAnswer {
  error: string;
  message?: string;
  line?: number;
}

describe('subscriptions: import, export, removal', function () {
  let api: TestApi;
  beforeEach(async function () {
    api = await startApi({ publicBaseUrl: 'https://feeds.example.org' });
  });
  afterEach(async function () {
    await api.close();
  });

  const post = (body: string | Buffer, headers: Record<string, string> = {}, key: string = KEY): Promise<Response> =>
    api.get('/subscriptions', { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': 'application/octet-stream', ...headers }, key });
  const importOk = async (body: string | Buffer, headers?: Record<string, string>): Promise<ImportAnswer> => {
    const res = await post(body, headers);
    const answer = (await res.json()) as ImportAnswer;
    expect(res.status, JSON.stringify(answer)).to.equal(200);
    return answer;
  };
  const followed = async (key = KEY): Promise<(string | null)[]> => (await api.store.listSubscriptions(keyIdOf(key))).map((s) => s.channelId ?? `@${s.handle}`);

  describe('each format, from the apps’ own export samples', function () {
    const cases: { file: string; format: string; ids: string[]; titles?: Record<string, string>; rejected?: number[] }[] = [
      {
        file: 'takeout-subscriptions.csv', format: 'takeout_csv', ids: [ID.a, ID.b, ID.c, ID.d, ID.e],
        titles: { [ID.b]: 'Kurzgesagt – In a Nutshell', [ID.c]: 'Vsauce, Michael & Kevin', [ID.d]: 'Veritasium "Science" Channel' },
      },
      { file: 'freetube-youtube-subscriptions.csv', format: 'takeout_csv', ids: [ID.a, ID.b, ID.c] },
      { file: 'newpipe-subscriptions.json', format: 'newpipe_json', ids: [ID.a, ID.b, ID.c, ID.d], titles: { [ID.a]: 'Tom Scott' }, rejected: [5] },
      { file: 'freetube-subscriptions.db', format: 'freetube_db', ids: [ID.a, ID.b, ID.c, ID.d, ID.e], titles: { [ID.e]: '3Blue1Brown' } },
      { file: 'freetube-youtube-subscriptions.json', format: 'youtube_json', ids: [ID.a, ID.b] },
      { file: 'freetube-youtube-subscriptions.opml', format: 'opml', ids: [ID.a, ID.b, ID.c], titles: { [ID.b]: 'Kurzgesagt – In a Nutshell' } },
      { file: 'invidious-subscription_manager.opml', format: 'opml', ids: [ID.f, ID.b, ID.a] },
      { file: 'invidious-subscription_manager.json', format: 'invidious_json', ids: [ID.a, ID.b, ID.f] },
      { file: 'reader-export.opml', format: 'opml', ids: [ID.d, ID.e, '@tomscottgo'], rejected: [15] },
      { file: 'channels.txt', format: 'text', ids: [ID.a, '@veritasium', '@3blue1brown', ID.c, '@computerphile', ID.b], rejected: [9] },
    ];

    for (const c of cases) {
      it(`${c.file}: ${c.ids.length} channels, told from the content`, async function () {
        // The Content-Type says nothing useful: the format comes from the bytes.
        const answer = await importOk(fixture(c.file), { 'Content-Type': 'application/octet-stream' });
        expect(answer.format).to.equal(c.format);
        expect(answer.imported).to.equal(c.ids.length);
        expect(answer.already).to.equal(0);
        expect(answer.channels.map((ch) => ch.channel_id ?? `@${ch.handle}`)).to.deep.equal(c.ids);
        expect(answer.rejected.map((r) => r.line)).to.deep.equal(c.rejected ?? []);
        for (const [id, title] of Object.entries(c.titles ?? {})) expect(answer.channels.find((ch) => ch.channel_id === id)?.title).to.equal(title);
        const first = answer.channels[0]!;
        expect(first.feed_url).to.equal(`https://feeds.example.org/?${first.channel_id ? `channel_id=${first.channel_id}` : `channel=${first.handle}`}&api_key=${KEY}`);
        expect(await followed()).to.have.members(c.ids);

        const again = await importOk(fixture(c.file));
        expect([again.imported, again.already], 'a second import adds nothing').to.deep.equal([0, c.ids.length]);
      });
    }

    it('registers each imported channel as work for the crawler, due now and awaited by the key, and leaves handles to the crawler', async function () {
      await importOk(fixture('channels.txt'));
      const a = await api.store.getChannel(ID.a);
      expect(a).to.deep.include({ followed: true, wanted: 10, dueAt: api.now, awaitedBy: keyIdOf(KEY) });
      expect(api.platform.calls, 'no handle resolved while the request waited').to.deep.equal([]);
      expect((await api.store.subscribedHandlesToResolve(api.now, 10, 10, api.now)).map((t) => t.handle)).to.deep.equal(['3blue1brown', 'computerphile', 'veritasium']);
    });

    it('says which entries it rejected and why, and imports the rest', async function () {
      const answer = await importOk(fixture('newpipe-subscriptions.json'));
      expect(answer.rejected).to.deep.equal([{ line: 5, text: 'https://soundcloud.com/some-artist', reason: 'YouTube dışı bir servis' }]);
      const text = await importOk(fixture('channels.txt'));
      expect(text.rejected[0]).to.deep.include({ line: 9, text: 'not a channel at all' });
    });

    it('keeps each key’s list apart and stores only the key’s digest', async function () {
      await importOk(fixture('invidious-subscription_manager.json'));
      const other = await post('UCuAXFkgsw1L7xaCfnd5JJOw\n', {}, LIMITED_KEY);
      expect(other.status).to.equal(200);
      expect(await followed(KEY)).to.have.members([ID.a, ID.b, ID.f]);
      expect(await followed(LIMITED_KEY)).to.deep.equal(['UCuAXFkgsw1L7xaCfnd5JJOw']);
      const db = readFileSync(path.join(api.dir, 'api.db'));
      const wal = readFileSync(path.join(api.dir, 'api.db-wal'));
      for (const file of [db, wal]) expect(file.includes(Buffer.from(KEY)), 'the raw key is never stored').to.equal(false);
    });

    it(`takes ${MAX_IMPORT_CHANNELS} channels in one import, and refuses one more with 413 and nothing stored`, async function () {
      const ids = Array.from({ length: MAX_IMPORT_CHANNELS + 1 }, (_, i) => `UC${String(i).padStart(22, '0')}`);
      const tooMany = await post(ids.join('\n'));
      expect(tooMany.status).to.equal(413);
      expect(((await tooMany.json()) as ErrorAnswer).error).to.equal('Çok fazla kanal');
      expect(await followed()).to.deep.equal([]);
      const answer = await importOk(ids.slice(0, MAX_IMPORT_CHANNELS).join('\r\n'));
      expect(answer.imported).to.equal(MAX_IMPORT_CHANNELS);
      expect(await followed()).to.have.length(MAX_IMPORT_CHANNELS);
      // The key's hourly allowance becomes crawler work now; the rest waits in the key's queue.
      expect(answer).to.deep.include({ queued: MAX_IMPORT_CHANNELS - DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR, new_channels_per_hour: DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR });
      expect(await api.store.followedChannels(null, 10_000)).to.have.length(DEFAULT_IMPORT_CHANNELS_PER_KEY_HOUR);
    });

    it('needs a key', async function () {
      const res = await post(fixture('channels.txt'), {}, '');
      expect(res.status).to.equal(401);
    });
  });

  describe('hostile files: a 4xx, nothing stored, nothing expanded or fetched', function () {
    let hits: string[];
    let bait: Server;
    let baitUrl: string;
    before(async function () {
      hits = [];
      bait = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.end('UCBa659QWEk1AI4Tg--mrJ2A');
      });
      await new Promise<void>((r) => bait.listen(0, '127.0.0.1', r));
      baitUrl = `http://127.0.0.1:${(bait.address() as { port: number }).port}`;
    });
    after(function () {
      bait.close();
    });

    const opmlWith = (prolog: string, text: string): string =>
      `<?xml version="1.0"?>\n${prolog}\n<opml version="2.0"><body><outline text="${text}" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${ID.a}"/></body></opml>`;

    const hostile: { name: string; body: () => string | Buffer; status: number; error: string; line?: number }[] = [
      { name: 'an empty body', body: () => '', status: 400, error: 'Abonelik dosyası boş' },
      { name: 'only white space', body: () => ' \r\n\t\n', status: 400, error: 'Abonelik dosyası boş' },
      {
        name: 'entity expansion (billion laughs)',
        body: () => opmlWith(`<!DOCTYPE opml [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>`, '&lol3;'),
        status: 400, error: 'XML bildirimlerine izin verilmez', line: 2,
      },
      { name: 'an external entity (a local file)', body: () => opmlWith('<!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'), status: 400, error: 'XML bildirimlerine izin verilmez' },
      { name: 'an external entity (a URL)', body: () => opmlWith(`<!DOCTYPE opml [<!ENTITY xxe SYSTEM "${baitUrl}/entity">]>`, '&xxe;'), status: 400, error: 'XML bildirimlerine izin verilmez' },
      { name: 'an external DTD', body: () => opmlWith(`<!DOCTYPE opml SYSTEM "${baitUrl}/dtd">`, 'x'), status: 400, error: 'XML bildirimlerine izin verilmez' },
      { name: 'a parameter entity', body: () => opmlWith(`<!doctype opml [<!ENTITY % p SYSTEM "${baitUrl}/p"> %p;]>`, 'x'), status: 400, error: 'XML bildirimlerine izin verilmez' },
      { name: 'malformed XML', body: () => '<opml version="2.0"><body><outline xmlUrl="x"></body></opml>', status: 400, error: 'Geçersiz XML dosyası' },
      { name: 'XML that is not OPML', body: () => '<?xml version="1.0"?><rss version="2.0"><channel/></rss>', status: 400, error: 'XML dosyası OPML değil' },
      { name: 'binary (a PNG)', body: () => Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), status: 400, error: 'Abonelik dosyası metin değil' },
      { name: 'text that is not UTF-8', body: () => Buffer.from([0x55, 0x43, 0xff, 0xfe, 0x0a]), status: 400, error: 'Abonelik dosyası metin değil' },
      { name: 'a CSV with the wrong header', body: () => `Name,Url\r\nTom Scott,https://www.youtube.com/channel/${ID.a}\r\n`, status: 400, error: 'Geçersiz CSV dosyası', line: 1 },
      { name: 'JSON of another shape', body: () => JSON.stringify({ feeds: [ID.a] }), status: 400, error: 'Tanınmayan JSON abonelik dosyası' },
      { name: 'broken JSON', body: () => '{"subscriptions": [\n{"service_id": 0,\n"url": }]}', status: 400, error: 'Geçersiz JSON dosyası' },
    ];

    for (const h of hostile) {
      it(`${h.name} → ${h.status}`, async function () {
        const res = await post(h.body());
        const body = (await res.json()) as ErrorAnswer;
        expect(res.status).to.equal(h.status);
        expect(body.error).to.equal(h.error);
        expect(body.message, 'says what was wrong').to.be.a('string').and.not.equal('');
        if (h.line !== undefined) expect(body.line).to.equal(h.line);
        expect(await followed(), 'nothing stored').to.deep.equal([]);
        expect(await api.store.getChannel(ID.a)).to.equal(null);
        expect(hits, 'nothing fetched').to.deep.equal([]);
      });
    }

    it('a 3 MB body → 413 before it is read, nothing stored', async function () {
      const big = `${ID.a}\n`.repeat(Math.ceil((3 * 1024 * 1024) / 25));
      const res = await post(big);
      expect(res.status).to.equal(413);
      expect(((await res.json()) as ErrorAnswer).error).to.equal('İstek gövdesi çok büyük');
      expect(await followed()).to.deep.equal([]);
    });
  });

  describe('export', function () {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'outline' });

    it('answers OPML 2.0: one rss outline per channel, titled, feed links carrying the key, channel pages', async function () {
      await importOk(fixture('takeout-subscriptions.csv'));
      await importOk('@pending_handle\n');
      await api.store.registerChannel({ channelId: ID.a, wanted: 10, title: 'Tom Scott (crawled)' }, api.now);
      const res = await api.get('/subscriptions');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/x-opml; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const text = await res.text();
      expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">')).to.equal(true);
      const doc = parser.parse(text) as { opml: { head: { title: string; dateCreated: string }; body: { outline: Record<string, string>[] } } };
      expect(doc.opml.head.dateCreated).to.equal('Tue, 01 Jan 2030 12:00:01 +0000');
      const outlines = doc.opml.body.outline;
      expect(outlines).to.have.length(6);
      for (const o of outlines) expect(o.type).to.equal('rss');
      const byUrl = new Map(outlines.map((o) => [o.xmlUrl, o]));
      const a = byUrl.get(`https://feeds.example.org/?channel_id=${ID.a}&api_key=${KEY}`)!;
      expect(a).to.deep.include({ text: 'Tom Scott (crawled)', title: 'Tom Scott (crawled)', htmlUrl: `https://www.youtube.com/channel/${ID.a}` });
      expect(byUrl.get(`https://feeds.example.org/?channel_id=${ID.d}&api_key=${KEY}`)?.title, 'the title the import gave').to.equal('Veritasium "Science" Channel');
      const pending = byUrl.get(`https://feeds.example.org/?channel=pending_handle&api_key=${KEY}`)!;
      expect(pending).to.deep.include({ title: '@pending_handle', htmlUrl: 'https://www.youtube.com/@pending_handle' });
    });

    it('format=Json gives the same list as JSON', async function () {
      await importOk(fixture('newpipe-subscriptions.json'));
      const res = await api.get('/subscriptions?format=Json');
      expect(res.status).to.equal(200);
      const body = (await res.json()) as { subscriptions: Record<string, string>[] };
      expect(body.subscriptions.map((s) => s.channel_id)).to.have.members([ID.a, ID.b, ID.c, ID.d]);
      expect(body.subscriptions[0]).to.include.keys('title', 'feed_url', 'html_url', 'source', 'since');
      expect((await api.get('/subscriptions?format=Yaml')).status).to.equal(400);
    });

    it('imports by Miniflux\'s and NetNewsWire\'s OPML rules: every channel a subscription, titled, with its page', async function () {
      await importOk(fixture('takeout-subscriptions.csv'));
      await importOk('@pending_handle\n');
      const text = await (await api.get('/subscriptions')).text();
      const exported = (parser.parse(text) as { opml: { body: { outline: Record<string, string>[] } } }).opml.body.outline;
      // The two importers' rules, as their code reads a document (an element tree, attribute names
      // case-sensitive): Miniflux (internal/reader/opml) takes <opml> then body>outline, recursively;
      // an outline is a subscription when its trimmed xmlUrl is not empty, titled by title, text,
      // htmlUrl, then xmlUrl; its site is htmlUrl, else xmlUrl. NetNewsWire (RSParser's
      // RSOPMLParser) refuses a document without "<opml" in its first 4,096 characters, reads every
      // outline's xmlUrl, title/text and htmlUrl, and takes those with an xmlUrl as feeds.
      type Outline = Record<string, string | Outline[]> & { outline?: Outline[] };
      const tree = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'outline' }).parse(text) as { opml?: { body?: { outline?: Outline[] } } };
      const walk = (outlines: Outline[] = []): Outline[] => outlines.flatMap((o) => [o, ...walk(o.outline)]);
      const attr = (o: Outline, name: string): string => (typeof o[name] === 'string' ? (o[name] as string) : '');
      expect(tree.opml, 'Miniflux decodes the document element <opml>').to.be.an('object');
      const miniflux = walk(tree.opml!.body?.outline).filter((o) => attr(o, 'xmlUrl').trim() !== '')
        .map((o) => ({ title: attr(o, 'title') || attr(o, 'text') || attr(o, 'htmlUrl') || attr(o, 'xmlUrl'), feed: attr(o, 'xmlUrl'), site: attr(o, 'htmlUrl') || attr(o, 'xmlUrl') }));
      expect(/<opml/i.test(text.slice(0, 4096)), 'NetNewsWire looks for <opml near the top').to.equal(true);
      const netNewsWire = walk(tree.opml!.body?.outline).filter((o) => attr(o, 'xmlUrl') !== '')
        .map((o) => ({ title: attr(o, 'title') || attr(o, 'text'), feed: attr(o, 'xmlUrl'), site: attr(o, 'htmlUrl') }));
      for (const read of [miniflux, netNewsWire]) {
        expect(read.map((r) => r.feed)).to.have.members(exported.map((o) => o.xmlUrl!));
        for (const r of read) {
          expect(r.title, r.feed).to.not.equal('');
          expect(new URL(r.feed).protocol, 'an absolute feed URL the reader can fetch').to.equal('https:');
          expect(r.site).to.match(/^https:\/\/www\.youtube\.com\/(channel\/UC|@)/);
        }
      }
      expect(miniflux.find((r) => r.feed.includes('channel=pending_handle'))?.title).to.equal('@pending_handle');
    });

    it('imports as is into newsboat (-i), whose feed URLs then answer with the channel’s feed', async function () {
      await importOk(fixture('freetube-subscriptions.db'));
      await api.store.upsertVideos([video(1, { channelId: ID.a })]);
      const opml = await (await api.get('/subscriptions')).text();
      const imported = newsboatImport(api.dir, opml);
      const exported = (parser.parse(opml) as { opml: { body: { outline: { xmlUrl: string }[] } } }).opml.body.outline.map((o) => o.xmlUrl);
      expect(imported).to.have.members(exported);
      expect(imported).to.have.length(5);
      // The reader uses the URL as is: on this service's address it is the channel's feed.
      const local = imported.find((u) => u.includes(ID.a))!.replace('https://feeds.example.org', api.base);
      const feed = await fetch(local);
      expect(feed.status).to.equal(200);
      expect(feed.headers.get('content-type')).to.equal('application/atom+xml');
    });
  });

  describe('follows by feed request, and removal', function () {
    it('a feed request for a channel records the follow', async function () {
      await api.store.upsertVideos([video(1)]);
      expect((await api.get(`/?channel_id=${CHANNEL}`)).status).to.equal(200);
      expect(await api.store.listSubscriptions(keyIdOf(KEY))).to.deep.equal([{ channelId: CHANNEL, kind: 'channel', handle: null, title: null, source: 'feed', since: api.now }]);
      expect((await api.get(`/?channel_id=${ID.a}`)).status, 'even before anything is stored').to.equal(404);
      expect(await followed()).to.have.members([CHANNEL, ID.a]);
    });

    it('DELETE /subscriptions/<channel_id> takes one channel off the key’s list; the channel’s data stays', async function () {
      await importOk(fixture('invidious-subscription_manager.json'));
      await importOk('@pending\n');
      const res = await api.get(`/subscriptions/${ID.a}`, { method: 'DELETE' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ removed: ID.a });
      expect(await followed()).to.have.members([ID.b, ID.f, '@pending']);
      expect((await api.store.getChannel(ID.a))?.followed).to.equal(false);
      expect((await api.get(`/subscriptions/${ID.a}`, { method: 'DELETE' })).status).to.equal(404);
      expect((await api.get('/subscriptions/@Pending', { method: 'DELETE' })).status).to.equal(200);
      const bad = await api.get('/subscriptions/not-a-channel', { method: 'DELETE' });
      expect(bad.status).to.equal(400);
      expect(((await bad.json()) as ErrorAnswer).error).to.equal('Geçersiz abonelik');
    });

    it('a feed request after DELETE follows the channel again', async function () {
      await api.store.upsertVideos([video(1)]);
      await api.get(`/?channel_id=${CHANNEL}`);
      expect((await api.get(`/subscriptions/${CHANNEL}`, { method: 'DELETE' })).status).to.equal(200);
      await api.get(`/?channel_id=${CHANNEL}`);
      expect(await followed()).to.deep.equal([CHANNEL]);
    });
  });
});
