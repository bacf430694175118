import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { atomDate, cdataPieces, renderAtom, renderRss, rssDate } from '../../api/feed/render';
import { shownText } from '../../shared/transcript/shown-text';
import { decodeHtml, escapeHtml } from '../../shared/transcript/entities';
import { buildFeedModel, NO_TRANSCRIPT_NOTE, type FeedModel } from '../../api/feed/state';
import { videoFactory, withTranscripts } from '../support/factories';

const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const NASTY_TITLE = 'Tom & Jerry <live> "quoted" ]]> çğıöşü İ 😀';
// The renderers take any HTML the model carries: this one has a raw `]]>`, which a CDATA section must split.
const NASTY_HTML = '<p>5 &lt; 6 &amp; a ]]> b</p>\n<p>Türkçe: çğıöşü İĞÜŞÖÇ 🎉</p>';

const video = videoFactory({
  channelId: CHANNEL,
  publishedAt: (n) => new Date(Date.UTC(2024, 0, 10 - n, 12, 30, 5)),
  fetchedAt: (n) => new Date(Date.UTC(2024, 1, 1, 0, 0, n)),
});

const [videos, transcripts] = withTranscripts([video(1, { title: NASTY_TITLE }), video(2), video(3, { state: 'no_transcript', language: null, kind: null })]);

