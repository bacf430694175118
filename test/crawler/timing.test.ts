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

  it('real sleep ends early, without an error, when aborted, and leaves no timer behind', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    // Counted once mocha's own timeout timer for this test is running.
    await new Promise((resolve) => setImmediate(resolve));
    const before = timers();
    const ctl = new AbortController();
    const slept = realTiming.sleep(60_000, ctl.signal);
    expect(timers()).to.equal(before + 1);
    ctl.abort();
    expect(await slept).to.equal(undefined);
    // The 60 s timer is cleared, not merely outlived: a shutdown is not held up by it.
    expect(timers()).to.equal(before);
    // Already aborted: resolves at once without starting a timer.
    const again = realTiming.sleep(60_000, ctl.signal);
    expect(timers()).to.equal(before);
    expect(await again).to.equal(undefined);
  });
});
