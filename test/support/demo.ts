// `npm run demo`: the offline way to see the product. Starts the fake platform with demo channels,
// then the compiled API and crawler pointed at it (fast profile, a demo SQLite file), and prints
// feed URLs that work in a browser or feed reader within seconds. Ctrl-C stops everything.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { makeChannel, startFakePlatform } from '../fake-platform';
import { ROOT } from './processes';

interface KeyRecord { enabled?: boolean }

function firstEnabledKey(file: string): string {
  const doc = yaml.load(readFileSync(file, 'utf8')) as { security?: { api_keys?: Record<string, KeyRecord> } };
  const entry = Object.entries(doc.security?.api_keys ?? {}).find(([, r]) => r.enabled !== false);
  if (!entry) throw new Error(`${file} has no enabled API key; add one (see README "API keys")`);
  return entry[0];
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 5000);
  const securityFile = path.resolve(ROOT, process.env.SECURITY_CONFIG ?? 'config/security.yaml');
  const key = firstEnabledKey(securityFile);
  const channels = [
    makeChannel({ handle: 'demo', title: 'Demo Channel', count: 60, seed: 1 }),
    makeChannel({ handle: 'tiny', title: 'Tiny Channel', count: 3, seed: 2 }),
  ];
  const fake = await startFakePlatform({ channels });
  const env = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${path.join(ROOT, 'data/demo.db')}`,
    SECURITY_CONFIG: securityFile,
    PLATFORM_BASE_URL: fake.url,
    CRAWL_PROFILE: 'fast',
    CRAWL_POLL_SECONDS: '1',
    CRAWL_LISTING_INTERVAL: '60',
    BROWSER_EXECUTABLE_PATH: process.env.BROWSER_EXECUTABLE_PATH ?? 'off',
    LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
  };
  const children: ChildProcess[] = (['api', 'crawler'] as const).map((name) =>
    spawn(process.execPath, [path.join(ROOT, `dist/${name}/main.js`)], { cwd: ROOT, env, stdio: 'inherit' }),
  );
  const host = `http://localhost:${port}`;
  console.log(`\nDemo running. Fake platform at ${fake.url}\n`);
  for (const c of channels) {
    console.log(`  ${c.title} (@${c.handle}, ${c.videos.length} videos)`);
    console.log(`    Atom: ${host}/?channel=@${c.handle}&api_key=${key}`);
    console.log(`    RSS:  ${host}/?channel=@${c.handle}&format=Rss&max_items=20&api_key=${key}`);
  }
  console.log('\nThe first request answers 404 (nothing stored yet); reload after a few seconds. Ctrl-C stops.\n');

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    void Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))))).then(async () => {
      await fake.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const c of children) c.once('exit', (code) => {
    if (!stopping) {
      console.error(`a demo process exited with code ${code}; stopping the demo`);
      stop();
    }
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
