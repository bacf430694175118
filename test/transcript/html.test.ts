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

  it('keep a sentence open at a chapter start whole before it when it ends within a few seconds', () => {
    const cues = [cue(25, 'We mix', 2), cue(27, 'the dough', 3), cue(30.5, 'until smooth.'), cue(32, 'Now flour.')];
    expect(timedParagraphs(cues, [0, 30_000])).to.deep.equal([
      { startMs: 25_000, text: 'We mix the dough until smooth.' },
      { startMs: 32_000, text: 'Now flour.' },
    ]);
    // Ended by a pause instead of a full stop (automatic captions have none): cut at the pause.
    expect(timedParagraphs([cue(28, 'and then', 2), cue(30.2, 'we wait'), cue(34, 'Flour.')], [30_000])).to.deep.equal([
      { startMs: 28_000, text: 'and then we wait' },
      { startMs: 34_000, text: 'Flour.' },
    ]);
  });

  it('cut at the chapter start when the open sentence runs on past the grace, or already ended', () => {
    const long = [cue(28, 'and then', 2.5), cue(30.5, 'more', 2.5), cue(33, 'more', 3), cue(36, 'end.')];
    expect(timedParagraphs(long, [30_000])).to.deep.equal([{ startMs: 28_000, text: 'and then' }, { startMs: 30_500, text: 'more more end.' }]);
    expect(timedParagraphs([cue(28, 'Done.', 2.5), cue(30.5, 'next')], [30_000])).to.deep.equal([{ startMs: 28_000, text: 'Done.' }, { startMs: 30_500, text: 'next' }]);
    // Never over the next chapter start, however near it is: the sentence ending just after 0:32
    // is not carried back over 0:30 (it finishes the paragraph of the chapter at 0:30 instead).
    expect(timedParagraphs([cue(29, 'a', 1.5), cue(30.5, 'b', 2), cue(32.5, 'end.')], [30_000, 32_000])).to.deep.equal([
      { startMs: 29_000, text: 'a' },
      { startMs: 30_500, text: 'b end.' },
    ]);
  });

  it('look at each cue a bounded number of times, whatever the chapters and cues (worst case)', () => {
    // 200 chapters 10 s apart, each opening with 1,000 cues inside the grace that never end a
    // sentence nor pause (no durations): every chapter start looks ahead as far as it may.
    const chapters = Array.from({ length: 200 }, (_, k) => k * 10_000);
    const cues: Cue[] = chapters.flatMap((start) => Array.from({ length: 1_000 }, (_, i) => ({ startMs: start + i * 4, durMs: null, text: 'w' })));
    let reads = 0;
    const counted = new Proxy(cues, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const paragraphs = timedParagraphs(counted, chapters);
    expect(reads).to.be.at.most(4 * cues.length);
    // And the answer is right: every chapter start begins a paragraph.
    const starts = new Set(paragraphs.map((p) => p.startMs));
    for (const c of chapters) expect(starts.has(c), String(c)).to.equal(true);
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
      // Right under its heading at the same second: the heading's link is not repeated.
      '<p>Hello &amp; welcome &lt;b&gt;.</p>',
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=75s">1:15</a> Flour &lt;&amp;&gt;</h3>',
      '<p>Flour first.</p>',
      '<h3><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=600s">10:00</a> Rest</h3>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=3725s">1:02:05</a> An hour in.</p>',
    ]);
  });

  it('keeps the start link of a paragraph under a heading when their seconds differ, and of every later one', () => {
    const html = renderTranscriptHtml({
      ...base,
      paragraphs: [{ startMs: 2_000, text: 'Late start.' }, { startMs: 5_000, text: 'Next.' }],
      chapters: [{ startSeconds: 0, title: 'Intro' }],
    });
    expect(html.split('\n').slice(2)).to.deep.equal([
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=2s">0:02</a> Late start.</p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=5s">0:05</a> Next.</p>',
    ]);
  });

  it('escapes every cue text, and gives no paragraph for a track whose cues are empty', () => {
    const facts = { videoId: 'dQw4w9WgXcQ', language: 'en', kind: 'manual' as const, description: null, durationSeconds: null };
    const html = renderTranscriptHtml(buildTranscript([cue(0, '<script>alert("x")</script> & co'), cue(10, "it's")], facts));
    expect(html.split('\n').slice(1)).to.deep.equal([
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=0s">0:00</a> &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co</p>',
      '<p><a href="https://youtube.com/watch?v=dQw4w9WgXcQ&amp;t=10s">0:10</a> it&#39;s</p>',
    ]);
    expect(renderTranscriptHtml(buildTranscript([cue(0, '')], facts)).split('\n').slice(1)).to.deep.equal([]);
  });

  it('says which language and kind of track it is', () => {
    expect(trackNote('tr', 'translated')).to.equal('Transcript: Turkish (tr), machine-translated captions');
    expect(trackNote('de', 'automatic')).to.equal('Transcript: German (de), automatic captions');
    expect(languageName('not a code!')).to.equal('not a code!');
  });
});
