// The API benchmark's servers (bench/api.ts): each target a child process of its own, started from
// the compiled code, that reports its memory and CPU time on request so the cost per request can
// be compared even on a busy machine.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

export type Kind = 'bare' | 'express' | 'real' | 'real-unmetered';
type ToChild = { type: 'stats' } | { type: 'stop' };
type FromChild = { type: 'ready'; port: number } | { type: 'stats'; rss: number; heapUsed: number; cpuMicros: number };

// ── servers (child side) ──────────────────────────────────────────────────────────────────────
// Every server runs as plain compiled JavaScript (`node -e`, the API from dist/ as `npm start` runs
// it), so no TypeScript loader sits in the measured process or its memory.

const CHILD = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const { kind, arg, root } = JSON.parse(process.env.BENCH_CHILD);
const ready = (port) => process.send({ type: 'ready', port });
process.on('message', (m) => {
  if (m.type === 'stats') {
    const u = process.memoryUsage();
    const c = process.cpuUsage();
    process.send({ type: 'stats', rss: u.rss, heapUsed: u.heapUsed, cpuMicros: c.user + c.system });
  } else process.exit(0);
});
if (kind === 'bare') {
  const body = fs.readFileSync(arg);
  // Any If-None-Match gets a bare 304: no key, no store, no log, no decision.
  const server = require('node:http').createServer((req, res) => {
    if (req.headers['if-none-match'] !== undefined) {
      res.writeHead(304, { ETag: '"bare"' });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/atom+xml', 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else if (kind === 'express') {
  const body = fs.readFileSync(arg);
  const app = require('express')();
  // Without Express's default weak ETag, which would hash the body on every request and so
  // flatter the real app's ratio.
  app.set('etag', false);
  app.get('/', (req, res) => { res.type('application/atom+xml').send(body); });
  const server = app.listen(0, '127.0.0.1', () => ready(server.address().port));
} else {
  const dist = (p) => require(path.join(root, 'dist', p));
  const { createApp } = dist('api/create-app');
  const { listen } = dist('api/server');
  const { KeyRing } = dist('api/key-ring');
  const { createLogger } = dist('shared/logger');
  const { openStore } = dist('shared/store');
  // Production logging: JSON at INFO, one access line per request, to stdout exactly as under PM2;
  // the parent points this child's stdout at /dev/null, so it costs what a file costs and fills no disk.
  const logger = createLogger({ level: 'info', format: 'json' });
  (async () => {
    const store = await openStore('sqlite:' + path.join(arg, 'bench.db'), { logger });
    const keys = KeyRing.open(path.join(arg, 'security.yaml'), { defaultRateLimit: 60, logger });
    // wrk's connections all use one key: the per-key bound is not what is measured here.
    const app = createApp({ store, keys, platform: { resolveHandle: async () => null }, logger, maxAnswersPerKey: 1000, recordMetrics: kind !== 'real-unmetered' });
    ready((await listen(app, 0, '127.0.0.1', { logger })).port);
  })();
}
`;

export interface Child {
  port: number;
  ask(m: ToChild): Promise<FromChild>;
  stop(): Promise<void>;
}

export function spawnServer(kind: Kind, arg: string): Promise<Child> {
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CHILD: JSON.stringify({ kind, arg, root: ROOT }) },
    // The real app logs to stdout as in production: /dev/null here ('ignore').
    stdio: ['ignore', kind === 'real' || kind === 'real-unmetered' ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { resolve: (m: FromChild) => void; reject: (e: Error) => void } | null = null;
  child.on('message', (m: FromChild) => waiting?.resolve(m));
  child.on('exit', (code) => waiting?.reject(new Error(`bench server "${kind}" exited with code ${code}`)));
  const nextMessage = () =>
    new Promise<FromChild>((resolve, reject) => {
      waiting = { resolve, reject };
    });
  return nextMessage().then((ready) => {
    if (ready.type !== 'ready') throw new Error('unexpected first message');
    return {
      port: ready.port,
      ask: (m) => {
        const answer = nextMessage();
        child.send(m);
        return answer;
      },
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.send({ type: 'stop' } satisfies ToChild);
        }),
    };
  });
}

export async function statsOf(server: Child): Promise<{ rss: number; cpuMicros: number }> {
  const m = await server.ask({ type: 'stats' });
  if (m.type !== 'stats') throw new Error('unexpected answer to stats');
  return m;
}
