import { expect } from 'chai';
import { timedParagraphs } from '../../shared/transcript/paragraphs';
import type { Cue } from '../../shared/transcript/timedtext';
import { buildTranscript } from '../../shared/transcript/build';
import { languageName, renderTranscriptHtml, trackNote } from '../../shared/transcript/html';

const cue = (startS: number, text: string, durS: number | null = 1): Cue => ({ startMs: Math.round(startS * 1000), durMs: durS === null ? null : durS * 1000, text });

describe('timed paragraphs', () => {
  it('carry the start of their first cue', () => {
    const cues = [cue(1.5, 'One.'), cue(2.5, 'two'), cue(10, 'Three'), cue(11, 'four')];
    expect(timedParagraphs(cues)).to.deep.equal([
      { startMs: 1500, text: 'One. two' },
      { startMs: 10000, text: 'Three four' },
    ]);
  });

  it('never straddle a chapter boundary', () => {
    const cues = [cue(0, 'a'), cue(1, 'b'), cue(2, 'c'), cue(3, 'd'), cue(4, 'e')];
    expect(timedParagraphs(cues, [0, 2000, 3500])).to.deep.equal([
      { startMs: 0, text: 'a b' },
      { startMs: 2000, text: 'c d' },
      { startMs: 4000, text: 'e' },
    ]);
  });

  it('skip empty cues, whose start is not a paragraph start', () => {
    expect(timedParagraphs([cue(0, ''), cue(5, 'x'), cue(5.5, '')])).to.deep.equal([{ startMs: 5000, text: 'x' }]);
  });
});

describe('transcript HTML', () => {
  const base = {
    videoId: 'dQw4w9WgXcQ',
    language: 'en',
    kind: 'manual' as const,
    paragraphs: [
      { startMs: 0, text: 'Hello & welcome <b>.' },
      { startMs: 75_400, text: 'Flour first.' },
      { startMs: 3_725_000, text: 'An hour in.' },
    ],
  };

  it('opens each paragraph with its start time linking to that moment', () => {
    const html = renderTranscriptHtml({ ...base, chapters: [] });
    expect(html.split('\n')).to.deep.equal([
      '<p><small>Transcript: English (en), manual captions</small></p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> Hello &amp; welcome &lt;b&gt;.</p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=75s">1:15</a> Flour first.</p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=3725s">1:02:05</a> An hour in.</p>',
    ]);
  });

  it('puts each chapter heading before the paragraph where it starts, empty chapters included', () => {
    const html = renderTranscriptHtml({
      ...base,
      chapters: [{ startSeconds: 0, title: 'Intro 🎬' }, { startSeconds: 75, title: 'Flour <&>' }, { startSeconds: 600, title: 'Rest' }],
    });
    expect(html.split('\n').slice(1)).to.deep.equal([
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> Intro 🎬</h3>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> Hello &amp; welcome &lt;b&gt;.</p>',
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=75s">1:15</a> Flour &lt;&amp;&gt;</h3>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=75s">1:15</a> Flour first.</p>',
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=600s">10:00</a> Rest</h3>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=3725s">1:02:05</a> An hour in.</p>',
    ]);
  });

  it('escapes every cue text, and gives no paragraph for a track whose cues are empty', () => {
    const facts = { videoId: 'dQw4w9WgXcQ', language: 'en', kind: 'manual' as const, description: null, durationSeconds: null };
    const html = buildTranscript([cue(0, '<script>alert("x")</script> & co'), cue(10, "it's")], facts).html;
    expect(html.split('\n').slice(1)).to.deep.equal([
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=10s">0:10</a> it&#39;s</p>',
    ]);
    expect(buildTranscript([cue(0, '')], facts).html.split('\n').slice(1)).to.deep.equal([]);
  });

  it('says which language and kind of track it is', () => {
    expect(trackNote('tr', 'translated')).to.equal('Transcript: Turkish (tr), machine-translated captions');
    expect(trackNote('de', 'automatic')).to.equal('Transcript: German (de), automatic captions');
    expect(languageName('not a code!')).to.equal('not a code!');
  });
});
