// `npm run backup` of a ~150 MB store while one key sends 10 requests a second to the running API
// (each writes its rate-limit counter: the traffic that kept the old online backup restarting),
// beside the same backup with the API idle, in the same run. The compiled API process on a fresh
// SQLite file padded to ~150 MB with a table of random blobs (what is copied, not what it means,
// sets the cost); the compiled backup command as its own process. Run alone: `npx tsx bench/backup.ts`.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startFakePlatform } from '../test/fake-platform';
import { ROOT, ensureBuilt } from '../test/support/processes';
import { Cleanup, getFeed, progressOf, serviceEnv, startApiLoggingToFile, tempDir, waitForHealth } from './services';
import { round, runStandalone } from './support';
import type { Benchmark, BenchSection } from './types';

const TITLE = 'Backup: npm run backup of a ~150 MB store under keyed traffic (compiled API and backup processes, SQLite)';
const PAD_ROWS = 150_000; // × 1000-byte blobs ≈ 150 MB
const RATE = 10; // keyed requests a second
const progress = progressOf('backup');
const QUERY_CHANNEL = 'UC0000000000000000000042';

/** Runs the compiled backup command to `target`; the wall time in ms. */
async function timedBackup(env: Record<string, string>, dir: string, target: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/shared/cli/backup.js'), target], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`backup exited ${code}: ${stderr}`);
  return performance.now() - started;
}

const backupBenchmark: Benchmark = async (): Promise<BenchSection> => {
  ensureBuilt();
  const cleanup = new Cleanup();
  try {
    const fake = await startFakePlatform({ channels: [] });
    cleanup.add('fake platform', () => fake.close());
    const dir = tempDir(cleanup, 'backup');
    const env = { ...serviceEnv(dir, fake.url), CONFIG_FILE: path.join(dir, 'settings.yaml') };
    writeFileSync(env.CONFIG_FILE, '');
    const { api, base } = await startApiLoggingToFile(cleanup, env, dir);
    await waitForHealth(api, base);
    const db = new Database(path.join(dir, 'feeds.db'), { timeout: 5000 });
    db.exec('CREATE TABLE bench_padding (n INTEGER PRIMARY KEY, pad BLOB)');
    db.prepare(`INSERT INTO bench_padding (pad) SELECT randomblob(1000) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${PAD_ROWS}) SELECT i FROM c)`).run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const storeMb = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number) / 1048576;
    db.close();
    progress(`store ${storeMb.toFixed(0)} MB`);

    const idle = await timedBackup(env, dir, path.join(dir, 'idle.db'));
    progress(`idle backup ${(idle / 1000).toFixed(1)} s`);
    const statuses = new Map<number, number>();
    let counted = 0;
    const ticker = setInterval(() => {
      void getFeed(base, `channel_id=${QUERY_CHANNEL}`).then(async (res) => {
        await res.arrayBuffer();
        if (res.headers.has('x-ratelimit-remaining')) counted += 1;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }, () => statuses.set(0, (statuses.get(0) ?? 0) + 1));
    }, 1000 / RATE);
    cleanup.add('traffic', () => clearInterval(ticker));
    await new Promise((r) => setTimeout(r, 1000));
    const busy = await timedBackup(env, dir, path.join(dir, 'busy.db'));
    clearInterval(ticker);
    const answers = [...statuses].map(([s, n]) => `${s} ×${n}`).join(', ');
    progress(`backup at ${RATE} keyed requests/s ${(busy / 1000).toFixed(1)} s; answers ${answers}, ${counted} counted by the rate limit`);
    const ratio = busy / idle;
    return {
      title: TITLE,
      rows: [
        {
          metric: `backup of a ~${storeMb.toFixed(0)} MB store at ${RATE} keyed requests/s vs idle, wall time ratio; lower is better`,
          value: round(busy / 1000, 1),
          unit: 's',
          baseline: { label: 'the same backup with the API idle', value: round(idle / 1000, 1) },
          ratio: round(ratio, 2),
          target: '<= 2x',
          met: ratio <= 2,
        },
      ],
      notes: [`Keyed requests GET /?channel_id=${QUERY_CHANNEL} (a channel the fake platform lacks), answers ${answers}, ${counted} carrying X-RateLimit-Remaining (a counter written). Wall time of the compiled backup process, integrity check included. Measured on a shared 2-core machine unless the summary line says otherwise.`],
    };
  } finally {
    await cleanup.runAll();
  }
};

export default backupBenchmark;

if (require.main === module) runStandalone(backupBenchmark);
