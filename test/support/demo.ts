// `npm run demo`: the offline way to see the product. Starts the fake platform with demo channels
// that show what the README promises (chapters, Shorts and a live stream left out unless `include=`,
// a Turkish channel, a machine-translated `lang=`), then the compiled API and crawler pointed at it
// (fast profile, a demo SQLite file), asks for each feed once so the crawler starts on them, and
// prints the feed URLs. The processes' log lines go to a file, so the URLs stay on screen.
// PORT (default 5000) is the API's; with 0 the system picks a free one and the URLs show it.
// Ctrl-C stops everything.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { startFakePlatform } from '../fake-platform';
import { demoChannels, demoFeeds } from './demo-channels';
import { ROOT } from './processes';

interface KeyRecord { enabled?: boolean }

function firstEnabledKey(file: string): string {
  const doc = yaml.load(readFileSync(file, 'utf8')) as { security?: { api_keys?: Record<string, KeyRecord> } };
  const entry = Object.entries(doc.security?.api_keys ?? {}).find(([, r]) => r.enabled !== false);
  if (!entry) throw new Error(`${file} has no enabled API key; add one (see README "API keys")`);
  return entry[0];
}

/** A path as short as it can be said from here. */
function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

async function until(what: string, check: () => Promise<boolean>, failed: () => string | null, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    const why = failed();
    if (why !== null) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 5000);
  const securityFile = path.resolve(ROOT, process.env.SECURITY_CONFIG ?? 'config/security.yaml');
  const key = firstEnabledKey(securityFile);
  const shown = demoChannels();
  const channels = shown.map((s) => s.channel);
  const fake = await startFakePlatform({ channels });
  const logFile = path.join(path.resolve(ROOT, process.env.LOG_DIR ?? 'logs'), 'demo.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  const logFd = openSync(logFile, 'a');
  // Lines from before this run stay above this offset; what the processes write now comes after it.
  const logStart = fstatSync(logFd).size;
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
    // JSON in the file: `npm run --silent logs:text < logs/demo.log` reads it as text.
    LOG_FORMAT: process.env.LOG_FORMAT ?? 'json',
  };
  const children: ChildProcess[] = (['api', 'crawler'] as const).map((name) =>
    spawn(process.execPath, [path.join(ROOT, `dist/${name}/main.js`)], { cwd: ROOT, env, stdio: ['ignore', logFd, logFd] }),
  );
  const readLogFd = openSync(logFile, 'r');
  closeSync(logFd);
  /** What the processes wrote to the log file since this run started. */
  const newLogText = (): string => {
    const size = fstatSync(readLogFd).size - logStart;
    const buf = Buffer.alloc(Math.max(size, 0));
    readSync(readLogFd, buf, 0, buf.length, logStart);
    return buf.toString('utf8');
  };
  const exits: string[] = [];
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    void Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))))).then(async () => {
      await fake.close();
      process.exit(code);
    });
  };
  for (const [i, c] of children.entries()) c.once('exit', (code) => {
    if (stopping) return;
    exits.push(`the demo ${i === 0 ? 'API' : 'crawler'} exited with code ${code}; its lines are in ${shownPath(logFile)}`);
    console.error(exits.at(-1));
    stop(1);
  });
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  let host = `http://localhost:${port}`;
  let feeds = demoFeeds(host, key, channels);
  try {
    if (port === 0) {
      // PORT=0: the system picked the API's port, and its "API listening on …" line names it
      // (JSON or pretty, the message is the same).
      let bound = 0;
      await until('the demo API\'s port', async () => {
        bound = Number(/API listening on http:\/\/\S+?:(\d+)/.exec(newLogText())?.[1] ?? 0);
        return bound > 0;
      }, () => exits[0] ?? null);
      host = `http://localhost:${bound}`;
      feeds = demoFeeds(host, key, channels);
    }
    await until('the demo API', async () => (await fetch(`${host}/health`)).ok, () => exits[0] ?? null);
    // A new channel's first answer is 404 while the crawler starts on it: ask once here, so the
    // URLs below answer within seconds (the translated one first, so its language is fetched too).
    for (const f of feeds) await fetch(f.url).then((r) => r.body?.cancel());
  } catch (err) {
    if (exits.length === 0) console.error(`the demo cannot start: ${(err as Error).message}`);
    stop(1);
    return;
  }

  const width = Math.max(...feeds.map((f) => f.label.length)) + 2;
  const lines = [
    `\nDemo running against the project's fake video platform at ${fake.url}: made-up channels and captions, nothing asked of the real platform.`,
    `The processes' logs are in ${shownPath(logFile)}.\n`,
  ];
  for (const { channel, shows } of shown) {
    lines.push(`  ${channel.title} (@${channel.handle}, ${shows})`);
    for (const f of feeds.filter((x) => x.channel === channel)) lines.push(`    ${`${f.label}:`.padEnd(width)} ${f.url}`);
    lines.push('');
  }
  lines.push('Feeds fill within seconds (a 404 until the first videos are stored: reload). Ctrl-C stops.\n');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
