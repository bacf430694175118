// A separate OS process for the multi-process SQLite tests. Opens the given file, reports
// `ready`, waits for the start time the parent sends (so both workers really overlap), does its
// work and sends the result.
//   claim <file> <owner>          claim until nothing is due; result: the claimed channel ids
//   hit <file> <keyId> <count>    count that many requests for one key; result: the counts seen

import { silentLogger } from '../../shared/logger';
import { openStore } from '../../shared/store';

const NOW = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));
const LEASE_MS = 3_600_000;

async function main(): Promise<void> {
  const [mode, file, arg, countArg] = process.argv.slice(2);
  if (!file || !arg || (mode !== 'claim' && mode !== 'hit')) throw new Error('usage: worker.ts claim|hit <file> <owner|keyId> [count]');
  const store = await openStore(`sqlite:${file}`, { logger: silentLogger() });
  // Both workers start at the same wall-clock instant; an IPC message alone arrives too unevenly.
  const startAt = await new Promise<number>((resolve) => {
    process.once('message', (m: { startAt: number }) => resolve(m.startAt));
    process.send?.('ready');
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const result: (string | number)[] = [];
  if (mode === 'claim') {
    for (let c = await store.claimDueChannel(arg, LEASE_MS, NOW); c; c = await store.claimDueChannel(arg, LEASE_MS, NOW)) {
      result.push(c.channelId);
    }
  } else {
    for (let i = 0; i < Number(countArg); i++) result.push((await store.hitRateLimit(arg, 1_000_000, NOW)).count);
  }
  await store.close();
  process.send?.({ result }, () => process.exit(0));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
