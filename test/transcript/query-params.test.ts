import { expect } from 'chai';
import { validateFeedQuery } from '../../api/query/feed-query';
import { errorBody } from '../../api/errors';

const ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const kindsOf = (include: unknown) => {
  const r = validateFeedQuery({ channel_id: ID, include });
  return r.ok ? r.value.kinds : r.error;
};

describe('the include parameter', () => {
  it('adds Shorts and/or live streams to the regular videos, in one order', () => {
    expect(kindsOf(undefined)).to.deep.equal(['regular']);
    expect(kindsOf('')).to.deep.equal(['regular']);
    expect(kindsOf('shorts')).to.deep.equal(['regular', 'short']);
    expect(kindsOf('live')).to.deep.equal(['regular', 'live']);
    expect(kindsOf('shorts,live')).to.deep.equal(['regular', 'short', 'live']);
    expect(kindsOf('LIVE,Shorts')).to.deep.equal(['regular', 'short', 'live']);
    expect(kindsOf('shorts,shorts')).to.deep.equal(['regular', 'short']);
  });

  it('is a 400 for anything else, upcoming included', () => {
    for (const bad of ['upcoming', 'short', 'regular', 'shorts,', ',live', 'shorts live', 'shorts;live', '__proto__', 'constructor', 'toString']) {
      expect(kindsOf(bad), bad).to.equal('invalidInclude');
    }
    expect(kindsOf(['shorts', 'live'])).to.equal('repeatedParameter');
  });

  it('has a Turkish catalogue entry with the spec usage', () => {
    const body = errorBody('invalidInclude');
    expect(body.error).to.equal('Geçersiz include değeri');
    expect(body.message).to.include("'shorts,live'");
    expect(Object.keys(body.usage!)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
  });
});

describe('the lang parameter', () => {
  const langs = (lang: unknown) => {
    const r = validateFeedQuery({ channel_id: ID, lang });
    return r.ok ? r.value.languages : r.error;
  };

  it('takes up to five language codes in order, lower-cased, each once', () => {
    expect(langs(undefined)).to.equal(null);
    expect(langs('')).to.equal(null);
    expect(langs('tr')).to.deep.equal(['tr']);
    expect(langs('tr,en')).to.deep.equal(['tr', 'en']);
    expect(langs('pt-BR,zh-Hans,es-419')).to.deep.equal(['pt-br', 'zh-hans', 'es-419']);
    expect(langs('DE,de,en')).to.deep.equal(['de', 'en']);
    expect(langs('aa,bb,cc,dd,ee')).to.deep.equal(['aa', 'bb', 'cc', 'dd', 'ee']);
  });

  it('is a 400 for more than five, or anything that is not a language code', () => {
    for (const bad of ['aa,bb,cc,dd,ee,ff', 'english', 'e', 'tr,', ',tr', 'tr en', 'tr;en', '../x', 'tr-', 'x-klingon-extra-long', '<b>', 'tr,en,', 'de-DE-x-y']) {
      expect(langs(bad), bad).to.equal('invalidLang');
    }
    expect(langs(['tr', 'en'])).to.equal('repeatedParameter');
  });

  it('has a Turkish catalogue entry with the spec usage', () => {
    const body = errorBody('invalidLang');
    expect(body.error).to.equal('Geçersiz lang değeri');
    expect(body.message).to.include("'tr,en'");
    expect(Object.keys(body.usage!)).to.deep.equal(['channel_id', 'channel', 'channel_url', 'format', 'max_items']);
  });
});
