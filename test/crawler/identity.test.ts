import { expect } from 'chai';
import { crawlerIdentity, machineId } from '../../crawler/identity';

describe('crawler identity (lease owner name)', () => {
  it('is stable across restarts under PM2: host, machine id and PM2 instance', () => {
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: '0', pm_id: '7' }, 'box', 111, '0123456789ab')).to.deep.equal({ owner: 'box-0123456789ab:crawler-0', stable: true });
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: '0', pm_id: '7' }, 'box', 222, '0123456789ab').owner, 'a new pid, the same name').to.equal('box-0123456789ab:crawler-0');
    expect(crawlerIdentity('', { pm_id: '7' }, 'box', 111, '0123456789ab').owner).to.equal('box-0123456789ab:crawler-7');
  });

  it('tells apart two hosts that share a hostname by their machine ids; the hostname alone where there is none', () => {
    const one = crawlerIdentity('', { NODE_APP_INSTANCE: '0' }, 'worker', 1, 'aaaaaaaaaaaa').owner;
    const two = crawlerIdentity('', { NODE_APP_INSTANCE: '0' }, 'worker', 1, 'bbbbbbbbbbbb').owner;
    expect(one).to.not.equal(two);
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: '0' }, 'worker', 1, null).owner).to.equal('worker:crawler-0');
  });

  it('takes CRAWLER_ID as the base, with the PM2 instance, so instances sharing one CRAWLER_ID differ', () => {
    expect(crawlerIdentity(' eu-west-1 ', { NODE_APP_INSTANCE: '0' }, 'box', 1, 'aaaaaaaaaaaa')).to.deep.equal({ owner: 'eu-west-1:crawler-0', stable: true });
    expect(crawlerIdentity('eu-west-1', { NODE_APP_INSTANCE: '1' }, 'box', 1, 'aaaaaaaaaaaa').owner).to.equal('eu-west-1:crawler-1');
    expect(crawlerIdentity('eu-west-1', {}, 'box', 1, null)).to.deep.equal({ owner: 'eu-west-1', stable: true });
  });

  it('falls back to a pid outside PM2 without CRAWLER_ID (unique, not stable)', () => {
    expect(crawlerIdentity('', {}, 'box', 4242, 'aaaaaaaaaaaa')).to.deep.equal({ owner: 'box-aaaaaaaaaaaa:4242', stable: false });
    expect(crawlerIdentity('', { NODE_APP_INSTANCE: 'x' }, 'box', 4242, null).owner, 'only a PM2-style number counts').to.equal('box:4242');
  });

  it('reads the machine id from systemd or D-Bus, and none from a missing or malformed file', () => {
    const files: Record<string, string> = { '/var/lib/dbus/machine-id': '0123456789ABCDEF0123456789abcdef\n' };
    const read = (f: string): string => {
      if (!(f in files)) throw new Error('ENOENT');
      return files[f]!;
    };
    expect(machineId(read)).to.equal('0123456789ab');
    files['/etc/machine-id'] = 'uninitialized\n';
    expect(machineId(read), 'a malformed first file is skipped').to.equal('0123456789ab');
    expect(machineId(() => {
      throw new Error('ENOENT');
    })).to.equal(null);
  });
});
