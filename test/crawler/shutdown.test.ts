// The signal handling of the daemon, with injected signals, rejections and exit: drain then close
// then exit 0; a second signal exits at once; a drain that hangs is cut off after its bound; a
// rejection nobody handled is an ERROR with its stack and the same orderly stop, exiting 1.

import { expect } from 'chai';
import { handleShutdown } from '../../crawler/shutdown';
import { captureLogs } from '../support/logs';

function harness(drain: () => Promise<void>, drainTimeoutMs = 5000) {
  const steps: string[] = [];
  const handlers = new Map<NodeJS.Signals, (s: NodeJS.Signals) => void>();
  let rejected: ((reason: unknown) => void) | null = null;
  const { logger, lines } = captureLogs();
  let exited: (code: number) => void = () => undefined;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const exits: number[] = [];
  handleShutdown({
    logger,
    drain: async () => {
      steps.push('drain');
      await drain();
      steps.push('drained');
    },
    drainTimeoutMs,
    close: async () => void steps.push('close'),
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
    on: (signal, handler) => void handlers.set(signal, handler),
    onUnhandledRejection: (handler) => void (rejected = handler),
  });
  return { steps, exits, exit, lines, signal: (s: NodeJS.Signals) => handlers.get(s)!(s), reject: (reason: unknown) => rejected!(reason) };
}

/** A drain the test finishes when it wants to. */
function heldDrain(): { drain: () => Promise<void>; finish: () => void } {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { drain: () => done, finish };
}

describe('crawler shutdown', () => {
  it('drains, then closes, then exits 0', async () => {
    const held = heldDrain();
    const h = harness(held.drain);
    h.signal('SIGTERM');
    expect(h.steps).to.deep.equal(['drain']);
    held.finish();
    expect(await h.exit).to.equal(0);
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
    const h = harness(() => new Promise(() => undefined), 0);
    h.signal('SIGTERM');
    expect(await h.exit).to.equal(0);
    expect(h.steps).to.deep.equal(['drain', 'close']);
    expect(h.lines.map((l) => l.msg)).to.include('drain timed out; the lease will expire on its own');
  });

  it('a rejection nobody handled is logged at ERROR with its stack, then drains, closes and exits 1', async () => {
    const h = harness(async () => undefined);
    h.reject(new RangeError('a bug in a background loop'));
    expect(await h.exit).to.equal(1);
    expect(h.steps).to.deep.equal(['drain', 'drained', 'close']);
    const error = h.lines.find((l) => l.level === 'ERROR')!;
    expect(error.msg).to.match(/^unhandled rejection \(a bug\)/);
    expect(error.err).to.deep.include({ type: 'RangeError', message: 'a bug in a background loop' });
    expect((error.err as { stack: string }).stack).to.match(/^RangeError: a bug in a background loop\n\s+at /);
  });

  it('a second rejection during that stop is logged and does not stop twice', async () => {
    const held = heldDrain();
    const h = harness(held.drain);
    h.reject(new Error('first'));
    h.reject('second, not even an Error');
    held.finish();
    expect(await h.exit).to.equal(1);
    expect(h.exits).to.deep.equal([1]);
    expect(h.steps).to.deep.equal(['drain', 'drained', 'close']);
    expect(h.lines.filter((l) => l.level === 'ERROR')).to.have.length(2);
  });
});
