import { expect } from 'chai';
import { remembered, withinTtl } from '../../shared/ttl-memo';

describe('shared/ttl-memo.ts: what is remembered for a TTL', () => {
  it('holds from its stamp until just before the TTL, not at it', () => {
    expect(withinTtl(1_000, 1_000, 5_000)).to.equal(true);
    expect(withinTtl(1_000, 5_999, 5_000)).to.equal(true);
    expect(withinTtl(1_000, 6_000, 5_000)).to.equal(false);
  });

  it('does not hold a stamp from the future (the clock went back)', () => {
    expect(withinTtl(2_000, 1_999, 5_000)).to.equal(false);
  });

  it('gives the remembered value only while its stamp holds', () => {
    const slot = new Map([['a', { at: 1_000, value: 'x' }]]);
    expect(remembered(slot, 'a', 3_000, 5_000)).to.deep.equal({ at: 1_000, value: 'x' });
    expect(remembered(slot, 'a', 6_000, 5_000)).to.equal(undefined);
    expect(remembered(slot, 'a', 999, 5_000)).to.equal(undefined);
    expect(remembered(slot, 'b', 3_000, 5_000)).to.equal(undefined);
  });
});
