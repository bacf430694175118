import { expect } from 'chai';
import { planBatches } from '../../crawler/batch-plan';
import { PROFILES } from '../../shared/config/crawl-profile';

const sizes = (n: number, size: number): number[] => planBatches(Array.from({ length: n }, (_, i) => i), size).map((b) => b.length);

describe('crawler batch plan', () => {
  it('cuts 50 into 20, 20, 10 with the fast profile (spec configuration A)', () => {
    expect(sizes(50, PROFILES.fast.batchSize)).to.deep.equal([20, 20, 10]);
  });

  it('cuts 50 into ten batches of 5 with the gentle profile (spec configuration B)', () => {
    expect(sizes(50, PROFILES.gentle.batchSize)).to.deep.equal(Array(10).fill(5));
  });

  it('keeps order and loses nothing', () => {
    const items = Array.from({ length: 23 }, (_, i) => `v${i}`);
    const batches = planBatches(items, 5);
    expect(batches.flat()).to.deep.equal(items);
    expect(batches.map((b) => b.length)).to.deep.equal([5, 5, 5, 5, 3]);
  });

  it('plans nothing for nothing, one batch for a few', () => {
    expect(planBatches([], 20)).to.deep.equal([]);
    expect(sizes(7, 20)).to.deep.equal([7]);
  });

  it('rejects a batch size below 1', () => {
    expect(() => planBatches([1], 0)).to.throw(RangeError);
  });
});
