// The search text's words (fold.ts), the query parser (api/query/search-query.ts) and the meaning of
// a query (match.ts), as pure functions.

import { expect } from 'chai';
import { MAX_QUERY_CHARS, parseSearchText } from '../../api/query/search-query';
import { fold, tokenize, wordsOf } from '../../shared/search/fold';
import { highlightsIn, matchesSegments } from '../../shared/search/match';
import type { SearchQuery } from '../../shared/search/query';

const parsed = (text: string): SearchQuery => {
  const p = parseSearchText(text);
  if (!p.ok) throw new Error(p.error);
  return p.value;
};

describe('search words', function () {
  it('folds case, diacritics and every Turkish i to one form', function () {
    for (const w of ['İstanbul', 'ISTANBUL', 'ıstanbul', 'Istanbul', 'istanbul', 'İSTANBUL']) expect(fold(w), w).to.equal('istanbul');
    expect(wordsOf('Café crème brûlée, naïve ÅNGSTRÖM')).to.deep.equal(['cafe', 'creme', 'brulee', 'naive', 'angstrom']);
    expect(wordsOf('ΟΔΟΣ οδος')).to.deep.equal(['οδοσ', 'οδοσ']);
    expect(wordsOf('ﬁle ½ 𝕠𝕡𝕖𝕟')).to.deep.equal(['file', '1', '2', 'open']);
    expect(wordsOf("don't C++ e-mail $where NEAR(")).to.deep.equal(['don', 't', 'c', 'e', 'mail', 'where', 'near']);
  });

  it('gives the same words with their places in the original text', function () {
    const texts = ['İstanbul’da çay', 'e\u0301te\u0301 ﬁle 😀 𝕠𝕡𝕖𝕟!', 'ΟΔΟΣ Σ', 'a\u0000b \uE000 c', '½ ™ ①', 'x'];
    for (const text of texts) {
      const tokens = tokenize(text);
      expect(tokens.map((t) => t.word), text).to.deep.equal(wordsOf(text));
      for (const t of tokens) expect(wordsOf(text.slice(t.start, t.end)).join(' '), `${text} ${t.word}`).to.include(t.word);
    }
    expect(tokenize('Bir İstanbul').map((t) => [t.start, t.end])).to.deep.equal([[0, 3], [4, 12]]);
  });
});

describe('search query parser', function () {
  it('reads words, phrases, exclusions and OR into clauses', function () {
    expect(parsed('open  Source')).to.deep.equal({ all: [[['open']], [['source']]], none: [] });
    expect(parsed('"open source" -ads -"paid promotion"')).to.deep.equal({ all: [[['open', 'source']]], none: [['ads'], ['paid', 'promotion']] });
    expect(parsed('a OR b OR "c d" e')).to.deep.equal({ all: [[['a'], ['b'], ['c', 'd']], [['e']]], none: [] });
    expect(parsed('x * OR b')).to.deep.equal({ all: [[['x']], [['b']]], none: [] }, 'OR after a term without words joins nothing');
    expect(parsed('a OR * OR b')).to.deep.equal({ all: [[['a'], ['b']]], none: [] });
  });

  it('takes OR as a word where it joins nothing, and other operators always as words', function () {
    expect(parsed('OR a')).to.deep.equal({ all: [[['or']], [['a']]], none: [] });
    expect(parsed('a OR')).to.deep.equal({ all: [[['a']], [['or']]], none: [] });
    expect(parsed('a OR -b')).to.deep.equal({ all: [[['a']], [['or']]], none: [['b']] });
    expect(parsed('a or b')).to.deep.equal({ all: [[['a']], [['or']], [['b']]], none: [] });
    expect(parsed('a AND b NOT c')).to.deep.equal({ all: [[['a']], [['and']], [['b']], [['not']], [['c']]], none: [] });
    expect(parsed('NEAR(a b)')).to.deep.equal({ all: [[['near', 'a']], [['b']]], none: [] });
    expect(parsed('"a b')).to.deep.equal({ all: [[['a']], [['b']]], none: [] }, 'an unpaired quote is dropped');
    expect(parsed('don\'t')).to.deep.equal({ all: [[['don', 't']]], none: [] }, 'one written word, two words: a phrase');
  });

  it('counts terms and characters, and needs a word', function () {
    expect(parseSearchText('x'.repeat(MAX_QUERY_CHARS)).ok).to.equal(true);
    expect(parseSearchText('x'.repeat(MAX_QUERY_CHARS + 1))).to.deep.equal({ ok: false, error: 'searchQueryTooLong' });
    expect(parseSearchText('😀'.repeat(MAX_QUERY_CHARS)), 'counted in characters, not UTF-16 units: not too long, only wordless').to.deep.equal({ ok: false, error: 'searchNoWords' });
    expect(parseSearchText('a b c d e f g h i j').ok).to.equal(true);
    expect(parseSearchText('a b c d e f g h i j k')).to.deep.equal({ ok: false, error: 'searchTooManyTerms' });
    expect(parseSearchText('a b c d e -f -g -h -i "j k" -l')).to.deep.equal({ ok: false, error: 'searchTooManyTerms' });
    expect(parseSearchText('a OR b OR c OR d OR e OR f OR g OR h OR i OR j').ok, 'OR is not a term').to.equal(true);
    expect(parseSearchText('-a -b')).to.deep.equal({ ok: false, error: 'searchNoWords' });
    expect(parseSearchText('*** ^^^ {}')).to.deep.equal({ ok: false, error: 'searchNoWords' });
  });
});

describe('search matching', function () {
  const doc = [wordsOf('Open source in İstanbul'), wordsOf('We like open data.'), wordsOf('Source code here.')];
  it('decides clauses, phrases inside one segment and exclusions', function () {
    expect(matchesSegments(parsed('istanbul code'), doc)).to.equal(true);
    expect(matchesSegments(parsed('"open source"'), doc)).to.equal(true);
    expect(matchesSegments(parsed('"data source"'), doc), 'not across segments').to.equal(false);
    expect(matchesSegments(parsed('open -code'), doc)).to.equal(false);
    expect(matchesSegments(parsed('missing OR data'), doc)).to.equal(true);
  });

  it('marks every occurrence of every positive term, merged where they overlap', function () {
    const text = 'Open source, OPEN Source; open.';
    const spans = highlightsIn(parsed('"open source" open'), text);
    expect(spans.map((s) => text.slice(s.start, s.end))).to.deep.equal(['Open source', 'OPEN Source', 'open']);
    expect(highlightsIn(parsed('istanbul'), 'İstanbul’da').map((s) => [s.start, s.end])).to.deep.equal([[0, 8]]);
  });
});
