// Starts the project's MongoDB wire-protocol emulator (test/mongo-emulator/emulator.py, run with
// Debian's /usr/bin/python3, whose python3-mockupdb and python3-mongomock it needs) on a free
// loopback port, and stops it. `mongoTestUrl()` is what the MongoDB tests connect to: MONGODB_URI
// when it names a real server, else one emulator shared by the whole test run.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Document } from 'mongodb';
import { ROOT } from './processes';

export const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(ROOT, 'test/mongo-emulator/emulator.py');

export interface EmulatorOptions {
  /** Listen on this port (default: a free one the emulator picks). A restart reuses the port. */
  port?: number;
  /** Keep the data across stop()/start(): written on SIGTERM, read on start. */
  persist?: boolean;
  /** Answer as the primary of a one-member replica set of this name (transactions allowed). */
  replicaSet?: string;
}

export class MongoEmulator {
  private child: ChildProcess | null = null;
  private stateDir: string | null = null;
  port = 0;

  constructor(private readonly opts: EmulatorOptions = {}) {
    if (opts.persist) this.stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-mongo-emulator-'));
    this.port = opts.port ?? 0;
  }

  /** `mongodb://127.0.0.1:<port>/<db>`; a direct connection, as to one server. */
  url(dbName = 'transcript-feed'): string {
    return `mongodb://127.0.0.1:${this.port}/${dbName}?directConnection=true`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<this> {
    if (this.child) return this;
    const args = [SCRIPT, '--port', String(this.port)];
    if (this.stateDir) args.push('--state', path.join(this.stateDir, 'state.pickle'));
    if (this.opts.replicaSet) args.push('--replica-set', this.opts.replicaSet);
    // stdin stays open: the emulator exits when it closes, so a crashed test run leaves nothing behind.
    const child = spawn(PYTHON, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (process.env.MONGO_EMULATOR_VERBOSE) process.stderr.write(chunk);
    });
    this.port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const onData = (chunk: string): void => {
        out += chunk;
        const m = /listening (\d+)\n/.exec(out);
        if (m) {
          child.stdout?.off('data', onData);
          resolve(Number(m[1]));
        }
      };
      child.stdout?.setEncoding('utf8').on('data', onData);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`MongoDB emulator exited with ${code} before listening: ${stderr.trim()}`)));
    });
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    return this;
  }

  /** SIGTERM, as a server is shut down (its data kept when `persist`); resolves once it exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  /** Stop and start again on the same port. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Stops the emulator and removes its state. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.stateDir) fs.rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/**
 * Sets the server's `failCommand` fail point (a real server's test command, which the emulator
 * offers too): e.g. `{ mode: { times: 1 }, data: { failCommands: ['update'], errorCode: 10107 } }`.
 * `{ mode: 'off' }` clears it. A real server needs `enableTestCommands=1` for this.
 */
export async function failCommand(url: string, spec: { mode: 'off' | 'alwaysOn' | { times: number } | { skip: number }; data?: Document }): Promise<void> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
  try {
    await client.db('admin').command({ configureFailPoint: 'failCommand', ...spec });
  } finally {
    await client.close();
  }
}

let shared: Promise<MongoEmulator> | null = null;

/**
 * The server the MongoDB tests use: MONGODB_URI when set (a real server), else the shared emulator,
 * started on first use and stopped when the test process exits.
 */
export async function mongoTestUrl(): Promise<string> {
  const real = process.env.MONGODB_URI;
  if (real) return real;
  if (!shared) {
    const emulator = new MongoEmulator();
    shared = emulator.start();
    process.once('exit', () => void emulator.stop());
  }
  return (await shared).url('admin');
}

/** True when the tests run on the emulator (not on a real server named by MONGODB_URI). */
export const onEmulator = (): boolean => !process.env.MONGODB_URI;

/** The same server, another database: `mongodb://host/<dbName>?options`. */
export function withDatabase(url: string, dbName: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?#]*)(?:\/[^?#]*)?(.*)$/.exec(url);
  if (!m) throw new Error('not a mongodb:// URL');
  return `${m[1]}/${encodeURIComponent(dbName)}${m[2]}`;
}

let databases = 0;
const runId = `${process.pid}_${Date.now().toString(36)}`;

/**
 * A fresh database on the test server for one test: its DATABASE_URL, and `drop()` to remove it.
 */
export async function mongoTestDatabase(): Promise<{ url: string; dbName: string; drop(): Promise<void> }> {
  const dbName = `tf_test_${runId}_${++databases}`;
  const url = withDatabase(await mongoTestUrl(), dbName);
  return {
    url,
    dbName,
    async drop() {
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
