import { expect } from 'chai';
import { CookieJar } from '../../shared/platform/cookie-jar';
import { identityOf } from '../../shared/platform/user-agents';

describe('cookie jar and pinned user agent', () => {
  it('adopts only cookies for the platform host (parent domains included), skipping expired ones', () => {
    const jar = new CookieJar('www.youtube.com', () => 1_000_000);
    jar.adopt({
      cookies: [
        { name: 'a', value: '1', domain: '.youtube.com' },
        { name: 'b', value: '2', domain: 'www.youtube.com' },
        { name: 'c', value: '3', domain: '.google.com' },
        { name: 'd', value: '4', domain: 'evilyoutube.com' },
        { name: 'e', value: '5', domain: '.youtube.com', expires: 10 },
        { name: 'f', value: '6' },
      ],
      userAgent: null,
    });
    expect(jar.header()).to.equal('a=1; b=2; f=6');
    expect(jar.pinnedUserAgent()).to.equal(null);
  });

  it('pins the harvested agent until the earliest cookie expiry or the pin time, whichever is first', () => {
    let now = 1_000_000;
    const jar = new CookieJar('127.0.0.1:8080', () => now);
    jar.adopt({ cookies: [{ name: 'clearance', value: 'x', domain: '127.0.0.1', expires: (now + 5_000) / 1000 }], userAgent: 'UA-1' }, 60_000);
    expect(jar.pinnedUserAgent()).to.equal('UA-1');
    now += 5_001;
    expect(jar.pinnedUserAgent()).to.equal(null);
    expect(jar.get('clearance')).to.equal(undefined);
    jar.adopt({ cookies: [], userAgent: 'UA-2' }, 60_000);
    now += 59_000;
    expect(jar.pinnedUserAgent()).to.equal('UA-2');
    now += 2_000;
    expect(jar.pinnedUserAgent()).to.equal(null);
  });

  it('gives a harvested agent the headers of its family', () => {
    expect(identityOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/141.0.0.0 Safari/537.36'))
      .to.include({ family: 'chrome', platform: 'Linux' });
    expect(identityOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:150.0) Gecko/20100101 Firefox/150.0')).to.include({ family: 'firefox', secChUa: null });
    expect(identityOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15')).to.include({ family: 'safari', secChUa: null, platform: 'macOS' });
    expect(identityOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36 Edg/141.0.0.0').secChUa).to.include('"Microsoft Edge";v="141"');
  });
});
