// Issue 27, findings 6 and 7, over the real API on a socket and a real SQLite store: hostile texts
// stored as a channel's title, a video's title and description, an imported subscription title and
// transcript paragraphs, then every output that shows them fetched and read back with a real parser.
// Finding 6: the RSS channel description (and item title) carried the platform's text escaped only
// once, so a reader rendering it as HTML got a live <img onerror>. Finding 7: bidi override and
// isolate controls were dropped in channel and playlist feeds only.
// Each output, the one rule (docs/api.md, "How texts are escaped"):
// * no bidi embedding, override or isolate control anywhere, raw or after decoding;
// * a field a reader renders as HTML, decoded once, holds no markup but the service's own;
// * a field a reader takes as text gives the text back whole after that one decode.

import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { decodeHTML } from 'entities';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ADMIN_KEY, CHANNEL, KEY, startApi, video, type TestApi } from '../api/support';
import { sessionOf, signIn } from '../api/webapp-support';

const HOSTILE = 'Evil "><img src=x onerror=alert(1)> <script>alert(1)</script> javascript:alert(1) \u202Egpj.exe \u2066isolated\u2069 \u202Aembedded\u202C';
/** What the hostile text reads as once the bidi controls are dropped. */
const SHOWN = 'Evil "><img src=x onerror=alert(1)> <script>alert(1)</script> javascript:alert(1) gpj.exe isolated embedded';
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const VIDEO_ID = 'vid00000001';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false, trimValues: false, processEntities: true, htmlEntities: false });

/** Every string in a parsed document (values and attribute values alike). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Markup that is not the service's own: an element that runs or loads something, or an attribute that does. */
function foreignMarkup(html: string): string[] {
  const tags = html.match(/<\/?[A-Za-z][^>]*>/g) ?? [];
  return tags.filter(
    (t) =>
      /^<\/?(?:img|object|embed|base)\b/i.test(t) ||
      // The service's own: the web app's player script and the platform's embedded player.
      /^<script(?![^>]*\ssrc="\/app\/assets\/)/i.test(t) ||
      /^<iframe(?![^>]*\ssrc="https:\/\/www\.youtube\.com\/embed\/)/i.test(t) ||
      /\son[a-z]+\s*=/i.test(t) ||
      /javascript:/i.test(t),
  );
}

type Doc = Record<string, unknown>;
const at = (doc: unknown, ...path: (string | number)[]): unknown => path.reduce<unknown>((v, k) => (v === null || typeof v !== 'object' ? undefined : (v as Record<string | number, unknown>)[k]), doc);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof at(v, '#text') === 'string' ? (at(v, '#text') as string) : '');
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);

interface Output {
  readonly name: string;
  readonly path: string;
  readonly as: 'xml' | 'json' | 'html' | 'text';
  /** Who asks: a key (default the reader's), or the web app's session. */
  readonly who?: 'admin' | 'session';
  /** Fields a reader renders as HTML (after the format's one decode). */
  readonly html?: (doc: Doc) => string[];
  /** Fields a reader shows as text (after the format's one decode); each must hold the shown text whole. */
  readonly text?: (doc: Doc) => string[];
}

const atomFields = { html: (d: Doc) => [str(at(first(at(d, 'feed', 'entry')), 'content'))], text: (d: Doc) => [str(at(first(at(d, 'feed', 'entry')), 'title'))] };
const rssHtml = (d: Doc): string[] => {
  const item = first(at(d, 'rss', 'channel', 'item'));
  return [str(at(d, 'rss', 'channel', 'title')), str(at(d, 'rss', 'channel', 'description')), str(at(item, 'title')), str(at(item, 'description')), str(at(item, 'content:encoded'))];
};
// RSS's title is HTML: decoded as HTML once more, it gives the text back whole.
const rssText = (d: Doc): string[] => [decodeHTML(str(at(first(at(d, 'rss', 'channel', 'item')), 'title')))];
const jsonFields = { html: (d: Doc) => [str(at(d, 'items', 0, 'content_html'))], text: (d: Doc) => [str(at(d, 'items', 0, 'title'))] };

