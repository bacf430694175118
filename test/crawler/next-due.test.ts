import { expect } from 'chai';
import { BLOCKED_BACKOFF, ERROR_BACKOFF, NOT_FOUND_CONFIRMATIONS, NOT_FOUND_DELAY_MS, NOT_FOUND_RETIRED_MS, REFRESH_INTERVAL_MS, failuresAfter, nextDueAt } from '../../crawler/next-due';

const now = new Date('2026-07-01T12:00:00Z');
const after = (d: Date): number => d.getTime() - now.getTime();
const MIN = 60_000;

describe('crawler next due time', () => {
  it('comes back after the refresh interval when the run was good', () => {
    expect(after(nextDueAt('ok', 0, now))).to.equal(REFRESH_INTERVAL_MS);
    expect(REFRESH_INTERVAL_MS).to.equal(30 * MIN);
  });

  it('backs off exponentially after errors, up to a cap', () => {
    const delays = [1, 2, 3, 4, 5, 10, 40].map((f) => after(nextDueAt('error', f, now)));
    expect(delays.slice(0, 5)).to.deep.equal([5, 10, 20, 40, 80].map((m) => m * MIN));
    expect(delays[5]).to.equal(ERROR_BACKOFF.capMs);
    expect(delays[6]).to.equal(ERROR_BACKOFF.capMs);
  });

  it('backs off longer after blocks, up to a cap', () => {
    const delays = [1, 2, 3, 6, 100].map((f) => after(nextDueAt('blocked', f, now)));
    expect(delays.slice(0, 3)).to.deep.equal([30, 60, 120].map((m) => m * MIN));
    expect(delays[3]).to.equal(BLOCKED_BACKOFF.capMs);
    expect(delays[4]).to.equal(BLOCKED_BACKOFF.capMs);
    for (let f = 1; f < 20; f += 1) {
      expect(after(nextDueAt('blocked', f + 1, now))).to.be.at.least(after(nextDueAt('blocked', f, now)));
    }
  });

  it('checks a channel the platform does not know once a day, and once a month after three answers', () => {
    expect(after(nextDueAt('not_found', 1, now))).to.equal(NOT_FOUND_DELAY_MS);
    expect(after(nextDueAt('not_found', NOT_FOUND_CONFIRMATIONS - 1, now))).to.equal(NOT_FOUND_DELAY_MS);
    expect(NOT_FOUND_CONFIRMATIONS).to.equal(3);
    expect(after(nextDueAt('not_found', NOT_FOUND_CONFIRMATIONS, now))).to.equal(NOT_FOUND_RETIRED_MS);
    expect(after(nextDueAt('not_found', 10, now))).to.equal(NOT_FOUND_RETIRED_MS);
    expect(after(nextDueAt('not_found', 1, now, true)), 'a channel the platform never showed: retired at once').to.equal(NOT_FOUND_RETIRED_MS);
    expect(after(nextDueAt('error', 1, now, true)), 'only a not-found is believed at once').to.equal(after(nextDueAt('error', 1, now)));
    expect(NOT_FOUND_RETIRED_MS).to.equal(30 * 24 * 60 * MIN);
  });

  it('hands a run cut short back at once', () => {
    expect(after(nextDueAt('stopped', 3, now))).to.equal(0);
  });

  it('counts failures: reset by a good run, kept by a stop, raised otherwise', () => {
    expect(failuresAfter('ok', 4)).to.equal(0);
    expect(failuresAfter('stopped', 4)).to.equal(4);
    expect(failuresAfter('blocked', 4)).to.equal(5);
    expect(failuresAfter('error', 0)).to.equal(1);
    expect(failuresAfter('not_found', 0)).to.equal(1);
  });

  it('retires a channel only after not-found answers in a row, not after blocks or errors and one not-found', () => {
    const run = (outcomes: ('blocked' | 'error' | 'not_found' | 'stopped')[]): number => {
      let failures = 0;
      let last: string | null = 'ok';
      for (const o of outcomes) {
        failures = failuresAfter(o, failures, last);
        last = o;
      }
      return after(nextDueAt('not_found', failures, now));
    };
    expect(run(['blocked', 'error', 'not_found'])).to.equal(NOT_FOUND_DELAY_MS);
    expect(run(['not_found', 'not_found', 'error', 'not_found'])).to.equal(NOT_FOUND_DELAY_MS);
    expect(run(['not_found', 'not_found'])).to.equal(NOT_FOUND_DELAY_MS);
    expect(run(['error', 'not_found', 'not_found', 'not_found'])).to.equal(NOT_FOUND_RETIRED_MS);
    // A stop in between (shutdown) starts the streak again: later, never earlier.
    expect(run(['not_found', 'not_found', 'stopped', 'not_found'])).to.equal(NOT_FOUND_DELAY_MS);
    // Blocks and errors keep growing their backoff through a not-found answer.
    expect(failuresAfter('blocked', 1, 'not_found')).to.equal(2);
  });
});
