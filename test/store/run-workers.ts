// Runs test/store/worker.ts as separate OS processes on one store, lets them go together once every
// one has opened the store (a barrier, not a start time on the clock), and collects their results
// (the multi-process cases of both backends).

import { fork } from 'node:child_process';
import path from 'node:path';

/** Starts one worker per argument list, lets them go at once, and resolves with their results. */
export async function runWorkers(argsList: string[][]): Promise<(string | number)[][]> {
  const children = argsList.map((args) =>
    fork(path.join(__dirname, 'worker.ts'), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const ready = children.map((c) => new Promise<void>((resolve) => c.once('message', () => resolve())));
  const done = children.map(
    (c) =>
      new Promise<(string | number)[]>((resolve, reject) => {
        c.on('message', (m) => {
          if (typeof m === 'object' && m !== null && 'result' in m) resolve((m as { result: (string | number)[] }).result);
        });
        c.once('exit', (code) => reject(new Error(`worker exited with ${code} before answering`)));
      }),
  );
  await Promise.all(ready);
  for (const c of children) c.send('go');
  return Promise.all(done);
}
