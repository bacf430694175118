// A separate OS process for the multi-process store tests. Opens the store the DATABASE_URL names
// (a SQLite file or a MongoDB database), reports `ready`, waits for the start time the parent sends
// (so both workers really overlap), does its work and sends the result.
//   claim <url> <owner>           claim until nothing is due; result: the claimed channel ids
//   hit <url> <keyId> <count>     count that many requests for one key; result: the counts seen

import { silentLogger } from '../../shared/logger';
import { openStore, type Store } from '../../shared/store';
import { connectMongoStore } from '../../shared/store/mongo/mongo-store';

const NOW = new Date(Date.UTC(2025, 0, 1, 12, 0, 0));
const LEASE_MS = 3_600_000;

async function main(): Promise<void> {
  const [mode, databaseUrl, arg, countArg] = process.argv.slice(2);
  if (!databaseUrl || !arg || (mode !== 'claim' && mode !== 'hit')) throw new Error('usage: worker.ts claim|hit <databaseUrl> <owner|keyId> [count]');
  // Hits on MongoDB read the caller's clock, as the store contract tests do: every hit happens at
  // NOW, so a slow run on a loaded machine cannot cross a minute of the server's clock and start the
  // rate-limit window again halfway through (test/store/mongo-clock.test.ts covers the server's).
  // Claims keep the server's clock the parent registered the channels on.
  const store: Store = mode === 'hit' && databaseUrl.startsWith('mongodb')
    ? await connectMongoStore(databaseUrl, { logger: silentLogger(), serverSelectionTimeoutMS: 3000, clock: 'caller' })
    : await openStore(databaseUrl, { logger: silentLogger() });
  // Every worker has its store open before any begins, so the loops below overlap; what the tests
  // check (no channel claimed twice, every count handed out once) holds however much they do.
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    process.send?.('ready');
  });
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
