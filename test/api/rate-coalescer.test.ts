// The per-process coalescer in front of the store's rate-limit counter: hits of one key in one
// event-loop turn become one store call, and each request still gets exactly the answer it would
// have had from its own sequential call.

import { expect } from 'chai';
import { coalescingCounter } from '../../api/http/keyed';
import { rateLimitResult, windowStartOf } from '../../shared/store/rate-window';
import type { RateLimitResult } from '../../shared/store/types';

interface Call {
  keyId: string;
  limit: number;
  now: Date;
  hits: number;
}

/** An in-memory store counter that records every call; `failWith` makes the next calls reject. */
class FakeCounter {
  calls: Call[] = [];
  counts = new Map<string, number>();
  failWith: Error | null = null;

  async hitRateLimit(keyId: string, limit: number, now: Date, hits = 1): Promise<RateLimitResult> {
    this.calls.push({ keyId, limit, now, hits });
    await Promise.resolve(); // answer later, like a real store
    if (this.failWith) throw this.failWith;
    const windowStart = windowStartOf(now);
    const id = `${keyId}:${windowStart}`;
    const count = (this.counts.get(id) ?? 0) + hits;
    this.counts.set(id, count);
    return rateLimitResult(count, limit, windowStart);
  }
}

const NOW = new Date(Date.UTC(2030, 0, 1, 12, 0, 1));
const RESET = new Date(Date.UTC(2030, 0, 1, 12, 1, 0));
const summary = (r: RateLimitResult) => [r.allowed, r.remaining, r.count];

describe('rate-limit coalescer', () => {
  let store: FakeCounter;
  beforeEach(() => {
    store = new FakeCounter();
  });

  it('turns 5 hits of one key in one turn into one store call with hits 5, answering 1..5 in arrival order', async () => {
    const counter = coalescingCounter(store);
    const results = await Promise.all(Array.from({ length: 5 }, () => counter.hit('k', 5, NOW)));
    expect(store.calls).to.deep.equal([{ keyId: 'k', limit: 5, now: NOW, hits: 5 }]);
    expect(results.map(summary)).to.deep.equal([
      [true, 4, 1], [true, 3, 2], [true, 2, 3], [true, 1, 4], [true, 0, 5],
    ]);
    for (const r of results) expect(r.resetAt).to.deep.equal(RESET);
  });

  it('refuses exactly the requests past the limit when the limit is crossed inside a batch', async () => {
    const counter = coalescingCounter(store);
    await counter.hit('k', 4, NOW);
    await counter.hit('k', 4, NOW);
    const results = await Promise.all(Array.from({ length: 4 }, () => counter.hit('k', 4, NOW)));
    expect(store.calls.map((c) => c.hits)).to.deep.equal([1, 1, 4]);
    expect(results.map(summary)).to.deep.equal([
      [true, 1, 3], [true, 0, 4], [false, 0, 5], [false, 0, 6],
    ]);
  });

  it('judges each request by its own limit (a key reloaded mid-turn)', async () => {
    const counter = coalescingCounter(store);
    const results = await Promise.all([counter.hit('k', 1, NOW), counter.hit('k', 1, NOW), counter.hit('k', 5, NOW)]);
    expect(results.map(summary)).to.deep.equal([[true, 0, 1], [false, 0, 2], [true, 2, 3]]);
  });

  it('rejects every waiter of a failed batch with the store error, and the next batch goes on', async () => {
    const counter = coalescingCounter(store);
    const boom = new Error('database unreachable');
    store.failWith = boom;
    const settled = await Promise.allSettled(Array.from({ length: 3 }, () => counter.hit('k', 5, NOW)));
    expect(settled.map((s) => (s.status === 'rejected' ? s.reason : s.status))).to.deep.equal([boom, boom, boom]);
    store.failWith = null;
    expect(summary(await counter.hit('k', 5, NOW))).to.deep.equal([true, 4, 1]);
    expect(store.calls.map((c) => c.hits)).to.deep.equal([3, 1]);
  });

  it('rejects the waiters when the store throws before giving a promise', async () => {
    const boom = new Error('sync failure');
    const counter = coalescingCounter({
      hitRateLimit: () => {
        throw boom;
      },
    });
    const settled = await Promise.allSettled([counter.hit('k', 5, NOW), counter.hit('k', 5, NOW)]);
    expect(settled.map((s) => s.status)).to.deep.equal(['rejected', 'rejected']);
  });

  it('makes one call per request when requests come one after another', async () => {
    const counter = coalescingCounter(store);
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(summary(await counter.hit('k', 3, NOW)));
    expect(store.calls.map((c) => c.hits)).to.deep.equal([1, 1, 1]);
    expect(seen).to.deep.equal([[true, 2, 1], [true, 1, 2], [true, 0, 3]]);
  });

  it('keeps keys apart, and a batch counts in the first arrival’s minute', async () => {
    const counter = coalescingCounter(store);
    const later = new Date(RESET.getTime() + 1);
    const [a1, b1, a2] = await Promise.all([counter.hit('a', 5, NOW), counter.hit('b', 5, NOW), counter.hit('a', 5, later)]);
    expect(store.calls).to.deep.equal([
      { keyId: 'a', limit: 5, now: NOW, hits: 2 },
      { keyId: 'b', limit: 5, now: NOW, hits: 1 },
    ]);
    expect([a1, b1, a2].map(summary)).to.deep.equal([[true, 4, 1], [true, 4, 1], [true, 3, 2]]);
    expect(a2!.resetAt).to.deep.equal(RESET);
  });

  it('starts a new batch while the previous one is still with the store', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = 0;
    const slow = {
      hitRateLimit: async (keyId: string, limit: number, now: Date, hits = 1) => {
        if (entered++ === 0) await gate;
        return store.hitRateLimit(keyId, limit, now, hits);
      },
    };
    const counter = coalescingCounter(slow);
    const first = Promise.all([counter.hit('k', 9, NOW), counter.hit('k', 9, NOW)]);
    await new Promise((r) => setImmediate(r));
    const second = counter.hit('k', 9, NOW);
    await new Promise((r) => setImmediate(r));
    expect((await second).count, 'not held behind the first batch').to.equal(1);
    release();
    expect((await first).map((r) => r.count)).to.deep.equal([2, 3]);
  });
});
