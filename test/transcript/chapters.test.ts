import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseChapters } from '../../shared/transcript/chapters';
import { deepLink, formatTimestamp, parseTimestamp } from '../../shared/transcript/timestamps';

describe('timestamps', () => {
  it('writes m:ss below an hour and h:mm:ss from an hour on', () => {
    const cases: [number, string][] = [[0, '0:00'], [9.9, '0:09'], [61, '1:01'], [599, '9:59'], [3599, '59:59'], [3600, '1:00:00'], [3723, '1:02:03'], [36000, '10:00:00']];
    for (const [s, text] of cases) expect(formatTimestamp(s), String(s)).to.equal(text);
  });

  it('reads the forms creators write and refuses the rest', () => {
    expect(parseTimestamp('0:00')).to.equal(0);
    expect(parseTimestamp('00:00')).to.equal(0);
    expect(parseTimestamp('12:34')).to.equal(754);
    expect(parseTimestamp('75:10')).to.equal(4510);
    expect(parseTimestamp('1:02:03')).to.equal(3723);
    expect(parseTimestamp('01:02:03')).to.equal(3723);
    for (const bad of ['1:60', '1:61:00', '1:2', ':30', '1::00', '100:00:00', 'a:bc', '']) expect(parseTimestamp(bad), bad).to.equal(null);
  });

  it('links to the second, with the id encoded', () => {
    expect(deepLink('dQw4w9WgXcQ', 83.9)).to.equal('https://youtube.com/watch?v=dQw4w9WgXcQ&t=83s');
    expect(deepLink('a&b', 0)).to.equal('https://youtube.com/watch?v=a%26b&t=0s');
  });
});

describe('chapters from a description', () => {
  it('reads a plain chapter list', () => {
    const d = 'My video about bread.\n\n0:00 Intro\n1:15 Flour\n4:02 Kneading\n10:30 Baking\n\nFollow me!';
    expect(parseChapters(d, 900)).to.deep.equal([
      { startSeconds: 0, title: 'Intro' },
      { startSeconds: 75, title: 'Flour' },
      { startSeconds: 242, title: 'Kneading' },
      { startSeconds: 630, title: 'Baking' },
    ]);
  });

  it('reads hours, zero-padded times and the usual separators', () => {
    const d = '00:00 - Start\n(12:00) Middle part\n[59:50] | Almost an hour\n1:00:00 – Second hour\r\n1:45:30: Wrap-up';
    expect(parseChapters(d, 7200).map((c) => [c.startSeconds, c.title])).to.deep.equal([
      [0, 'Start'], [720, 'Middle part'], [3590, 'Almost an hour'], [3600, 'Second hour'], [6330, 'Wrap-up'],
    ]);
  });

  it('keeps links and emoji in titles as plain text', () => {
    const d = '0:00 🎬 Intro\n0:30 The tool → https://example.com/tool?a=1&b=2\n2:00 Outro 👋 <3';
    expect(parseChapters(d).map((c) => c.title)).to.deep.equal(['🎬 Intro', 'The tool → https://example.com/tool?a=1&b=2', 'Outro 👋 <3']);
  });

  it('gives none when the first is not at 0:00', () => {
    expect(parseChapters('0:05 Intro\n1:00 A\n2:00 B', 300)).to.deep.equal([]);
    expect(parseChapters('1:00 A\n2:00 B\n3:00 C', 300)).to.deep.equal([]);
  });

  it('gives none with fewer than three', () => {
    expect(parseChapters('0:00 Intro\n5:00 End', 600)).to.deep.equal([]);
  });

  it('gives none when one lasts less than 10 seconds, or they go backwards', () => {
    expect(parseChapters('0:00 A\n0:09 B\n1:00 C', 300)).to.deep.equal([]);
    expect(parseChapters('0:00 A\n2:00 B\n1:00 C', 300)).to.deep.equal([]);
    // The last one runs to the end of the video.
    expect(parseChapters('0:00 A\n1:00 B\n4:55 C', 300)).to.deep.equal([]);
    expect(parseChapters('0:00 A\n1:00 B\n4:50 C', 300)).to.have.length(3);
  });

  it('does not take a timestamp in the middle of a line for a chapter', () => {
    const d = 'At 0:00 we start, see 1:30 for the trick\n0:00 Intro\nSkip to 2:00 for the demo\n3:00 Demo';
    expect(parseChapters(d, 600)).to.deep.equal([]);
    const ok = 'Best part at 1:30!\n0:00 Intro\n1:00 Setup\n3:00 Demo';
    expect(parseChapters(ok, 600).map((c) => c.title)).to.deep.equal(['Intro', 'Setup', 'Demo']);
  });

  it('ignores a time with nothing after it, and an empty description', () => {
    expect(parseChapters('0:00\n1:00\n2:00', 300)).to.deep.equal([]);
    expect(parseChapters('', 300)).to.deep.equal([]);
    expect(parseChapters(null)).to.deep.equal([]);
  });

  it('finds none in the real description of a captured player answer', () => {
    for (const file of ['player-android-ok.json']) {
      const json = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/platform-captures', file), 'utf8')) as { videoDetails: { shortDescription: string; lengthSeconds: string } };
      expect(parseChapters(json.videoDetails.shortDescription, Number(json.videoDetails.lengthSeconds)), file).to.deep.equal([]);
    }
  });
});
