import { expect } from 'chai';
import { isLanguageCode, speaks } from '../../shared/transcript/languages';

describe('language codes', () => {
  it('a code serves its own language and its regional forms, case-insensitively, nothing else', () => {
    expect(speaks('en', 'en')).to.equal(true);
    expect(speaks('en-GB', 'en')).to.equal(true);
    expect(speaks('pt-BR', 'pt-br')).to.equal(true);
    expect(speaks('en', 'en-GB')).to.equal(false);
    expect(speaks('eng', 'en')).to.equal(false);
    expect(speaks('zh-Hant', 'zh-hans')).to.equal(false);
  });

  it('one rule for a language code, in any case: a 2-3 letter language and at most two subtags', () => {
    for (const code of ['de', 'fil', 'pt-BR', 'pt-br', 'zh-Hans', 'es-419', 'sr-Latn-RS', 'EN']) expect(isLanguageCode(code), code).to.equal(true);
    for (const code of ['', 'e', 'engl', 'en-', 'en_US', 'en-a', 'en-abcdefghi', 'en-US-x-foo', ' en', 'en,de']) expect(isLanguageCode(code), code).to.equal(false);
  });
});
