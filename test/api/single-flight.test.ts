import { expect } from 'chai';
import { SingleFlight } from '../../api/single-flight';

describe('SingleFlight', () => {
  it('joins calls for one key while its work is under way, and frees the key once it settles', async () => {
    const flight = new SingleFlight<string, number>();
    let started = 0;
    let finish!: (n: number) => void;
    const start = () => {
      started += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const a = flight.run('k', start);
    const b = flight.run('k', start);
    expect(b).to.equal(a);
    expect(flight.has('k')).to.equal(true);
    expect(started).to.equal(1);
    finish(7);
    expect(await b).to.equal(7);
    expect(flight.has('k')).to.equal(false);
    const c = flight.run('k', async () => 8);
    expect(await c).to.equal(8);
  });

  it('keeps keys apart, and does not remember a failure', async () => {
    const flight = new SingleFlight<string, string>();
    const failed = flight.run('a', async () => {
      throw new Error('boom');
    });
    expect(await flight.run('b', async () => 'b')).to.equal('b');
    await failed.then(() => expect.fail('should reject'), (err: Error) => expect(err.message).to.equal('boom'));
    expect(await flight.run('a', async () => 'again')).to.equal('again');
  });
});