const model = (): FeedModel => {
  const built = buildFeedModel({
    channelId: CHANNEL,
    channelTitle: 'Kanal & <Başlık>',
    videos,
    transcripts,
    updated: new Date(Date.UTC(2024, 1, 1, 0, 0, 3)),
    selfUrl: 'http://127.0.0.1:5000/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=atom&x=<&y="',
  });
  return { ...built, entries: built.entries.map((e, i) => (i === 0 ? { ...e, html: NASTY_HTML } : e)) };
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', cdataPropName: false, parseTagValue: false, processEntities: true, htmlEntities: false });
const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

// Read back by a reader library (rss-parser) over HTTP: test/api/feed.test.ts.
describe('feed renderers', () => {
  describe('Atom', () => {
    const xml = renderAtom(model());
    const doc = parser.parse(xml) as { feed: Record<string, unknown> };
    const feed = doc.feed;

    it('is well-formed XML with a UTF-8 declaration', () => {
      expect(XMLValidator.validate(xml)).to.equal(true);
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).to.equal(true);
    });

    it('has the spec elements on the feed', () => {
      expect(feed['@xmlns']).to.equal('http://www.w3.org/2005/Atom');
      expect(feed['@xml:lang']).to.equal('en');
      expect(feed.id).to.equal(CHANNEL);
      expect(feed.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
      expect(feed.updated).to.equal('2024-02-01T00:00:03+00:00');
      const links = asArray(feed.link as Record<string, string>[]);
      expect(links[0]).to.deep.equal({ '@href': `https://youtube.com/channel/${CHANNEL}` });
      expect(links[1]).to.include({ '@rel': 'self', '@href': 'http://127.0.0.1:5000/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=atom&x=<&y="' });
      expect(feed.author).to.deep.equal({ name: 'Kanal & <Başlık>' });
    });

    it('has the spec elements on each entry, newest first, text round-tripping exactly', () => {
      const entries = asArray(feed.entry as Record<string, unknown>[]);
      expect(entries.map((e) => e.id)).to.deep.equal(['vid00000001', 'vid00000002', 'vid00000003']);
      const e = entries[0]!;
      expect(e.title).to.equal(NASTY_TITLE);
      expect(e.content).to.deep.equal({ '#text': NASTY_HTML, '@type': 'html', '@xml:lang': 'en' });
      // The spec's link, then the entry's page in the web app at the self link's origin.
      expect(e.link).to.deep.equal([{ '@href': 'https://youtube.com/watch?v=vid00000001' }, { '@rel': 'related', '@type': 'text/html', '@href': 'http://127.0.0.1:5000/app/videos/vid00000001' }]);
      expect(e.published).to.equal('2024-01-09T12:30:05+00:00');
      expect(e.updated).to.equal('2024-01-09T12:30:05+00:00');
    });

    it('shows a one-line note for a video given up as having no transcript', () => {
      const entries = asArray(feed.entry as { content: { '#text': string } }[]);
      expect(entries[2]!.content['#text']).to.equal(NO_TRANSCRIPT_NOTE);
    });

    it('renders a feed without entries as valid XML', () => {
      expect(XMLValidator.validate(renderAtom({ ...model(), entries: [] }))).to.equal(true);
    });
  });

  describe('RSS 2.0', () => {
    const xml = renderRss(model());
    const rss = (parser.parse(xml) as { rss: Record<string, unknown> }).rss;
    const channel = rss.channel as Record<string, unknown>;

    it('is well-formed XML with the content namespace', () => {
      expect(XMLValidator.validate(xml)).to.equal(true);
      expect(rss['@version']).to.equal('2.0');
      expect(rss['@xmlns:content']).to.equal('http://purl.org/rss/1.0/modules/content/');
    });

    it('has the spec channel elements and the validator additions', () => {
      expect(channel.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
      expect(channel.link).to.equal(`https://youtube.com/channel/${CHANNEL}`);
      // RSS titles and descriptions are HTML (docs/api.md, "How texts are escaped"): the name escaped once.
      expect(channel.description).to.be.a('string').and.contain('Kanal &amp; &lt;Başlık&gt;');
      expect(decodeHtml(channel.description as string)).to.contain('Kanal & <Başlık>');
      expect(channel.language).to.equal('en');
      expect(channel['atom:link']).to.include({ '@rel': 'self', '@type': 'application/rss+xml' });
    });

    it('has the spec item elements; content:encoded is CDATA with ]]> split across two sections', () => {
      const items = asArray(channel.item as Record<string, unknown>[]);
      expect(items).to.have.length(3);
      const item = items[0]!;
      expect(item.title).to.equal(escapeHtml(NASTY_TITLE));
      expect(decodeHtml(item.title as string)).to.equal(NASTY_TITLE);
      expect(item['content:encoded']).to.equal(NASTY_HTML);
      expect(item.link).to.equal('https://youtube.com/watch?v=vid00000001');
      expect(item.pubDate).to.equal('Tue, 09 Jan 2024 12:30:05 +0000');
      expect(item.guid).to.deep.equal({ '#text': 'vid00000001', '@isPermaLink': 'false' });
      expect(xml).to.contain('<content:encoded><![CDATA[<p>5 &lt; 6 &amp; a ]]]]><![CDATA[> b</p>');
    });
  });

  describe('pieces', () => {
    it('formats the spec dates', () => {
      const d = new Date(Date.UTC(2024, 2, 5, 7, 8, 9, 999));
      expect(atomDate(d)).to.equal('2024-03-05T07:08:09+00:00');
      expect(rssDate(d)).to.equal('Tue, 05 Mar 2024 07:08:09 +0000');
    });

    it('splits ]]> across CDATA sections and leaves other text alone', () => {
      expect(cdataPieces('a]]>b]]>c')).to.deep.equal(['a]]', '>b]]', '>c']);
      expect(cdataPieces(']]>')).to.deep.equal([']]', '>']);
      expect(cdataPieces('plain')).to.deep.equal(['plain']);
      expect(cdataPieces('a]]>b').join('')).to.equal('a]]>b');
    });

    it('drops characters XML cannot carry, keeps emoji and Turkish letters', () => {
      expect(shownText('a\u0000b\u0007c\u001Fd\uFFFEe')).to.equal('abcde');
      expect(shownText('lone \uD800 high, lone \uDC00 low')).to.equal('lone  high, lone  low');
      expect(shownText('tab\tnl\ncr\r 😀 çğıöşü İ')).to.equal('tab\tnl\ncr\r 😀 çğıöşü İ');
      const xml = renderAtom({ ...model(), entries: [{ ...model().entries[0]!, title: 'bell\u0007 😀' }] });
      expect(XMLValidator.validate(xml)).to.equal(true);
    });

    it('uses the channel id as author when the channel title is not known yet', () => {
      expect(buildFeedModel({ channelId: CHANNEL, channelTitle: null, videos: [], updated: new Date(0), selfUrl: 'x' }).author).to.equal(CHANNEL);
    });
  });
});
