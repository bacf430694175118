import { expect } from 'chai';
import { crawlerIdentity } from '../../crawler/identity';

describe('crawler identity (lease owner name)', () => {
  it('is stable across restarts under PM2: host and PM2 instance', () => {
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: '0', pm_id: '7' }, 'box', 111)).to.deep.equal({ owner: 'box:crawler-0', stable: true });
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: '0', pm_id: '7' }, 'box', 222).owner, 'a new pid, the same name').to.equal('box:crawler-0');
    expect(crawlerIdentity('', { pm_id: '7' }, 'box', 111).owner).to.equal('box:crawler-7');
  });

  it('takes CRAWLER_ID as given, and falls back to host:pid outside PM2', () => {
    expect(crawlerIdentity(' eu-west-1 ', { NODE_APP_INSTANCE: '0' }, 'box', 1)).to.deep.equal({ owner: 'eu-west-1', stable: true });
    expect(crawlerIdentity('', {}, 'box', 4242)).to.deep.equal({ owner: 'box:4242', stable: false });
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: 'x' }, 'box', 4242).owner, 'only a PM2-style number counts').to.equal('box:4242');
  });
});
