// Issue 27's held list, kept: what the attack sent to POST /subscriptions and DELETE
// /subscriptions/<ref> and found refused or inert, over real HTTP on the real API and a real SQLite
// store. OPML nested past its depth bound, compressed bodies (a gzip bomb: never inflated), text in
// other encodings, `__proto__` and `constructor` keys in JSON exports, and one key removing another
// key's subscription. (DOCTYPE and ENTITY declarations: test/api/subscriptions.test.ts "hostile files".)

import { createHash } from 'node:crypto';
import { deflateSync, gzipSync, brotliCompressSync } from 'node:zlib';
import { expect } from 'chai';
import { DEFAULT_KEYS, KEY, startApi, type TestApi } from '../api/support';

const A = 'UCBa659QWEk1AI4Tg--mrJ2A';
const B = 'UCsXVk37bltHxD1rDPwtNM8Q';
const OTHER_KEY = 'test-key-other-reader-0006';
const keyIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
const feedOf = (id: string): string => `https://www.youtube.com/feeds/videos.xml?channel_id=${id}`;
const opml = (body: string, prolog = '<?xml version="1.0"?>'): string => `${prolog}<opml version="2.0"><body>${body}</body></opml>`;

interface Answer {
  status: number;
  body: { error?: string; message?: string; imported?: number; format?: string; channels?: { channel_id?: string; title: string | null }[]; rejected?: { text: string }[] };
}

