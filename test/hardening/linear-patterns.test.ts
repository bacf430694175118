// Every pattern that runs over text from the platform (descriptions, timed text, pages) is proven
// linear by a ReDoS checker (recheck: automaton analysis of the pattern itself, not a timing), and
// each parser is fed the worst input the platform allows, shaped after the checker's attack strings,
// and still gives the right answer. The quadratic chapter pattern this replaced is checked too, so
// the checker is known to catch what it must.

import { expect } from 'chai';
import { checkSync } from 'recheck';
import { CONSENT_ACTION, INPUT_VALUE, V_NAME, consentFormValue } from '../../shared/platform/classify';
import { MAX_TAG_CHARS, startTags } from '../../shared/platform/html-tags';
import { assignmentOf, extractPageJson } from '../../shared/platform/page-data';
import { CANONICAL_REL, LINK_HREF, channelIdFromPage } from '../../shared/platform/resolve';
import { BREAK, TAG, attributePattern, parseTimedText } from '../../shared/transcript/timedtext';
import { CHAPTER_HEAD, MAX_CHAPTER_TITLE_CHARS, parseChapters } from '../../shared/transcript/chapters';
import { CHAPTER_LINE, summaryOf } from '../../shared/transcript/summary';
import { SENTENCE_END } from '../../shared/transcript/paragraphs';

const PATTERNS: Record<string, RegExp> = {
  'chapter line head': CHAPTER_HEAD,
  'paragraphs: sentence end': SENTENCE_END,
  'summary: chapter line': CHAPTER_LINE,
  'timed text: tag': TAG,
  'timed text: line break': BREAK,
  'timed text: attribute': attributePattern('start'),
  'page: embedded object': assignmentOf('ytInitialData'),
  'consent form action': CONSENT_ACTION,
  'consent input name': V_NAME,
  'consent input value': INPUT_VALUE,
  'canonical link rel': CANONICAL_REL,
  'canonical link href': LINK_HREF,
};

describe('patterns over platform text run in linear time', function () {
  // The checker's analysis is CPU work of its own; on a loaded machine it needs its time.
  this.timeout(300_000);

  it('the checker catches the quadratic chapter pattern that froze renders', () => {
    const old = /^\s*[([]?((?:\d{1,2}:)?\d{1,2}:\d{2})[)\]]?(?:\s*[-–—:|.•]+)?\s+(\S.*?)\s*$/u;
    const verdict = checkSync(old.source, old.flags);
    expect(verdict.status).to.equal('vulnerable');
  });

  for (const [name, re] of Object.entries(PATTERNS)) {
    it(`${name}: ${re.source.slice(0, 60)}`, () => {
      const verdict = checkSync(re.source, re.flags, { timeout: 120_000 });
      expect(verdict.status, JSON.stringify(verdict)).to.equal('safe');
    });
  }
});

describe('each parser, fed the worst input the platform allows', () => {
  const blanks = [' ', '\t', '\u00a0', '\u3000'];

  it('chapters: a 5,000-character line of blanks between two words, in every kind of blank', () => {
    for (const b of blanks) {
      const d = `0:00 a${b.repeat(4990)}b\n0:30 c\n1:00 d`;
      const chapters = parseChapters(d, 120);
      expect(chapters.map((c) => c.startSeconds)).to.deep.equal([0, 30, 60]);
      expect([...chapters[0]!.title].length).to.be.at.most(MAX_CHAPTER_TITLE_CHARS);
      expect(chapters[0]!.title.startsWith('a')).to.equal(true);
    }
  });

  it('chapters: 60,000 blanks (past the platform limit, as the crawler once got) are cut, not parsed whole', () => {
    const d = `0:00 a${' '.repeat(60_000)}b\n0:30 c\n1:00 d`;
    // The rest of the text is past the description cap: only the first line is read, so no list.
    expect(parseChapters(d, 120)).to.deep.equal([]);
  });

  it('summary: the same lines', () => {
    for (const b of blanks) expect(summaryOf(`intro${b.repeat(4990)}end\n0:00 a${b.repeat(4990)}b`)).to.equal('intro end');
  });

  it('timed text: unclosed elements and unclosed tags in cue text', () => {
    const unclosed = `<transcript>${'<text start="1" dur="1">'.repeat(20_000)}`;
    expect(parseTimedText(unclosed).cues).to.deep.equal([]);
    const noEnd = `<transcript><text start="1" dur="1">ok</text>${'<text start="2"'.repeat(20_000)}`;
    expect(parseTimedText(noEnd).cues.map((c) => c.text)).to.deep.equal(['ok']);
    const tagsInText = `<transcript><text start="1" dur="1">${'&lt;a '.repeat(20_000)}x</text></transcript>`;
    expect(parseTimedText(tagsInText).cues).to.have.length(1);
    const srv3 = `<timedtext format="3"><body>${'<p t="1" d="2"/>'.repeat(3)}${'<p t="1"'.repeat(20_000)}`;
    expect(parseTimedText(srv3).cues).to.have.length(3);
    expect(parseTimedText('<transcript><textarea start="1">no</textarea><text start="2">yes</text></transcript>').cues.map((c) => c.text)).to.deep.equal(['yes']);
  });

  it('pages: a consent page and a channel page full of unclosed tags', () => {
    const junk = '<input name="x" '.repeat(30_000);
    expect(consentFormValue(`<form action="https://consent.youtube.com/s"><input type="hidden" name="v" value="cb.1"><input ${junk}`)).to.equal('cb.1');
    expect(consentFormValue(`<form action="https://consent.youtube.com/s">${junk}`)).to.equal('');
    const link = '<link rel="canonical" href="https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw">';
    expect(channelIdFromPage(`${'<link href="x" '.repeat(30_000)}`)).to.equal(null);
    expect(channelIdFromPage(`<html>${'<link rel="x">'.repeat(30_000)}${link}`)).to.equal('UCuAXFkgsw1L7xaCfnd5JJOw');
    expect(extractPageJson(`${'var ytInitialData = '.repeat(20_000)}`, 'ytInitialData')).to.equal(null);
    expect([...startTags(`<link ${'a'.repeat(MAX_TAG_CHARS + 1)}>`, 'link')]).to.deep.equal([]);
  });
});
