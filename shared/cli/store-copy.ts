// `npm run store:copy -- --from <DATABASE_URL> --to <DATABASE_URL> [--batch N] [--checkpoint FILE]`:
// copies channels, videos, transcripts, handles and the languages readers asked for from one store
// into another, empty one (SQLite → MongoDB, back, or any pair), resumable, counts checked at the
// end. Stop the API and the crawler first: the copy reads the source as it is while it runs.
// Exit status: 0 copied and counts equal; 1 counts differ or the copy failed; 2 bad arguments;
// 130 interrupted (run the same command again to resume).

import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { maskUrlCredentials } from '../config/load';
import { categoryLogger, createLogger } from '../logger';
import { copyStore, CopyInterruptedError, CopyRefusedError, DEFAULT_BATCH_SIZE } from '../store/copy/copy';
import { openCopySide } from '../store/copy/open-side';
import type { CopySide } from '../store/copy/sides';

const USAGE = 'usage: npm run store:copy -- --from <sqlite:path | mongodb://…> --to <sqlite:path | mongodb://…> [--batch 500] [--checkpoint file]';

function fail(code: number, message: string): never {
  process.stderr.write(`store:copy: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let values: { from?: string; to?: string; batch?: string; checkpoint?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { from: { type: 'string' }, to: { type: 'string' }, batch: { type: 'string' }, checkpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    fail(2, `${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { from, to } = values;
  if (!from || !to) fail(2, USAGE);
  if (from === to) fail(2, '--from and --to name the same store');
  const batch = values.batch === undefined ? DEFAULT_BATCH_SIZE : Number(values.batch);
  // The default checkpoint is named for the pair of stores, so two different copies never share one.
  const pairId = createHash('sha256').update(`${from}\n${to}`).digest('hex').slice(0, 12);
  const checkpointFile = path.resolve(values.checkpoint ?? path.join('data', `store-copy-${pairId}.json`));
  const logger = categoryLogger(createLogger({ level: 'warning', format: 'pretty', stream: process.stderr }), 'store');
  const say = (line: string): void => void process.stdout.write(`${line}\n`);

  say(`copying ${maskUrlCredentials(from)} → ${maskUrlCredentials(to)} in batches of ${batch}`);
  const stop = new AbortController();
  const onSignal = (): void => {
    say('stopping after the batch being written…');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const opened: CopySide[] = [];
  try {
    const source = await openCopySide(from, { logger });
    opened.push(source);
    const destination = await openCopySide(to, { logger });
    opened.push(destination);
    const result = await copyStore(source, destination, { from, to, batchSize: batch, checkpointFile, progress: say, signal: stop.signal });
    for (const c of result.counts) say(`${c.table}: ${c.source} in the source, ${c.destination} in the destination${c.source === c.destination ? '' : '  ← differs'}`);
    if (!result.ok) {
      process.exitCode = 1;
      say(`the counts differ; the checkpoint ${checkpointFile} is kept. Was a process writing to either store?`);
    } else {
      say('done: every count matches');
    }
  } catch (err) {
    if (err instanceof CopyInterruptedError) {
      say(`${err.message} (checkpoint: ${checkpointFile})`);
      process.exitCode = 130;
    } else if (err instanceof CopyRefusedError) {
      process.exitCode = 2;
      process.stderr.write(`store:copy: ${err.message}\n`);
    } else {
      process.exitCode = 1;
      // A driver's message may quote a URL: never its user and password.
      process.stderr.write(`store:copy: ${(err as Error).message.replace(/\/\/[^/@\s]*@/g, '//***@')}\n`);
    }
  } finally {
    for (const side of opened) await side.close().catch(() => undefined);
  }
}

void main();
