// One video's transcript: caption tracks per client, the three timed-text bodies, the refusals,
// and the watch page's publish date.

import { expect } from 'chai';
import { startFakePlatform, type FakeChannelSpec, type FakePlatform, type FakeVideoSpec } from './index';
import { ANDROID_CONTEXT, arr, at, embeddedJson, innertube, str, VISIONOS_CONTEXT, WEB_CONTEXT, type Json } from './test-support';

const CUES = [
  { start: 0.16, dur: 2.1, text: "It's simple & quick" },
  { start: 2.5, text: 'if x < 10, stop' },
  { start: 4.75, dur: 1, text: '' },
  { start: 6, dur: 2.25, text: 'Say "hello" — done.' },
];

function video(videoId: string, captions: FakeVideoSpec['captions'], extra: Partial<FakeVideoSpec> = {}): FakeVideoSpec {
  return { videoId, title: `Video ${videoId}`, publishedAt: new Date('2026-07-04T18:30:05Z'), captions, cues: CUES, ...extra };
}

const CHANNEL: FakeChannelSpec = {
  channelId: 'UCtranscripts0000000000a',
  handle: 'transcripts',
  title: 'Transcripts',
  videos: [
    video('manual00001', 'manual'),
    video('automatic01', 'automatic'),
    video('bothkinds01', 'both'),
    video('foreign0001', 'foreign'),
    video('nocaptions1', 'none'),
    video('agegated001', 'age_restricted'),
    video('removed0001', 'unavailable'),
    video('frenchvideo', 'manual', { language: 'fr' }),
  ],
};

interface Track {
  baseUrl: string;
  languageCode: string;
  vssId: string;
  kind?: string;
  name: string;
}