const OUTPUTS: readonly Output[] = [
  { name: 'channel feed, Atom', path: `/?channel_id=${CHANNEL}&format=Atom`, as: 'xml', ...atomFields, text: (d) => [...atomFields.text(d), str(at(d, 'feed', 'author', 'name')), str(at(d, 'feed', 'subtitle'))] },
  { name: 'channel feed, RSS', path: `/?channel_id=${CHANNEL}&format=Rss`, as: 'xml', html: rssHtml, text: (d) => [...rssText(d), decodeHTML(str(at(d, 'rss', 'channel', 'description')))] },
  { name: 'channel feed, JSON Feed', path: `/?channel_id=${CHANNEL}&format=Json`, as: 'json', ...jsonFields },
  { name: 'search feed, Atom', path: '/search?q=findme&format=Atom', as: 'xml', ...atomFields, text: (d) => [...atomFields.text(d), str(at(first(at(d, 'feed', 'entry')), 'author', 'name'))] },
  { name: 'search feed, RSS', path: '/search?q=findme&format=Rss', as: 'xml', html: rssHtml, text: (d) => [...rssText(d), str(at(first(at(d, 'rss', 'channel', 'item')), 'dc:creator'))] },
  { name: 'search feed, JSON Feed', path: '/search?q=findme&format=Json', as: 'json', ...jsonFields, text: (d) => [...jsonFields.text(d), str(at(d, 'items', 0, 'authors', 0, 'name'))] },
  { name: 'subscription feed, Atom', path: '/subscriptions/feed?format=Atom', as: 'xml', ...atomFields, text: (d) => [...atomFields.text(d), str(at(first(at(d, 'feed', 'entry')), 'author', 'name'))] },
  { name: 'subscription feed, RSS', path: '/subscriptions/feed?format=Rss', as: 'xml', html: rssHtml, text: (d) => [...rssText(d), str(at(first(at(d, 'rss', 'channel', 'item')), 'dc:creator'))] },
  { name: 'subscription feed, JSON Feed', path: '/subscriptions/feed?format=Json', as: 'json', ...jsonFields, text: (d) => [...jsonFields.text(d), str(at(d, 'items', 0, 'authors', 0, 'name'))] },
  { name: 'subscriptions, OPML', path: '/subscriptions', as: 'xml', text: (d) => [str(at(first(at(d, 'opml', 'body', 'outline')), '@_title'))] },
  { name: 'subscriptions, JSON', path: '/subscriptions?format=json', as: 'json', text: (d) => [str(at(d, 'subscriptions', 0, 'title'))] },
  { name: 'transcript file, VTT', path: `/transcripts/${VIDEO_ID}.vtt`, as: 'text' },
  { name: 'transcript file, SRT', path: `/transcripts/${VIDEO_ID}.srt`, as: 'text' },
  { name: 'transcript file, TXT', path: `/transcripts/${VIDEO_ID}.txt`, as: 'text' },
  { name: 'status page', path: '/status', as: 'html', who: 'admin' },
  { name: 'admin channel', path: `/admin/channels/${CHANNEL}`, as: 'json', who: 'admin' },
  { name: 'web app home', path: '/app/', as: 'html', who: 'session' },
  { name: 'web app channel', path: `/app/channels/${CHANNEL}`, as: 'html', who: 'session' },
  { name: 'web app video', path: `/app/videos/${VIDEO_ID}`, as: 'html', who: 'session' },
  { name: 'web app search', path: '/app/search?q=findme', as: 'html', who: 'session' },
];

describe('hostile texts in every output: one escaping rule, no bidi control (issue 27, findings 6 and 7)', () => {
  let api: TestApi;
  let session: string;
  before(async () => {
    api = await startApi();
    const keyId = createHash('sha256').update(KEY, 'utf8').digest('hex');
    await api.store.follow(keyId, [{ channelId: CHANNEL, title: `Imported ${HOSTILE}` }], 'import', 10, api.now);
    await api.store.registerChannel({ channelId: CHANNEL, wanted: 10, title: `Channel ${HOSTILE}` }, api.now);
    await api.store.nameChannel(CHANNEL, `Channel ${HOSTILE}`);
    const v = video(1, { title: `Video ${HOSTILE}`, description: `About ${HOSTILE}`, language: 'en', kind: 'manual', durationSeconds: 120 });
    await api.store.upsertVideos([v], [{ videoId: VIDEO_ID, language: 'en', kind: 'manual', paragraphs: [{ startMs: 0, text: `findme ${HOSTILE}` }, { startMs: 5_000, text: `second ${HOSTILE}` }], fetchedAt: v.fetchedAt! }]);
    session = sessionOf(await signIn(api, KEY));
  });
  after(() => api.close());

  for (const out of OUTPUTS) {
    it(`${out.name}: ${out.path}`, async () => {
      const res = await api.get(out.path, out.who === 'session' ? { key: null, headers: { Cookie: session } } : { key: out.who === 'admin' ? ADMIN_KEY : KEY });
      const body = await res.text();
      expect(res.status, body.slice(0, 300)).to.equal(200);
      expect(body, 'the hostile text is shown at all').to.match(/gpj\.exe|findme|Evil/);
      expect(body.match(BIDI), 'a bidi control in the raw answer').to.equal(null);
      let doc: Doc = {};
      if (out.as === 'xml') {
        expect(XMLValidator.validate(body)).to.equal(true);
        doc = xml.parse(body) as Doc;
      } else if (out.as === 'json') {
        doc = JSON.parse(body) as Doc;
      } else if (out.as === 'html') {
        expect(foreignMarkup(body), 'markup that is not the service\'s own').to.deep.equal([]);
        expect(decodeHTML(body).match(BIDI), 'a bidi control after decoding').to.equal(null);
      }
      for (const s of stringsOf(doc)) expect(s.match(BIDI), `a bidi control in ${JSON.stringify(s.slice(0, 80))}`).to.equal(null);
      for (const field of out.html?.(doc) ?? []) {
        expect(field, 'an HTML field is there').to.not.equal('');
        expect(foreignMarkup(field), `live markup in an HTML field: ${field.slice(0, 200)}`).to.deep.equal([]);
        expect(decodeHTML(field).match(BIDI), 'a bidi control in an HTML field').to.equal(null);
      }
      for (const field of out.text?.(doc) ?? []) expect(field, 'a text field gives the text back whole').to.contain(SHOWN);
    });
  }
});
