import { expect } from 'chai';
import { speaks } from '../../shared/transcript/languages';

describe('language codes', () => {
  it('a code serves its own language and its regional forms, case-insensitively, nothing else', () => {
    expect(speaks('en', 'en')).to.equal(true);
    expect(speaks('en-GB', 'en')).to.equal(true);
    expect(speaks('pt-BR', 'pt-br')).to.equal(true);
    expect(speaks('en', 'en-GB')).to.equal(false);
    expect(speaks('eng', 'en')).to.equal(false);
    expect(speaks('zh-Hant', 'zh-hans')).to.equal(false);
  });
});
