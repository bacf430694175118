// fold() works unit by unit from a table (shared/search/fold.ts); the rule it must keep is the one
// written over whole texts. Every search index and query depends on the two agreeing, so this
// compares them on random texts drawn from every kind of character that folds differently.

import { expect } from 'chai';
import { fold } from '../../shared/search/fold';
import { makeRng, pick, type Rng } from '../support/random';

/** The rule as first written, over the whole text at once. */
function reference(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text.toLowerCase();
  let s = text.normalize('NFKD').replace(/[\u0300-\u036f]+/g, '');
  if (/[\u0370-\uffff]/.test(s)) s = s.replace(/\p{M}+/gu, '');
  s = s.toLowerCase();
  if (s.includes('ı')) s = s.replace(/ı/g, 'i');
  if (s.includes('ς')) s = s.replace(/ς/g, 'σ');
  return s;
}

const PIECES = [
  'a', 'Z', ' ', '\u0000', 'İ', 'ı', 'I', 'i', 'Σ', 'ς', 'σ', 'ΟΔΟΣ', 'é', 'e\u0301', '\u0301', '\u20dd', 'ﬁ',
  '½', '™', '①', '\ufdfa', '㎏', 'ǅ', 'ẞ', 'ß', '𝕠', '😀', '\ud800', '\udc00', '\uE000', 'Å', 'ﾊﾟ', '가', 'ᄀ',
  'Ꭰ', 'ꭰ', 'Ⅻ', 'ǈ', '\u0345', 'ΐ', 'Ⓐ', 'ı\u0307', 'ʼn', 'ﷺ',
];

function randomText(rng: Rng): string {
  let s = '';
  const n = Math.floor(rng() * 40);
  for (let i = 0; i < n; i++) {
    s += rng() < 0.3 ? String.fromCharCode(Math.floor(rng() * 0x10000)) : pick(rng, PIECES);
  }
  return s;
}

describe('fold by table', function () {
  it('folds every text exactly as the rule written over whole texts', function () {
    const rng = makeRng('fold');
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(rng);
      expect(fold(text), JSON.stringify(text)).to.equal(reference(text));
    }
  });

  it('folds every BMP code point on its own as the rule does, and long expanding texts too', function () {
    for (let c = 0x80; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      expect(fold(ch), c.toString(16)).to.equal(reference(ch));
    }
    const wide = '\ufdfa'.repeat(500) + 'abc';
    expect(fold(wide)).to.equal(reference(wide));
    const mixed = 'x'.repeat(3000) + '\ufdfa'.repeat(300) + 'Y'.repeat(3000);
    expect(fold(mixed)).to.equal(reference(mixed));
  });
});
