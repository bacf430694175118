// The signal handling of the daemon, with injected signals and exit: drain then close then exit 0;
// a second signal exits at once; a drain that hangs is cut off after its bound.

import { expect } from 'chai';
import { handleShutdown } from '../../crawler/shutdown';
import { silentLogger } from '../../shared/logger';
import { until } from './support/logs';

function harness(drain: () => Promise<void>, drainTimeoutMs = 5000) {
  const steps: string[] = [];
  const handlers = new Map<NodeJS.Signals, (s: NodeJS.Signals) => void>();
  const exits: number[] = [];
  handleShutdown({
    logger: silentLogger(),
    drain: async () => {
      steps.push('drain');
      await drain();
      steps.push('drained');
    },
    drainTimeoutMs,
    close: async () => void steps.push('close'),
    exit: (code) => void exits.push(code),
    on: (signal, handler) => void handlers.set(signal, handler),
  });
  return { steps, exits, signal: (s: NodeJS.Signals) => handlers.get(s)!(s) };
}

describe('crawler shutdown', () => {
  it('drains, then closes, then exits 0', async () => {
    const h = harness(() => new Promise((r) => setTimeout(r, 5)));
    h.signal('SIGTERM');
    await until('exit', () => h.exits.length > 0);
    expect(h.steps).to.deep.equal(['drain', 'drained', 'close']);
    expect(h.exits).to.deep.equal([0]);
  });

  it('exits at once on a second signal', async () => {
    const h = harness(() => new Promise(() => undefined));
    h.signal('SIGINT');
    h.signal('SIGINT');
    expect(h.exits).to.deep.equal([130]);
  });

  it('closes and exits 0 when the drain does not finish in time', async () => {
    const h = harness(() => new Promise(() => undefined), 10);
    h.signal('SIGTERM');
    await until('exit', () => h.exits.length > 0);
    expect(h.steps).to.deep.equal(['drain', 'close']);
    expect(h.exits).to.deep.equal([0]);
  });
});
