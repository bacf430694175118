import { expect } from 'chai';
import { entryContent, UNREADABLE_TRANSCRIPT_NOTE } from '../../api/feed/transcript-choice';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { videoRecord } from '../support/factories';

const at = new Date(Date.UTC(2026, 0, 1));
const row = (language: string, kind: TranscriptRecord['kind'], text = `${language} ${kind}`): TranscriptRecord =>
  ({ videoId: 'dQw4w9WgXcQ', language, kind, paragraphs: [{ startMs: 0, text }, { startMs: 65_000, text: `${text} later` }], fetchedAt: at });

const entryHtml = (v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): string | null => entryContent(v, rows, languages)?.html ?? null;
const entryLanguage = (v: VideoRecord, rows: readonly TranscriptRecord[], languages: readonly string[] | null): string | null | undefined => entryContent(v, rows, languages)?.language;

describe('which stored transcript an entry shows', () => {
  const rows = [row('en', 'manual'), row('de', 'automatic'), row('tr', 'translated'), row('pt-BR', 'manual')];
  const v = videoRecord({ videoId: 'dQw4w9WgXcQ', language: 'en', kind: 'manual', description: null });
  const note = (html: string | null) => html!.split('\n')[0];

  it('the first listed language the video has, its own track before a translation', () => {
    expect(note(entryHtml(v, rows, ['de', 'en']))).to.include('German (de), automatic');
    expect(note(entryHtml(v, rows, ['tr', 'en'])), 'own English before a Turkish translation').to.include('English (en), manual');
    expect(note(entryHtml(v, rows, ['tr']))).to.include('Turkish (tr), machine-translated');
    expect(note(entryHtml(v, rows, ['pt']))).to.include('(pt-BR), manual');
    expect(entryHtml(v, rows, ['ja']), 'none stored: the crawler\'s choice').to.include('en manual');
  });

  it('manual before automatic in one language', () => {
    expect(note(entryHtml(v, [row('en', 'automatic'), row('en-GB', 'manual')], ['en']))).to.include('manual');
  });

  it('a listed language the video has comes before a translation', () => {
    expect(entryHtml(v, [row('en', 'manual'), row('tr', 'translated')], ['tr'])).to.include('Turkish');
    expect(note(entryHtml(v, [row('de', 'automatic'), row('tr', 'translated')], ['de', 'tr']))).to.include('German');
  });

  it('renders the chosen paragraphs with the note, the links and the stored description\'s chapters', () => {
    const v = videoRecord({ videoId: 'dQw4w9WgXcQ', language: 'en', kind: 'manual', description: '0:00 Intro\n1:00 Body\n2:00 End', durationSeconds: 300 });
    const html = entryHtml(v, rows, ['tr'])!;
    expect(html.split('\n').slice(0, 3)).to.deep.equal([
      '<p><small>Transcript: Turkish (tr), machine-translated captions</small></p>',
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> Intro</h3>',
      '<p>tr translated</p>',
    ]);
    expect(html).to.include('<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=60s">1:00</a> Body</h3>');
  });

  it('without lang, the crawler\'s choice; a language not stored yet falls back to it', () => {
    expect(entryHtml(v, rows, null)).to.include('en manual');
    expect(note(entryHtml(v, [row('en', 'manual')], ['tr']))).to.include('English (en), manual');
  });

  it('says the language of what it shows: a translation\'s target, a regional code as stored', () => {
    expect(entryLanguage(v, rows, ['tr'])).to.equal('tr');
    expect(entryLanguage(v, rows, ['pt'])).to.equal('pt-BR');
    expect(entryLanguage(v, rows, ['de', 'en'])).to.equal('de');
    expect(entryLanguage(v, rows, null)).to.equal('en');
    expect(entryLanguage(videoRecord({ state: 'no_transcript', language: null, kind: null }), rows, ['tr']), 'the note: no language of its own').to.equal(undefined);
  });

  it('a ready video none of whose transcripts can be read says so', () => {
    expect(entryHtml(v, [], null)).to.equal(UNREADABLE_TRANSCRIPT_NOTE);
    expect(entryHtml(v, [row('tr', 'translated')], ['en'])).to.equal(UNREADABLE_TRANSCRIPT_NOTE);
    expect(entryLanguage(v, [], null), 'the note: no language of its own').to.equal(null);
  });

  it('paragraphs recovered without their times render as plain paragraphs: no links, no chapter headings', () => {
    const chaptered = videoRecord({ videoId: 'dQw4w9WgXcQ', language: 'en', kind: 'manual', description: '0:00 Intro\n1:00 Body\n2:00 End', durationSeconds: 300 });
    const untimed: TranscriptRecord = { ...row('en', 'manual', 'old <text>'), untimed: true };
    expect(entryHtml(chaptered, [untimed], null)!.split('\n')).to.deep.equal([
      '<p><small>Transcript: English (en), manual captions</small></p>',
      '<p>old &lt;text&gt;</p>',
      '<p>old &lt;text&gt; later</p>',
    ]);
  });

  it('a video without a transcript gets the note (null)', () => {
    expect(entryHtml(videoRecord({ state: 'no_transcript', language: null, kind: null }), rows, ['en'])).to.equal(null);
  });
});
