// The hourly request budget and the "try again later" cool-down on injected time: what is waited,
// for how long on the fake clock, and what an operator reads in the log meanwhile.

import { expect } from 'chai';
import { RunStoppedError } from '../../crawler/run-ending';
import { HOUR_MS, PROGRESS_EVERY_MS, RequestBudget } from '../../crawler/request-budget';
import { FakeTiming } from './support/fake-timing';
import { captureLogs } from '../support/logs';

describe('crawler request budget', () => {
  let timing: FakeTiming;
  let sent: number;
  let logs: ReturnType<typeof captureLogs>;
  const budget = (perHour: number, coolDownMs: readonly [number, number] = [1_800_000, 1_800_000]): RequestBudget =>
    new RequestBudget({ perHour, coolDownMs, timing, sent: () => sent, logger: logs.logger });
  const never = new AbortController().signal;

  beforeEach(() => {
    timing = new FakeTiming();
    sent = 0;
    logs = captureLogs();
  });

  it('lets requests through while the hour holds fewer than the budget', async () => {
    const b = budget(3);
    for (let i = 0; i < 3; i += 1) {
      await b.waitForRoom(never);
      sent += 1;
      timing.advance(1000);
    }
    expect(timing.sleeps).to.deep.equal([]);
    expect(b.usedInLastHour()).to.equal(3);
  });

  it('a full hour waits until the oldest request leaves the window, saying why at INFO', async () => {
    const b = budget(2);
    await b.waitForRoom(never);
    sent += 2; // a transcript: player + timed text
    b.noteSent();
    timing.advance(10 * 60_000);
    await b.waitForRoom(never);
    expect(timing.sleeps.reduce((a, v) => a + v, 0)).to.equal(HOUR_MS - 10 * 60_000);
    expect(timing.sleeps.every((ms) => ms <= PROGRESS_EVERY_MS)).to.equal(true);
    const info = logs.lines.filter((l) => l.level === 'INFO').map((l) => l.msg);
    expect(info[0]).to.equal('hourly platform request budget (2) used up; waiting until 13:00 UTC (in 50 min)');
    expect(logs.lines.find((l) => l.msg === info[0])).to.deep.include({ until: '2026-07-01T13:00:00.000Z', minutesLeft: 50 });
    expect(info).to.include('still holding platform requests back');
    expect(info.at(-1)).to.equal('platform requests resume');
    expect(b.usedInLastHour()).to.equal(0);
  });

  it('0 means no hourly limit', async () => {
    const b = budget(0);
    sent = 100_000;
    await b.waitForRoom(never);
    expect(timing.sleeps).to.deep.equal([]);
  });

  it('a cool-down holds every request back for its whole length, logged as a WARNING with its end', async () => {
    const b = budget(0, [1_800_000, 1_800_000]);
    b.startCoolDown('session rate-limited (try again later): This content isn\'t available, try again later');
    expect(b.coolingDown).to.equal(true);
    // A second signal during the cool-down (a request already on its way) does not extend it.
    timing.advance(60_000);
    b.startCoolDown('again');
    await b.waitForRoom(never);
    expect(timing.sleeps.reduce((a, v) => a + v, 0)).to.equal(1_800_000 - 60_000);
    expect(b.coolingDown).to.equal(false);
    const warnings = logs.lines.filter((l) => l.level === 'WARNING');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.deep.include({ coolDownMinutes: 30, until: '2026-07-01T12:30:00.000Z' });
    expect(logs.lines.filter((l) => l.msg === 'still holding platform requests back').length).to.be.greaterThan(0);
    expect(logs.lines.at(-1)).to.deep.include({ msg: 'platform requests resume', after: 'cool-down' });
    expect(logs.lines.filter((l) => l.msg.startsWith('cooling down')).map((l) => l.msg)).to.deep.equal(['cooling down: no platform request until 12:30 UTC (in 29 min)']);
  });

  it('says a wait once, however many requests wait behind it, and shows it while it lasts', async () => {
    const b = budget(2);
    b.startCoolDown('try again later');
    const seen: unknown[] = [];
    timing.onSleep = () => void seen.push(b.waiting);
    await Promise.all([b.waitForRoom(never), b.waitForRoom(never), b.waitForRoom(never)]);
    timing.onSleep = null;
    expect(seen[0]).to.deep.equal({ kind: 'cool-down', until: new Date('2026-07-01T12:30:00.000Z') });
    expect(b.waiting).to.equal(null);
    expect(logs.lines.filter((l) => l.msg.startsWith('cooling down')).length).to.equal(1);
    expect(logs.lines.filter((l) => l.msg === 'platform requests resume').length).to.equal(1);

    // The hour full, requests coming faster than the budget allows: each waits a few seconds for the
    // oldest to leave the window. One stretch, said once.
    const full = budget(120);
    const before = timing.sleeps.length;
    for (let i = 0; i < 220; i += 1) {
      await full.waitForRoom(never);
      sent += 1;
      full.noteSent();
      if (i < 120) timing.advance(30_000); // one hour at the budget's pace, then back to back
    }
    const budgetWaits = timing.sleeps.slice(before);
    expect(budgetWaits.length).to.be.at.least(99);
    expect(budgetWaits.every((ms) => ms <= 30_000)).to.equal(true);
    expect(logs.lines.filter((l) => l.msg.startsWith('hourly platform request budget')).length).to.equal(1);
  });

  it('a cool-down range is drawn with the injected random', () => {
    timing = new FakeTiming([], undefined, [0]);
    const b = budget(0, [1_500_000, 2_100_000]);
    b.startCoolDown('x');
    expect(logs.lines[0]).to.deep.include({ coolDownMinutes: 25 });
  });

  it('a stop during the wait ends it with RunStoppedError', async () => {
    const b = budget(0);
    b.startCoolDown('x');
    const stop = new AbortController();
    timing.onSleep = () => stop.abort();
    const err = await b.waitForRoom(stop.signal).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RunStoppedError);
    expect(timing.sleeps).to.have.length(1);
  });
});
