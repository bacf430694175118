// The crawler's first import, so that it runs before the modules that take a while to load (the
// store drivers, the browser's client): a stop that arrives while the crawler is still starting
// (`npm start` stopping everything because the API could not start, say) is kept here and acted on
// once the orderly shutdown exists, instead of killing the process by the signal's default action
// before it has said anything.

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const early: NodeJS.Signals[] = [];
const keep = (signal: NodeJS.Signals): void => void early.push(signal);
for (const s of STOP_SIGNALS) process.on(s, keep);

/** The stops that arrived so far; from now on the caller's own handlers answer them. */
export function takeEarlySignals(): NodeJS.Signals[] {
  for (const s of STOP_SIGNALS) process.off(s, keep);
  return early;
}
