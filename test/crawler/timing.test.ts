import { expect } from 'chai';
import { pickMs, realTiming } from '../../crawler/timing';

describe('crawler timing', () => {
  it('picks waits within the range, both ends reachable', () => {
    expect(pickMs([60000, 90000], () => 0)).to.equal(60000);
    expect(pickMs([60000, 90000], () => 0.999999999)).to.equal(90000);
    for (let i = 0; i < 200; i += 1) {
      const v = pickMs([10000, 20000], Math.random);
      expect(v).to.be.within(10000, 20000);
    }
    expect(pickMs([2000, 2000], () => 0.7)).to.equal(2000);
    expect(pickMs([0, 0], () => 0.7)).to.equal(0);
  });

  it('real sleep ends early, without an error, when aborted', async () => {
    const ctl = new AbortController();
    const slept = realTiming.sleep(60_000, ctl.signal);
    ctl.abort();
    await slept;
    await realTiming.sleep(60_000, ctl.signal);
  });
});
