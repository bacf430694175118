import { expect } from 'chai';
import { parseBrowsePage } from '../../shared/platform/browse';
import { parseChannelFeed } from '../../shared/platform/channel-feed';
import { decodeHtml, decodeXml, escapeHtml } from '../../shared/transcript/entities';
import { asArray, dig, extractPageJson } from '../../shared/platform/page-data';
import { timedParagraphs } from '../../shared/transcript/paragraphs';
import { channelIdFromPage } from '../../shared/platform/resolve';
import { parseTimedText, UnreadableTimedTextError, type Cue } from '../../shared/transcript/timedtext';
import { spokenCuesOf } from '../../shared/platform/timed-text-fetch';
import { captionTracks, chooseTrack, needsToken, plainTimedTextUrl, type CaptionTrack } from '../../shared/platform/tracks';
import { PlatformError } from '../../shared/platform/types';
import { publishDateOf } from '../../shared/platform/publish-date';
import { captureJson } from './support';

describe('platform parsers', () => {
  describe('browse (real captures)', () => {
    it('reads the lockupViewModel items and the grid continuation of the Videos tab', () => {
      const page = parseBrowsePage(captureJson('browse-videos-tab-first-page.json'));
      expect(page.title).to.equal('Creative Commons');
      expect(page.videos).to.have.length(30);
      expect(page.videos[0]).to.deep.equal({
        videoId: 'BD-LB23rRBE',
        title: 'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
        relativeDate: '13 days ago',
      });
      for (const v of page.videos) expect(v.videoId).to.match(/^[A-Za-z0-9_-]{11}$/);
      expect(page.continuation).to.be.a('string').and.match(/^4qmFsgL/);
    });

    it('reads videoRenderer items and continuation pages', () => {
      const item = (id: string) => ({
        richItemRenderer: { content: { videoRenderer: { videoId: id, title: { runs: [{ text: `T ${id}` }] }, publishedTimeText: { simpleText: '2 weeks ago' } } } },
      });
      const page = parseBrowsePage({
        onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [item('aaaaaaaaaaa'), item('bbbbbbbbbbb')] } }],
      });
      expect(page.videos.map((v) => v.videoId)).to.deep.equal(['aaaaaaaaaaa', 'bbbbbbbbbbb']);
      expect(page.videos[0]!.relativeDate).to.equal('2 weeks ago');
      expect(page.continuation).to.equal(null);
    });

    it('leaves out and reports items whose id is not a video id', () => {
      const item = (id: string) => ({ richItemRenderer: { content: { videoRenderer: { videoId: id, title: { simpleText: id } } } } });
      const page = parseBrowsePage({
        onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [item('aaaaaaaaaaa'), item('short'), item('bbbbbbbbbb/')] } }],
      });
      expect(page.videos.map((v) => v.videoId)).to.deep.equal(['aaaaaaaaaaa']);
      expect(page.dropped).to.deep.equal(['short', 'bbbbbbbbbb/']);
    });

    it('ignores the chip tokens of the grid header', () => {
      const json = captureJson('browse-videos-tab-first-page.json');
      const page = parseBrowsePage(json);
      expect(JSON.stringify(json)).to.include('chipBarViewModel');
      // The one continuation taken is the grid's last item.
      const grid = asArray(dig(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'))
        .map((t) => dig(t, 'tabRenderer', 'content', 'richGridRenderer', 'contents'))
        .find(Array.isArray) as unknown[];
      expect(page.continuation).to.equal(dig(grid.at(-1), 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
    });
  });

  describe('channel pages', () => {
    it('finds the id in ytInitialData (var and window[] forms) and in the canonical link', () => {
      const data = { metadata: { channelMetadataRenderer: { externalId: 'UCYJ61XIK64sp6ZFFS8sctxw', title: 'x' } } };
      expect(channelIdFromPage(`<script>var ytInitialData = ${JSON.stringify(data)};</script>`)).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
      expect(channelIdFromPage(`<script>window["ytInitialData"] = ${JSON.stringify(data)};</script>`)).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
      expect(channelIdFromPage('<link rel="canonical" href="https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q">')).to.equal('UCTwECeGqMZee77BjdoYtI2Q');
      expect(channelIdFromPage('<link rel="canonical" href="https://www.youtube.com/@UCTwECeGqMZee77BjdoYtI2Qx">')).to.equal(null);
    });

    it('reads the home-tab browse capture metadata the handle page embeds', () => {
      const home = captureJson('browse-channel-home.json');
      expect(channelIdFromPage(`<script>var ytInitialData = ${JSON.stringify(home)};</script>`)).to.equal('UCYJ61XIK64sp6ZFFS8sctxw');
    });

    it('cuts an embedded object whose strings contain "};"', () => {
      const html = '<script>var ytInitialData = {"a":"x};y","b":{"c":"\\"}"}};var other = 1;</script>';
      expect(extractPageJson(html, 'ytInitialData')).to.deep.equal({ a: 'x};y', b: { c: '"}' } });
      expect(extractPageJson('<p>nothing</p>', 'ytInitialData')).to.equal(null);
    });
  });

  describe('publish date of a WEB player answer (real field-masked 2026 capture)', () => {
    it('reads microformat.playerMicroformatRenderer.publishDate with its offset, else null', () => {
      expect(publishDateOf(captureJson('player-web-fields-microformat-2026.json'))!.toISOString()).to.equal('2015-01-28T05:14:36.000Z');
      expect(publishDateOf(captureJson('player-visionos-ok-2026.json'))).to.equal(null);
      expect(publishDateOf({ microformat: { playerMicroformatRenderer: { publishDate: 'soon' } } })).to.equal(null);
    });
  });

  describe('channel feed', () => {
    const feed = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
 <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=UCTwECeGqMZee77BjdoYtI2Q"/>
 <id>yt:channel:TwECeGqMZee77BjdoYtI2Q</id>
 <yt:channelId>TwECeGqMZee77BjdoYtI2Q</yt:channelId>
 <title>Creative &amp; Commons</title>
 <entry>
  <id>yt:video:BD-LB23rRBE</id>
  <yt:videoId>BD-LB23rRBE</yt:videoId>
  <yt:channelId>UCTwECeGqMZee77BjdoYtI2Q</yt:channelId>
  <title>Q&amp;A: &quot;Open&quot; Heritage &lt;3</title>
  <link rel="alternate" href="https://www.youtube.com/watch?v=BD-LB23rRBE"/>
  <published>2026-05-01T16:00:00+00:00</published>
  <updated>2026-05-02T16:00:00+00:00</updated>
  <media:group><media:title>Q&amp;A</media:title></media:group>
 </entry>
 <entry>
  <yt:videoId>0123456789a</yt:videoId>
  <title>1234</title>
  <link rel="alternate" href="https://www.youtube.com/shorts/0123456789a"/>
  <published>2026-04-30T08:30:00+00:00</published>
 </entry>
</feed>`;

    it('reads entries with exact dates, Shorts included, titles decoded', () => {
      const parsed = parseChannelFeed(feed);
      expect(parsed.title).to.equal('Creative & Commons');
      expect(parsed.videos).to.deep.equal([
        { videoId: 'BD-LB23rRBE', title: 'Q&A: "Open" Heritage <3', publishedAt: new Date('2026-05-01T16:00:00Z') },
        // Linked as /shorts/<id>: a Short.
        { videoId: '0123456789a', title: '1234', publishedAt: new Date('2026-04-30T08:30:00Z'), short: true },
      ]);
    });

    it('leaves out and reports entries whose id is not a video id', () => {
      const bad = feed.replace('<yt:videoId>0123456789a</yt:videoId>', '<yt:videoId>../../x?y=1</yt:videoId>');
      const parsed = parseChannelFeed(bad);
      expect(parsed.videos.map((v) => v.videoId)).to.deep.equal(['BD-LB23rRBE']);
      expect(parsed.dropped).to.deep.equal(['../../x?y=1']);
      expect(parseChannelFeed(feed).dropped).to.deep.equal([]);
    });

    it('an empty feed is an empty list; HTML is a failure, not an empty channel', () => {
      expect(parseChannelFeed('<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>').videos).to.deep.equal([]);
      expect(() => parseChannelFeed('<!DOCTYPE html><html><body>404</body></html>')).to.throw(PlatformError).with.property('outcome', 'transient');
    });
  });

  describe('caption tracks (real ANDROID capture)', () => {
    const tracks = captionTracks(captureJson('player-android-ok.json'));

    it('lists the 9 tracks with kind and language', () => {
      expect(tracks).to.have.length(9);
      const en = tracks.filter((t) => t.languageCode === 'en');
      expect(en.map((t) => t.kind)).to.deep.equal(['manual', 'automatic']);
      expect(en[1]!.name).to.equal('English (auto-generated)');
      expect(tracks.every((t) => !t.needsToken)).to.equal(true);
    });

    it('chooses per language, manual before automatic, else the first manual, else automatic', () => {
      expect(chooseTrack(tracks, ['en'])).to.include({ languageCode: 'en', kind: 'manual' });
      expect(chooseTrack(tracks, ['fr', 'de'])).to.include({ languageCode: 'de', kind: 'manual' });
      expect(chooseTrack(tracks, ['fr'])).to.include({ languageCode: 'zh', kind: 'manual' });
      const asrOnly = tracks.filter((t) => t.kind === 'automatic');
      expect(chooseTrack(asrOnly, ['de'])).to.include({ languageCode: 'en', kind: 'automatic' });
      const t = (languageCode: string, kind: CaptionTrack['kind'], token = false): CaptionTrack =>
        ({ baseUrl: `https://www.youtube.com/api/timedtext?lang=${languageCode}${token ? '&exp=xpe' : ''}`, languageCode, name: languageCode, kind, needsToken: token, translatable: true });
      expect(chooseTrack([t('en', 'automatic'), t('en-GB', 'manual')], ['en'])).to.include({ languageCode: 'en-GB', kind: 'manual' });
      expect(chooseTrack([t('en', 'manual', true), t('en', 'automatic')], ['en'])).to.include({ kind: 'automatic' });
      expect(chooseTrack([t('en', 'manual', true)], ['en'])).to.equal(null);
      expect(chooseTrack([], ['en'])).to.equal(null);
    });

    it('drops fmt from the URL and keeps every other parameter byte for byte', () => {
      const url = tracks.find((t) => t.languageCode === 'en' && t.kind === 'manual')!.baseUrl;
      const plain = plainTimedTextUrl(url);
      expect(plain).not.to.include('fmt=');
      expect(plain).to.include('sparams=ip,ipbits,expire,v,ei,caps,opi,xoaf&signature=');
      expect(plain.length).to.equal(url.length - '&fmt=srv3'.length);
      expect(plainTimedTextUrl('https://x/api/timedtext?fmt=json3')).to.equal('https://x/api/timedtext');
      expect(needsToken('https://x/api/timedtext?v=a&exp=xpe&lang=en')).to.equal(true);
      expect(needsToken('https://x/api/timedtext?v=a&expire=123')).to.equal(false);
    });

    it('reads the VISIONOS shape (name.runs, no fmt)', () => {
      const vision = { captions: { playerCaptionsTracklistRenderer: { captionTracks: [{ baseUrl: 'https://www.youtube.com/api/timedtext?v=x&lang=en', name: { runs: [{ text: 'English' }] }, vssId: '.en', languageCode: 'en' }] } } };
      expect(captionTracks(vision)).to.deep.equal([{ baseUrl: 'https://www.youtube.com/api/timedtext?v=x&lang=en', languageCode: 'en', name: 'English', kind: 'manual', needsToken: false, translatable: false }]);
    });
  });

  describe('timed text', () => {
    it('reads the plain format: seconds, missing dur, empty cues, double escaping, tags', () => {
      const body = '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
        '<text start="0.5" dur="2.1">It&amp;#39;s &amp;amp; that&amp;quot;s</text>' +
        '<text start="2.6">no dur &lt;i&gt;here&lt;/i&gt;</text>' +
        '<text start="4" dur="1"></text><text start="5" dur="1"/>' +
        '<text start="6.25" dur="1.5">x &amp;lt; 10\n and  more</text></transcript>';
      const { format, cues } = parseTimedText(body);
      expect(format).to.equal('plain');
      expect(cues).to.deep.equal([
        { startMs: 500, durMs: 2100, text: 'It\'s & that"s' },
        { startMs: 2600, durMs: null, text: 'no dur here' },
        { startMs: 4000, durMs: 1000, text: '' },
        { startMs: 5000, durMs: 1000, text: '' },
        { startMs: 6250, durMs: 1500, text: 'x < 10 and more' },
      ]);
    });

    it('reads srv3 with word segments', () => {
      const body = '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><head><ws id="0"/></head><body>' +
        '<p t="120" d="2500" w="1"><s ac="0">Hello</s><s t="400" ac="0"> world&amp;#39;s</s></p>\n<p t="3000" d="1000">Tom &amp;amp; Jerry<br/>again</p></body></timedtext>';
      const { format, cues } = parseTimedText(body);
      expect(format).to.equal('srv3');
      expect(cues).to.deep.equal([
        { startMs: 120, durMs: 2500, text: "Hello world's" },
        { startMs: 3000, durMs: 1000, text: 'Tom & Jerry again' },
      ]);
    });

    it('reads json3 and skips styling events', () => {
      const body = JSON.stringify({ events: [
        { tStartMs: 0, dDurationMs: 9000, id: 1 },
        { tStartMs: 120, dDurationMs: 2500, segs: [{ utf8: 'Hello' }, { utf8: ' world', tOffsetMs: 400 }] },
        { tStartMs: 2620, dDurationMs: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
      ] });
      const { format, cues } = parseTimedText(body);
      expect(format).to.equal('json3');
      expect(cues).to.deep.equal([
        { startMs: 120, durMs: 2500, text: 'Hello world' },
        { startMs: 2620, durMs: 1, text: '' },
      ]);
    });

    it('an unknown body is unreadable timed text, and the platform client calls it transient', () => {
      expect(() => parseTimedText('<html></html>')).to.throw(UnreadableTimedTextError);
      expect(() => parseTimedText('{"events":')).to.throw(UnreadableTimedTextError);
      expect(() => spokenCuesOf('<html></html>')).to.throw(PlatformError).with.property('outcome', 'transient');
      expect(() => spokenCuesOf('{"events":')).to.throw(PlatformError).with.property('outcome', 'transient');
    });
  });

  describe('entities', () => {
    it('decodes XML, HTML named and numeric references, leaves unknown names', () => {
      expect(decodeXml('a &amp;#39; &lt;b&gt; &#x41;&#66;')).to.equal('a &#39; <b> AB');
      expect(decodeHtml('caf&eacute; &hellip; &nbsp;&mdash; &#39; &bogus; &#0;')).to.equal('café … \u00a0— \' &bogus; \ufffd');
      expect(decodeHtml('&yuml;&iexcl;&szlig;')).to.equal('ÿ¡ß');
      expect(escapeHtml('<a href="x">Tom & \'Jerry\'</a>')).to.equal('&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
    });
  });

  describe('paragraphs', () => {
    const cue = (s: number, text: string, d: number | null = 1.5): Cue => ({ startMs: s * 1000, durMs: d === null ? null : d * 1000, text });
    const paragraphTexts = (cues: readonly Cue[]): string[] => timedParagraphs(cues).map((p) => p.text);

    it('breaks at pauses of 2 s or more, not at shorter ones, never without a known end', () => {
      const cues = [cue(0, 'One.'), cue(1.6, 'two'), cue(5.2, 'Three'), cue(6, 'four', null), cue(20, 'five')];
      expect(paragraphTexts(cues)).to.deep.equal(['One. two', 'Three four five']);
    });

    it('closes long paragraphs at a sentence end, and very long ones anywhere', () => {
      const sentence = 'word '.repeat(30).trim() + '.';
      const many = Array.from({ length: 10 }, (_, i) => cue(i, sentence));
      const paras = paragraphTexts(many);
      expect(paras.length).to.be.greaterThan(1);
      for (const p of paras) expect(p.length).to.be.at.most(700);
      const noPunctuation = Array.from({ length: 200 }, (_, i) => cue(i, 'lorem ipsum dolor'));
      for (const p of paragraphTexts(noPunctuation)) expect(p.length).to.be.at.most(1500);
    });
  });
});