describe('fake platform: transcripts', () => {
  let fake: FakePlatform;
  before(async () => {
    fake = await startFakePlatform({ channels: [CHANNEL] });
  });
  after(() => fake.close());

  async function tracks(videoId: string, context: object = ANDROID_CONTEXT): Promise<{ json: Json; tracks: Track[] }> {
    const { json } = await innertube(fake.url, 'player', { context, videoId });
    const listed = at(json, 'captions.playerCaptionsTracklistRenderer.captionTracks');
    const list = listed === undefined ? [] : arr(listed);
    return {
      json,
      tracks: list.map((t) => ({
        baseUrl: str(at(t, 'baseUrl')),
        languageCode: str(at(t, 'languageCode')),
        vssId: str(at(t, 'vssId')),
        kind: at(t, 'kind') === undefined ? undefined : str(at(t, 'kind')),
        name: str(at(t, 'name.runs[0].text')),
      })),
    };
  }

  const stripFmt = (url: string) => url.replace(/&fmt=[^&]*/, '');

  describe('player caption tracks', () => {
    it('lists the tracks each caption kind implies, manual before automatic', async () => {
      const summary = async (id: string) => (await tracks(id)).tracks.map((t) => `${t.vssId}:${t.kind ?? ''}:${t.name}`);
      expect(await summary('manual00001')).to.deep.equal(['.en::English']);
      expect(await summary('automatic01')).to.deep.equal(['a.en:asr:English (auto-generated)']);
      expect(await summary('bothkinds01')).to.deep.equal(['.en::English', 'a.en:asr:English (auto-generated)']);
      expect(await summary('foreign0001')).to.deep.equal(['.de::German']);
      expect(await summary('frenchvideo')).to.deep.equal(['.fr::French']);
    });

    it('ANDROID tracks are absolute URLs on the fake, signed, with fmt=srv3 and no exp=xpe', async () => {
      const { json, tracks: list } = await tracks('bothkinds01');
      expect(at(json, 'videoDetails')).to.include({ videoId: 'bothkinds01', title: 'Video bothkinds01', channelId: CHANNEL.channelId });
      for (const t of list) {
        const url = new URL(t.baseUrl);
        expect(url.origin).to.equal(fake.url);
        expect(url.pathname).to.equal('/api/timedtext');
        expect(url.searchParams.get('v')).to.equal('bothkinds01');
        expect(url.searchParams.get('lang')).to.equal('en');
        expect(url.searchParams.get('fmt')).to.equal('srv3');
        expect(url.searchParams.get('signature')).to.match(/^[0-9A-F]{40}\.[0-9A-F]{40}$/);
        expect(url.searchParams.has('exp')).to.equal(false);
      }
      expect(new URL(list[1]?.baseUrl ?? '').searchParams.get('kind')).to.equal('asr');
    });

    it('VISIONOS tracks carry name.runs and no fmt; WEB tracks carry exp=xpe', async () => {
      const vision = await tracks('manual00001', VISIONOS_CONTEXT);
      expect(vision.tracks[0]?.name).to.equal('English');
      expect(vision.tracks[0]?.baseUrl).to.not.include('fmt=');
      const web = await tracks('manual00001', WEB_CONTEXT);
      expect(web.tracks[0]?.baseUrl).to.include('exp=xpe');
    });

    it('transcripts disabled: status OK and no captions key', async () => {
      const { json, tracks: list } = await tracks('nocaptions1');
      expect(at(json, 'playabilityStatus.status')).to.equal('OK');
      expect(at(json, 'captions')).to.equal(undefined);
      expect(list).to.deep.equal([]);
    });

    it('age restricted and unavailable videos answer with their statuses', async () => {
      const age = await tracks('agegated001');
      expect(at(age.json, 'playabilityStatus')).to.include({ status: 'LOGIN_REQUIRED', reason: 'This video may be inappropriate for some users.' });
      const gone = await tracks('removed0001');
      expect(at(gone.json, 'playabilityStatus')).to.include({ status: 'ERROR', reason: 'This video is unavailable' });
    });

    it('a player request without videoId or client is a 400', async () => {
      expect((await innertube(fake.url, 'player', { context: ANDROID_CONTEXT })).status).to.equal(400);
      expect((await innertube(fake.url, 'player', { videoId: 'manual00001' })).status).to.equal(400);
    });
  });

  describe('timed text', () => {
    const get = async (url: string) => {
      const res = await fetch(url);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };

    it('the plain format escapes the text twice, leaves dur out where the cue has none, keeps empty texts', async () => {
      const [track] = (await tracks('manual00001')).tracks;
      const { status, type, text } = await get(stripFmt(track?.baseUrl ?? ''));
      expect(status).to.equal(200);
      expect(type).to.equal('text/xml; charset=UTF-8');
      expect(text).to.equal(
        '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
          '<text start="0.16" dur="2.1">It&amp;#39;s simple &amp;amp; quick</text>' +
          '<text start="2.5">if x &amp;lt; 10, stop</text>' +
          '<text start="4.75" dur="1"></text>' +
          '<text start="6" dur="2.25">Say &amp;quot;hello&amp;quot; — done.</text>' +
          '</transcript>',
      );
    });

    it('fmt=json3 gives events with segs plus styling events without segs', async () => {
      const [track] = (await tracks('manual00001')).tracks;
      const { type, text } = await get(`${stripFmt(track?.baseUrl ?? '')}&fmt=json3`);
      expect(type).to.match(/^application\/json/);
      const events = arr(at(JSON.parse(text) as Json, 'events'));
      expect(events.some((e) => at(e, 'segs') === undefined)).to.equal(true);
      const spoken = events.filter((e) => at(e, 'segs')).map((e) => arr(at(e, 'segs')).map((seg) => str(at(seg, 'utf8'))).join(''));
      expect(spoken).to.deep.equal(["It's simple & quick", 'if x < 10, stop', 'Say "hello" — done.']);
      expect(events.find((e) => at(e, 'segs'))).to.include({ tStartMs: 160, dDurationMs: 2100 });
    });

    it('fmt=srv3 gives <timedtext format="3"> with millisecond <p> elements; automatic tracks use <s> words', async () => {
      const [manual, asr] = (await tracks('bothkinds01')).tracks;
      const manualText = (await get(manual?.baseUrl ?? '')).text;
      expect(manualText).to.include('<timedtext format="3">');
      expect(manualText).to.include('<p t="160" d="2100">It\'s simple &amp; quick</p>');
      // No dur: lasts until the next cue.
      expect(manualText).to.include('<p t="2500" d="2250">if x &lt; 10, stop</p>');
      const asrText = (await get(asr?.baseUrl ?? '')).text;
      expect(asrText).to.match(/<p t="160" d="2100" w="1"><s ac="0">it's<\/s><s t="\d+" ac="0"> simple<\/s><s t="\d+" ac="0"> &amp;<\/s>/);
      expect(asrText).to.include('<s ac="0">[Music]</s>');
    });

    it('refuses with an empty 200: exp=xpe, no signature, tampered, unknown track', async () => {
      const web = (await tracks('manual00001', WEB_CONTEXT)).tracks[0]?.baseUrl ?? '';
      const android = stripFmt((await tracks('manual00001')).tracks[0]?.baseUrl ?? '');
      const urls = [
        web,
        `${fake.url}/api/timedtext?v=manual00001&lang=en`,
        android.replace('lang=en', 'lang=de'),
        android.replace(/signature=[^&]+/, 'signature=00.00'),
        android.replace('v=manual00001', 'v=nocaptions1'),
      ];
      for (const url of urls) {
        const res = await get(url);
        expect(res, url).to.deep.include({ status: 200, text: '' });
      }
    });
  });

  describe('the watch page', () => {
    it('states the publish date in datePublished and playerMicroformatRenderer.publishDate, and the API key', async () => {
      const page = await (await fetch(`${fake.url}/watch?v=manual00001`)).text();
      // 2026-07-04T18:30:05Z is 11:30:05 in Pacific daylight time.
      expect(page).to.include('<meta itemprop="datePublished" content="2026-07-04T11:30:05-07:00">');
      const player = embeddedJson(page, 'ytInitialPlayerResponse');
      const publishDate = str(at(player, 'microformat.playerMicroformatRenderer.publishDate'));
      expect(publishDate).to.equal('2026-07-04T11:30:05-07:00');
      expect(new Date(publishDate).toISOString()).to.equal('2026-07-04T18:30:05.000Z');
      expect(str(at(player, 'captions.playerCaptionsTracklistRenderer.captionTracks[0].baseUrl'))).to.include('exp=xpe');
      expect(page).to.match(/"INNERTUBE_API_KEY":"AIza[\w-]{35}"/);
    });

    it('an unknown or removed video still answers 200, with an ERROR player response and no date', async () => {
      for (const id of ['zzzzzzzzzzz', 'removed0001']) {
        const res = await fetch(`${fake.url}/watch?v=${id}`);
        const page = await res.text();
        expect(res.status).to.equal(200);
        expect(at(embeddedJson(page, 'ytInitialPlayerResponse'), 'playabilityStatus.status')).to.equal('ERROR');
        expect(page).to.not.include('datePublished');
      }
    });
  });
});
