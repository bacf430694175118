// The process's left-out player clients (shared/platform/client-exclusions.ts) on an injected clock:
// left out at the first client-level answer with one WARNING, asked once again after LEAVE_OUT_MS
// (by one caller only), back on a good answer, out for the rest of the process when the retry says
// the same; a retry that ends in a transient failure waits another hour.

import { expect } from 'chai';
import { ClientExclusions, LEAVE_OUT_MS } from '../../shared/platform/client-exclusions';
import { identityFor } from '../../shared/config/client-identities';
import { captureLogs } from '../support/logs';

describe('player clients left out of the process', () => {
  const android = identityFor('ANDROID', '19.44.38')!;
  const tv = identityFor('TVHTML5', null)!;
  let now = 0;
  const setup = () => {
    now = Date.UTC(2026, 9, 1, 12);
    const logs = captureLogs();
    return { logs, ex: new ClientExclusions(logs.logger, () => now) };
  };

  it('one WARNING naming client, version and what to change; left out until the hour is over; one caller gets the retry; a good answer brings it back', () => {
    const { logs, ex } = setup();
    expect(ex.usable(android)).to.equal(true);
    ex.leaveOut(android, 'retired', 'HTTP 400 FAILED_PRECONDITION (this client version is retired)');
    ex.leaveOut(android, 'retired', 'HTTP 400 FAILED_PRECONDITION (this client version is retired)');
    const warnings = logs.lines.filter((l) => l.level === 'WARNING');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.deep.include({ client: 'ANDROID', version: '19.44.38', why: 'retired', minutes: 60 });
    expect(warnings[0]!.msg).to.match(/^player client ANDROID 19\.44\.38 is a retired version .*: left out of this process.*set a newer ANDROID version in PLAYER_CLIENTS/);
    expect(ex.list()).to.deep.equal([{
      client: 'ANDROID', version: '19.44.38', why: 'retired', reason: 'HTTP 400 FAILED_PRECONDITION (this client version is retired)',
      since: new Date(now), retryAt: new Date(now + LEAVE_OUT_MS), advice: ex.list()[0]!.advice,
    }]);
    now += LEAVE_OUT_MS - 1;
    expect(ex.usable(android)).to.equal(false);
    now += 1;
    expect(ex.usable(android), 'the retry').to.equal(true);
    expect(ex.usable(android), 'only one caller retries').to.equal(false);
    ex.served(android);
    expect(ex.list()).to.deep.equal([]);
    expect(ex.usable(android)).to.equal(true);
  });

  it('a retry that answers the same leaves it out for the rest of the process, without a second WARNING', () => {
    const { logs, ex } = setup();
    ex.leaveOut(tv, 'client_fault', 'UNPLAYABLE: The page needs to be reloaded.');
    now += LEAVE_OUT_MS;
    expect(ex.usable(tv)).to.equal(true);
    ex.leaveOut(tv, 'client_fault', 'UNPLAYABLE: The page needs to be reloaded.');
    expect(ex.list()[0]).to.deep.include({ client: 'TVHTML5', why: 'client_fault', retryAt: null });
    now += 10 * LEAVE_OUT_MS;
    expect(ex.usable(tv)).to.equal(false);
    expect(logs.lines.filter((l) => l.level === 'WARNING')).to.have.length(1);
    expect(logs.lines.some((l) => l.level === 'INFO' && /left out for the rest of this process/.test(l.msg))).to.equal(true);
  });

  it('a retry that ends transiently (no answer about the client either way) waits another hour', () => {
    const { ex } = setup();
    ex.leaveOut(android, 'retired', 'HTTP 400 FAILED_PRECONDITION');
    now += LEAVE_OUT_MS;
    expect(ex.usable(android)).to.equal(true);
    ex.unsettled(android);
    expect(ex.usable(android)).to.equal(false);
    expect(ex.list()[0]!.retryAt).to.deep.equal(new Date(now + LEAVE_OUT_MS));
    now += LEAVE_OUT_MS;
    expect(ex.usable(android)).to.equal(true);
  });
});
