import { expect } from 'chai';
import { validateFeedQuery, type RawQuery } from '../../api/query/feed-query';
import { errorBody } from '../../api/errors';
import { parseChannelUrl, parseHandle } from '../../shared/channel-ref';

const ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';

describe('feed query validation (spec parameter table)', () => {
  const accepted: { q: RawQuery; want: object }[] = [
    { q: { channel_id: ID }, want: { channel: { kind: 'id', channelId: ID }, format: 'atom', maxItems: 10 } },
    { q: { channel_id: 'UC' + '_-'.repeat(11) }, want: { channel: { kind: 'id', channelId: 'UC' + '_-'.repeat(11) } } },
    { q: { channel: '@Veritasium' }, want: { channel: { kind: 'handle', handle: 'Veritasium' } } },
    { q: { channel: 'veritasium' }, want: { channel: { kind: 'handle', handle: 'veritasium' } } },
    { q: { channel: 'a' }, want: { channel: { kind: 'handle', handle: 'a' } } },
    { q: { channel: '@' + 'x'.repeat(30) }, want: { channel: { kind: 'handle', handle: 'x'.repeat(30) } } },
    { q: { channel: 'a_b-c9' }, want: { channel: { kind: 'handle', handle: 'a_b-c9' } } },
    { q: { channel_url: `https://www.youtube.com/channel/${ID}` }, want: { channel: { kind: 'id', channelId: ID } } },
    { q: { channel_url: `https://youtube.com/channel/${ID}` }, want: { channel: { kind: 'id', channelId: ID } } },
    { q: { channel_url: 'https://www.youtube.com/@Veritasium' }, want: { channel: { kind: 'handle', handle: 'Veritasium' } } },
    { q: { channel_url: 'https://youtube.com/@veritasium/' }, want: { channel: { kind: 'handle', handle: 'veritasium' } } },
    { q: { channel_url: `HTTPS://WWW.YouTube.com/channel/${ID}` }, want: { channel: { kind: 'id', channelId: ID } } },
    { q: { channel_id: ID, format: 'Atom' }, want: { format: 'atom' } },
    { q: { channel_id: ID, format: 'Rss' }, want: { format: 'rss' } },
    { q: { channel_id: ID, format: 'RSS' }, want: { format: 'rss' } },
    { q: { channel_id: ID, format: 'atom' }, want: { format: 'atom' } },
    { q: { channel_id: ID, format: 'Json' }, want: { format: 'json' } },
    { q: { channel_id: ID, format: 'JSON' }, want: { format: 'json' } },
    { q: { channel_id: ID, format: '' }, want: { format: 'atom' } },
    { q: { channel_id: ID, max_items: '1' }, want: { maxItems: 1 } },
    { q: { channel_id: ID, max_items: '100' }, want: { maxItems: 100 } },
    { q: { channel_id: ID, max_items: '050' }, want: { maxItems: 50 } },
    { q: { channel_id: ID, max_items: '' }, want: { maxItems: 10 } },
    // Precedence when several are given: channel_id, then channel, then channel_url.
    { q: { channel_id: ID, channel: 'other' }, want: { channel: { kind: 'id', channelId: ID } } },
    { q: { channel: 'first', channel_url: 'https://youtube.com/@second' }, want: { channel: { kind: 'handle', handle: 'first' } } },
    { q: { channel_id: '', channel: 'fallback' }, want: { channel: { kind: 'handle', handle: 'fallback' } } },
    // Unknown parameters (cache busters and the like) are ignored.
    { q: { channel_id: ID, _: '123', utm_source: ['a', 'b'] }, want: { channel: { kind: 'id', channelId: ID } } },
  ];
  for (const c of accepted) {
    it(`accepts ${JSON.stringify(c.q)}`, () => {
      const r = validateFeedQuery(c.q);
      expect(r.ok, JSON.stringify(r)).to.equal(true);
      if (r.ok) expect(r.value).to.deep.include(c.want);
    });
  }

  const rejected: { q: RawQuery; error: string; param?: string }[] = [
    { q: {}, error: 'channelNotFound' },
    { q: { channel_id: '', channel: '', channel_url: '' }, error: 'channelNotFound' },
    { q: { format: 'Rss' }, error: 'channelNotFound' },
    { q: { channel_id: 'UC123' }, error: 'invalidChannelId' },
    { q: { channel_id: ID + 'x' }, error: 'invalidChannelId' },
    { q: { channel_id: 'XX' + ID.slice(2) }, error: 'invalidChannelId' },
    { q: { channel_id: 'uc' + ID.slice(2) }, error: 'invalidChannelId' },
    { q: { channel_id: ID.slice(0, 23) + '!' }, error: 'invalidChannelId' },
    { q: { channel_id: ID.slice(0, 23) + 'é' }, error: 'invalidChannelId' },
    { q: { channel_id: ` ${ID}` }, error: 'invalidChannelId' },
    { q: { channel_id: `${ID}\n` }, error: 'invalidChannelId' },
    { q: { channel: '@' }, error: 'invalidHandle' },
    { q: { channel: 'x'.repeat(31) }, error: 'invalidHandle' },
    { q: { channel: '@@name' }, error: 'invalidHandle' },
    { q: { channel: 'has space' }, error: 'invalidHandle' },
    { q: { channel: 'dot.ted' }, error: 'invalidHandle' },
    { q: { channel: 'çağrı' }, error: 'invalidHandle' },
    { q: { channel: 'name/../x' }, error: 'invalidHandle' },
    { q: { channel_url: 'http://www.youtube.com/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://m.youtube.com/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com.evil.example/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://evil.example/https://www.youtube.com/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com:443/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://user:pw@www.youtube.com/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/@name/videos' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/@name?si=abc' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/@name#top' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/@name//' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/c/name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/user/name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/channel/UC123' }, error: 'invalidChannelUrl' },
    { q: { channel_url: `https://www.youtube.com/Channel/${ID}` }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com\\@name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/%40name' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'https://www.youtube.com/@name\n' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'javascript:alert(1)' }, error: 'invalidChannelUrl' },
    { q: { channel_url: 'www.youtube.com/@name' }, error: 'invalidChannelUrl' },
    { q: { channel_id: ID, format: 'xml' }, error: 'invalidFormat' },
    { q: { channel_id: ID, format: 'json1' }, error: 'invalidFormat' },
    { q: { channel_id: ID, format: 'Atom ' }, error: 'invalidFormat' },
    { q: { channel_id: ID, format: 'rss2' }, error: 'invalidFormat' },
    { q: { channel_id: ID, max_items: '0' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '101' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '-1' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '5.0' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '1e2' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '+5' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: ' 5' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '0x10' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: 'ten' }, error: 'invalidMaxItems' },
    { q: { channel_id: ID, max_items: '99999999999999999999' }, error: 'invalidMaxItems' },
    { q: { channel_id: [ID, ID] }, error: 'repeatedParameter', param: 'channel_id' },
    { q: { channel: ['a', 'b'] }, error: 'repeatedParameter', param: 'channel' },
    { q: { channel_id: ID, format: ['Atom', 'Rss'] }, error: 'repeatedParameter', param: 'format' },
    { q: { channel_id: ID, max_items: ['1', '2'] }, error: 'repeatedParameter', param: 'max_items' },
    { q: { channel_url: { nested: 'x' } }, error: 'repeatedParameter', param: 'channel_url' },
  ];
  for (const c of rejected) {
    it(`rejects ${JSON.stringify(c.q)} as ${c.error}`, () => {
      const r = validateFeedQuery(c.q);
      expect(r.ok).to.equal(false);
      if (!r.ok) {
        expect(r.error).to.equal(c.error);
        if (c.param) expect(r.context?.param).to.equal(c.param);
      }
    });
  }

  it('is not fooled by inherited property names', () => {
    const q = Object.create({ channel_id: ID }) as RawQuery;
    const r = validateFeedQuery(q);
    expect(r.ok).to.equal(false);
  });

  it('parses handles and URLs directly', () => {
    expect(parseHandle('@A_b-1')).to.deep.equal({ kind: 'handle', handle: 'A_b-1' });
    expect(parseHandle('')).to.equal(null);
    expect(parseChannelUrl(`https://youtube.com/channel/${ID}/`)).to.deep.equal({ kind: 'id', channelId: ID });
  });
});

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
