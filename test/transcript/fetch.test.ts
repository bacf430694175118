// The platform client against the fake platform over HTTP: the transcript it builds links each
// paragraph to the start of its first cue, and turns the description's chapters into headings.

import { expect } from 'chai';
import { createPlatformClient } from '../../shared/platform';
import { silentLogger } from '../../shared/logger';
import { startFakePlatform, type FakeChannelSpec, type FakeCue, type FakePlatform } from '../fake-platform';
import { platformConfig } from '../platform/support';
import { feedHtmlOf } from '../support/factories';

const CUES: FakeCue[] = [
  { start: 0.4, dur: 3, text: 'Welcome.' },
  { start: 3.5, dur: 2, text: 'Today: bread.' },
  { start: 20.25, dur: 3, text: 'First the flour.' },
  { start: 23.5, dur: 3, text: 'Then water.' },
  { start: 62.9, dur: 2, text: 'Knead it well.' },
  { start: 65, dur: 3, text: 'Still kneading.' },
  { start: 3725, dur: 2, text: 'An hour later: bake.' },
];

const DESCRIPTION = 'Bread from scratch 🍞\n\n0:00 Intro\n0:20 Flour & water → https://example.com/?a=1&b=2\n1:04 Kneading\n1:02:00 Baking\n\nSee you at 5:00 in part two';

const CHANNEL: FakeChannelSpec = {
  channelId: 'UCchapters00000000000001',
  handle: 'chapters',
  title: 'Bakery',
  videos: [
    { videoId: 'chapters001', title: 'Bread', publishedAt: new Date('2026-07-10T10:00:00Z'), captions: 'manual', cues: CUES, description: DESCRIPTION },
    { videoId: 'nochapter01', title: 'Plain', publishedAt: new Date('2026-07-09T10:00:00Z'), captions: 'automatic', cues: CUES, description: '0:00 Intro\n0:05 Too short\n1:00 End' },
  ],
};

const link = (id: string, s: number): string => `<a href="https://youtube.com/watch?v=${id}&amp;t=${s}s">`;

const LANGUAGES: FakeChannelSpec = {
  channelId: 'UClanguages0000000000001',
  handle: 'languages',
  title: 'Languages',
  videos: [
    { videoId: 'englishonly', title: 'English', publishedAt: new Date('2026-07-10T10:00:00Z'), captions: 'manual', cues: CUES, description: DESCRIPTION },
    { videoId: 'germanvideo', title: 'Deutsch', publishedAt: new Date('2026-07-09T10:00:00Z'), captions: 'foreign', language: 'de', cues: CUES },
  ],
};

describe('the platform client against the fake platform', () => {
  let fake: FakePlatform;
  before(async () => {
    fake = await startFakePlatform({ channels: [CHANNEL, LANGUAGES] });
  });
  after(() => fake.close());
  const client = () => createPlatformClient(platformConfig(fake.url, { platformTimeoutMs: 3000 }), silentLogger());

  describe('transcripts fetched from the fake platform carry start times and chapters', () => {

    it('each paragraph links to its first cue\'s start; chapters are headings and cut paragraphs', async () => {
      fake.resetCounters();
      const t = await client().fetchTranscript('chapters001');
      expect(feedHtmlOf('chapters001', t).split('\n')).to.deep.equal([
        '<p><small>Transcript: English (en), manual captions</small></p>',
        `<h3>${link('chapters001', 0)}0:00</a> Intro</h3>`,
        // Right under a heading of the same second, the heading's link is not repeated.
        `<p>Welcome. Today: bread.</p>`,
        `<h3>${link('chapters001', 20)}0:20</a> Flour &amp; water → https://example.com/?a=1&amp;b=2</h3>`,
        `<p>First the flour. Then water.</p>`,
        // 62.9 s lies before the chapter at 1:04, so the pause alone starts this paragraph.
        `<p>${link('chapters001', 62)}1:02</a> Knead it well.</p>`,
        `<h3>${link('chapters001', 64)}1:04</a> Kneading</h3>`,
        `<p>${link('chapters001', 65)}1:05</a> Still kneading.</p>`,
        `<h3>${link('chapters001', 3720)}1:02:00</a> Baking</h3>`,
        `<p>${link('chapters001', 3725)}1:02:05</a> An hour later: bake.</p>`,
      ]);
      // The description came with the player answer: chapters cost no request.
      expect(fake.counters).to.include({ player: 1, timedtext: 1 });
    });

    it('every paragraph time is the start of a cue', async () => {
      const t = await client().fetchTranscript('chapters001');
      const stamps = [...feedHtmlOf('chapters001', t).matchAll(/<p><a href="[^"]*t=(\d+)s">/g)].map((m) => Number(m[1]));
      expect(stamps, 'the two paragraphs right under their headings carry none').to.deep.equal([62, 65, 3725]);
      for (const s of stamps) expect(CUES.some((c) => Math.floor(c.start) === s), `${s}s`).to.equal(true);
    });

    it('a description that breaks the platform\'s rule gives no headings', async () => {
      const t = await client().fetchTranscript('nochapter01');
      expect(feedHtmlOf('nochapter01', t)).not.to.include('<h3>');
      expect(feedHtmlOf('nochapter01', t).split('\n')[0]).to.equal('<p><small>Transcript: English (en), automatic captions</small></p>');
    });
  });

  describe('the reader\'s other languages from the same player answer', () => {

    it('translates into a language the video lacks: one more timed-text request, no new player call', async () => {
      fake.resetCounters();
      const t = await client().fetchTranscript('englishonly', ['tr']);
      expect(t).to.include({ language: 'en', kind: 'manual' });
      expect(fake.counters).to.include({ player: 1, timedtext: 2 });
      expect(t.others).to.have.length(1);
      const tr = t.others![0]!;
      expect(tr).to.include({ language: 'tr', kind: 'translated' });
      // Same timing as the original, cut at the same chapters.
      expect(tr.paragraphs.map((p) => p.startMs)).to.deep.equal(t.paragraphs!.map((p) => p.startMs));
      expect(tr.paragraphs[0]!.text).to.equal('[tr] Welcome. [tr] Today: bread.');
    });

    it('takes the video\'s own track in a wanted language, and skips the main language and what is not offered', async () => {
      fake.resetCounters();
      const t = await client().fetchTranscript('germanvideo', ['en', 'de', 'xx', 'tr']);
      // TRANSCRIPT_LANGUAGES (en) is not there: the video's own German track is the main one.
      expect(t).to.include({ language: 'de', kind: 'manual' });
      expect(t.others!.map((o) => `${o.language}/${o.kind}`)).to.deep.equal(['en/translated', 'tr/translated']);
      expect(fake.counters).to.include({ player: 1, timedtext: 3 });
    });

    it('asks for nothing more without other languages', async () => {
      fake.resetCounters();
      const t = await client().fetchTranscript('englishonly');
      expect(t.others).to.deep.equal([]);
      expect(fake.counters).to.include({ player: 1, timedtext: 1 });
    });
  });
});
