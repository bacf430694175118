// What readers show beside the transcript, element by element in all three formats, and each
// format read back by a real reader library (rss-parser) or checked against JSON Feed 1.1's rules.

import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { jsonFeedOf, renderJsonFeed, JSON_FEED_VERSION } from '../../api/feed/json-feed';
import { MEDIA_RSS_NS, renderAtom, renderRss } from '../../api/feed/render';
import { buildFeedModel, type FeedModel } from '../../api/feed/state';
import { decodeHtml } from '../../shared/transcript/entities';
import { entryHtmlOf, videoFactory, withTranscripts } from '../support/factories';
import { jsonFeedViolations } from './json-feed-rules';

const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const video = videoFactory({ channelId: CHANNEL, publishedAt: (n) => new Date(Date.UTC(2024, 0, 10 - n, 12, 30, 5)) });
const SUMMARY = 'Bread & butter <3 — "quoted" ]]> 🍞';

// What the crawler stores from the player answer: the description's chapter lines stay out of the summary.
const first = video(1, { description: `${SUMMARY}\n\n0:00 Intro\n1:00 Middle\n2:00 End`, durationSeconds: 316 });
const FIRST_HTML = entryHtmlOf(first);

function model(): FeedModel {
  const [videos, transcripts] = withTranscripts([
    first,
    // A record stored before kinds, durations and descriptions were.
    video(2, { state: 'no_transcript', language: null, kind: null, videoKind: null, durationSeconds: null, description: null }),
  ]);
  return buildFeedModel({
    channelId: CHANNEL,
    channelTitle: 'Kanal & <Başlık>',
    videos,
    transcripts,
    updated: new Date(Date.UTC(2024, 1, 1)),
    selfUrl: 'http://127.0.0.1:5000/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=json&x=<',
  });
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, processEntities: true, htmlEntities: false });
const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const THUMB = (id: string) => ({ '@url': `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, '@width': '480', '@height': '360' });

describe('entry extras in the three formats', () => {
  describe('Atom', () => {
    const text = renderAtom(model());
    const feed = (xml.parse(text) as { feed: Record<string, unknown> }).feed;
    const entries = asArray(feed.entry as Record<string, unknown>[]);

    it('names the channel as author and subtitle; the spec title stays prefix - channel id', () => {
      expect(XMLValidator.validate(text)).to.equal(true);
      expect(feed.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
      expect(feed.author).to.deep.equal({ name: 'Kanal & <Başlık>' });
      expect(feed.subtitle).to.equal('Transcripts of the newest videos of Kanal & <Başlık>');
      expect(feed['@xmlns:media']).to.equal(MEDIA_RSS_NS);
    });

    it('gives each entry a Media RSS thumbnail, the duration when known and a text summary beside the content', () => {
      expect(entries[0]!['media:thumbnail']).to.deep.equal(THUMB('vid00000001'));
      expect(entries[0]!['media:content']).to.deep.equal({ '@url': 'https://youtube.com/watch?v=vid00000001', '@medium': 'video', '@duration': '316' });
      expect(entries[0]!.summary).to.deep.equal({ '#text': SUMMARY, '@type': 'text' });
      expect(entries[0]!.content).to.deep.equal({ '#text': FIRST_HTML, '@type': 'html', '@xml:lang': 'en' });
    });

    it('renders a record stored before these fields as before, plus its thumbnail', () => {
      expect(entries[1]!['media:thumbnail']).to.deep.equal(THUMB('vid00000002'));
      expect(entries[1]).not.to.have.property('summary');
      expect(entries[1]).not.to.have.property('media:content');
    });

    it('reads back with rss-parser, summary and content apart', async () => {
      const parsed = await new Parser({ customFields: { item: ['media:thumbnail'] } }).parseString(text);
      const item = parsed.items[0]! as unknown as Record<string, unknown>;
      expect(item.content).to.equal(FIRST_HTML);
      expect(item.summary).to.equal(SUMMARY);
      expect(item['media:thumbnail']).to.deep.equal({ $: { url: 'https://i.ytimg.com/vi/vid00000001/hqdefault.jpg', width: '480', height: '360' } });
    });
  });

  describe('RSS 2.0', () => {
    const text = renderRss(model());
    const rss = (xml.parse(text) as { rss: Record<string, unknown> }).rss;
    const channel = rss.channel as Record<string, unknown>;
    const items = asArray(channel.item as Record<string, unknown>[]);

    // RSS descriptions are read as HTML (docs/api.md, How texts are escaped): the channel's name
    // arrives HTML-escaped, and one decode gives it back.
    it('names the channel in the description, HTML-escaped as every RSS text; title as the spec says', () => {
      expect(XMLValidator.validate(text)).to.equal(true);
      expect(rss['@xmlns:media']).to.equal(MEDIA_RSS_NS);
      expect(channel.title).to.equal(`YouTube Transcripts - ${CHANNEL}`);
      expect(channel.description).to.equal('Transcripts of the newest videos of Kanal &amp; &lt;Başlık&gt;');
      expect(decodeHtml(String(channel.description))).to.equal('Transcripts of the newest videos of Kanal & <Başlık>');
    });

    it('gives each item a thumbnail, the duration and a description summary; content:encoded stays the transcript', () => {
      expect(items[0]!['media:thumbnail']).to.deep.equal(THUMB('vid00000001'));
      expect(items[0]!['media:content']).to.deep.equal({ '@url': 'https://youtube.com/watch?v=vid00000001', '@medium': 'video', '@duration': '316' });
      // Readers take RSS description as HTML: the plain text arrives HTML-escaped.
      expect(items[0]!.description).to.equal('Bread &amp; butter &lt;3 — &quot;quoted&quot; ]]&gt; 🍞');
      expect(items[0]!['content:encoded']).to.equal(FIRST_HTML);
      expect(items[1]).not.to.have.property('description');
      // One language per RSS channel (the spec's en); Dublin Core gives each item the transcript's.
      expect(rss['@xmlns:dc']).to.equal('http://purl.org/dc/elements/1.1/');
      expect(items[0]!['dc:language']).to.equal('en');
      expect(items[1]).not.to.have.property('dc:language');
    });

    it('reads back with rss-parser', async () => {
      const parsed = await new Parser({ customFields: { item: ['media:thumbnail', 'media:content'] } }).parseString(text);
      const item = parsed.items[0]! as unknown as Record<string, unknown>;
      expect(decodeHtml(parsed.description ?? '')).to.equal('Transcripts of the newest videos of Kanal & <Başlık>');
      expect(item['content:encoded']).to.equal(FIRST_HTML);
      expect(item.contentSnippet).to.equal(SUMMARY);
      expect(item['media:content']).to.deep.equal({ $: { url: 'https://youtube.com/watch?v=vid00000001', medium: 'video', duration: '316' } });
    });
  });

  describe('JSON Feed 1.1', () => {
    const text = renderJsonFeed(model());
    const doc = JSON.parse(text) as Record<string, unknown>;
    const items = doc.items as Record<string, unknown>[];

    it('follows the published rules', () => {
      expect(jsonFeedViolations(doc)).to.deep.equal([]);
      expect(doc.version).to.equal(JSON_FEED_VERSION);
    });

    it('carries the same feed fields: spec title, channel name as author and description, links', () => {
      expect(doc).to.deep.include({
        title: `YouTube Transcripts - ${CHANNEL}`,
        home_page_url: `https://youtube.com/channel/${CHANNEL}`,
        feed_url: 'http://127.0.0.1:5000/?channel_id=UCuAXFkgsw1L7xaCfnd5JJOw&format=json&x=<',
        description: 'Transcripts of the newest videos of Kanal & <Başlık>',
        authors: [{ name: 'Kanal & <Başlık>' }],
        language: 'en',
      });
    });

    it('gives each item the transcript as content_html with the same extras', () => {
      expect(items[0]).to.deep.equal({
        id: 'vid00000001',
        url: 'https://youtube.com/watch?v=vid00000001',
        external_url: 'http://127.0.0.1:5000/app/videos/vid00000001',
        title: 'Video 1',
        content_html: FIRST_HTML,
        language: 'en',
        summary: SUMMARY,
        image: 'https://i.ytimg.com/vi/vid00000001/hqdefault.jpg',
        date_published: '2024-01-09T12:30:05+00:00',
        date_modified: '2024-01-09T12:30:05+00:00',
        _transcript_feed: { duration_seconds: 316 },
      });
      expect(items[1]).not.to.have.property('summary');
      expect(items[1]).not.to.have.property('_transcript_feed');
      expect(items[1], 'the note has no language of its own: the feed\'s stands').not.to.have.property('language');
      expect(items[1]!.content_html).to.include('No transcript');
    });

    it('the checker catches what breaks the rules', () => {
      const good = jsonFeedOf(model());
      expect(jsonFeedViolations({ ...good, version: 'https://jsonfeed.org/version/1' })).to.have.length(1);
      expect(jsonFeedViolations({ ...good, title: undefined })).to.have.length(1);
      expect(jsonFeedViolations({ ...good, items: [{ id: 'a' }] })).to.deep.equal(['items[0] needs content_html or content_text']);
      expect(jsonFeedViolations({ ...good, items: [good.items[0], good.items[0]] })).to.deep.equal(['items[1].id vid00000001 is not unique']);
      expect(jsonFeedViolations({ ...good, items: [{ ...good.items[0], date_published: 'Tue, 09 Jan 2024' }] })).to.have.length(1);
      expect(jsonFeedViolations({ ...good, extra: 1 })).to.have.length(1);
    });
  });
});