describe('imports: depth, compression, encodings, __proto__, another key\'s list (issue 27, held)', function () {
  this.timeout(60_000);
  let api: TestApi;
  beforeEach(async () => {
    api = await startApi({ keys: { ...DEFAULT_KEYS, [OTHER_KEY]: { name: 'other reader', rate_limit: 1000, enabled: true } } });
  });
  afterEach(() => api.close());

  const post = async (body: string | Buffer, headers: Record<string, string> = {}, key = KEY): Promise<Answer> => {
    const res = await api.get('/subscriptions', { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'Content-Type': 'application/octet-stream', ...headers }, key });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const followed = async (key = KEY): Promise<string[]> => (await api.store.listSubscriptions(keyIdOf(key))).map((s) => s.channelId ?? `@${s.handle}`);

  it('OPML: a feed inside 20 nested categories imports; 100,000 opened outlines are a 400 at the depth bound, nothing stored', async () => {
    let nested = `<outline text="feed" xmlUrl="${feedOf(A)}"/>`;
    for (let i = 0; i < 20; i++) nested = `<outline text="category ${i}">${nested}</outline>`;
    const ok = await post(opml(nested));
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.channels?.map((c) => c.channel_id)).to.deep.equal([A]);

    const deep = await post(opml(`${'<outline text="x">'.repeat(100_000)}<outline xmlUrl="${feedOf(B)}"/>`));
    expect(deep.status).to.equal(400);
    expect(deep.body.error).to.equal('Geçersiz XML dosyası');
    expect(deep.body.message).to.match(/100 düzeyden derin/);
    expect(await followed()).to.deep.equal([A]);
  });

  it('a compressed body is never inflated: a gzip bomb (20 MB of text in some 20 KB), deflate and br are refused as binary, nothing stored', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, `${A}\n`));
    expect(bomb.length).to.be.below(200_000);
    const list = Buffer.from(`${A}\n${B}\n`);
    const cases: [string, Buffer, Record<string, string>][] = [
      ['gzip bomb, Content-Encoding: gzip', bomb, { 'Content-Encoding': 'gzip' }],
      ['gzip bomb, no Content-Encoding', bomb, {}],
      ['gzip bomb as a form file', bomb, { 'Content-Encoding': 'gzip', 'Content-Type': 'application/gzip' }],
      ['a list, gzip', gzipSync(list), { 'Content-Encoding': 'gzip' }],
      ['a list, deflate', deflateSync(list), { 'Content-Encoding': 'deflate' }],
      ['a list, br', brotliCompressSync(list), { 'Content-Encoding': 'br' }],
    ];
    for (const [name, body, headers] of cases) {
      const res = await post(body, headers);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error, name).to.equal('Abonelik dosyası metin değil');
    }
    expect(await followed()).to.deep.equal([]);
  });

  it('encodings: UTF-8 with or without a BOM imports; UTF-16, Latin-1 (declared or not) and overlong UTF-8 are refused; a charset parameter changes nothing', async () => {
    const line = `${A}\n`;
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(line, 'utf16le')]);
    const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(line, 'utf16le').swap16()]);
    const latin1Opml = Buffer.from(opml(`<outline text="Caf\u00e9" xmlUrl="${feedOf(A)}"/>`, '<?xml version="1.0" encoding="ISO-8859-1"?>'), 'latin1');
    const refused: [string, Buffer, RegExp][] = [
      ['UTF-16LE with its BOM', utf16le, /ikili veri/],
      ['UTF-16BE with its BOM', utf16be, /ikili veri/],
      ['UTF-16LE without a BOM', Buffer.from(line, 'utf16le'), /ikili veri/],
      ['Latin-1 OPML declaring it', latin1Opml, /UTF-8/],
      ['Latin-1 text', Buffer.from(`Caf\u00e9\n${line}`, 'latin1'), /UTF-8/],
      ['an overlong "/" (C0 AF)', Buffer.from([0xc0, 0xaf, 0x0a]), /UTF-8/],
      ['a lone surrogate in UTF-8 (ED A0 80)', Buffer.concat([Buffer.from(line), Buffer.from([0xed, 0xa0, 0x80, 0x0a])]), /UTF-8/],
    ];
    for (const [name, body, message] of refused) {
      const res = await post(body);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body.error, name).to.equal('Abonelik dosyası metin değil');
      expect(res.body.message, name).to.match(message);
    }
    expect(await followed(), 'nothing stored by a refused file').to.deep.equal([]);

    const bom = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(line)]));
    expect(bom.status).to.equal(200);
    expect(bom.body.imported).to.equal(1);
    // UTF-7 would read "+ADw-script+AD4-" as <script>: the charset is not obeyed, the text is UTF-8.
    const utf7 = await post(`+ADw-script+AD4-\n${B}\n`, { 'Content-Type': 'text/plain; charset=utf-7' });
    expect(utf7.status).to.equal(200);
    expect(utf7.body.rejected?.map((r) => r.text)).to.deep.equal(['+ADw-script+AD4-']);
    expect(await followed()).to.have.members([A, B]);
  });

  it('__proto__ and constructor keys in JSON exports are plain keys: not read as lists, nothing polluted, a title "__proto__" is a title', async () => {
    const top = await post(`{"__proto__": {"subscriptions": ["${A}"]}, "subscriptions": []}`);
    expect(top.status).to.equal(200);
    expect(top.body.imported, 'a list under __proto__ is not the list').to.equal(0);
    expect(await followed()).to.deep.equal([]);

    const newpipe = await post(JSON.stringify({ app_version: '0.27', subscriptions: [{ service_id: 0, url: `https://www.youtube.com/channel/${B}`, name: 'kept', constructor: { prototype: { polluted: 1 } } }] }).replace('"service_id"', `"__proto__":{"service_id":0,"url":"https://www.youtube.com/channel/${A}"},"service_id"`));
    expect(newpipe.status).to.equal(200);
    expect(newpipe.body.format).to.equal('newpipe_json');
    expect(newpipe.body.channels?.map((c) => [c.channel_id, c.title])).to.deep.equal([[B, 'kept']]);

    const freetube = await post(`{"name":"p","subscriptions":[{"id":"${A}","name":"__proto__"}],"_id":"x","__proto__":{"subscriptions":[{"id":"${B}"}]}}\n`);
    expect(freetube.status).to.equal(200);
    expect(freetube.body.format).to.equal('freetube_db');
    expect(freetube.body.channels?.map((c) => [c.channel_id, c.title])).to.deep.equal([[A, '__proto__']]);

    const invidious = await post(`{"subscriptions":["${A}"],"__proto__":{"polluted":"yes","subscriptions":["${B}"]},"constructor":{"prototype":{"polluted":"yes"}}}`);
    expect(invidious.status).to.equal(200);
    expect(invidious.body.channels?.map((c) => c.channel_id)).to.deep.equal([A]);

    expect(({} as Record<string, unknown>).polluted, 'Object.prototype untouched').to.equal(undefined);
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'subscriptions')).to.equal(false);
    expect(await followed()).to.have.members([A, B]);
    const listed = (await (await api.get('/subscriptions?format=json')).json()) as { subscriptions: { channel_id: string; title: string | null }[] };
    expect(listed.subscriptions.map((s) => s.title).sort()).to.deep.equal(['__proto__', 'kept']);
  });

  it('another key cannot remove a key\'s subscription, by id or by handle: 404, the list and the channel as they were', async () => {
    expect((await post(`${A}\n@pendinghandle\n`)).status).to.equal(200);
    const before = await api.store.listSubscriptions(keyIdOf(KEY));
    const channel = await api.store.getChannel(A);
    for (const ref of [A, A.toLowerCase(), '@pendinghandle', '@PendingHandle', encodeURIComponent(`https://www.youtube.com/channel/${A}`)]) {
      const res = await api.get(`/subscriptions/${ref}`, { method: 'DELETE', key: OTHER_KEY });
      expect(res.status, ref).to.be.oneOf([400, 404]);
    }
    expect(await api.store.listSubscriptions(keyIdOf(KEY))).to.deep.equal(before);
    expect(await api.store.getChannel(A)).to.deep.equal(channel);
    expect(await followed(OTHER_KEY)).to.deep.equal([]);
  });
});
