// The one wrk runner of the benchmarks (bench/api.ts, bench/feed-at-scale.ts). wrk, not a Node
// load generator: on a 2-core machine a JavaScript generator is slower than bare node:http and
// would measure itself. A benchmark without wrk on the PATH skips its HTTP
// load with WRK_INSTALL as its note.

import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

export const WRK_INSTALL = 'wrk is not installed: install it with `apt-get install wrk` (Debian/Ubuntu) or `brew install wrk` (macOS), then run the benchmark again';

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Median latency, ms (wrk's --latency distribution, microsecond resolution). */
  p50: number;
  /** ms */
  p99: number;
  /** wrk's whole output, for what a Lua script's done() prints. */
  stdout: string;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyAt(out: string, percent: number): number | null {
  const m = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : null;
}

/** The figures of wrk's text output (`--latency`); throws on socket errors or unexpected statuses. */
export function parseWrk(out: string): WrkResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(out);
  const p50 = latencyAt(out, 50);
  const p99 = latencyAt(out, 99);
  if (!total || p50 === null || p99 === null) throw new Error(`cannot read wrk output:\n${out}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (errors && errors.slice(1).some((n) => Number(n) > 0)) throw new Error(`wrk saw socket errors: ${errors[0]}`);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  if (bad) throw new Error(`wrk saw ${bad[1]} answers that were not 2xx/3xx`);
  const requests = Number(total[1]);
  const seconds = (Number(total[2]) * UNIT_MS[total[3]!]!) / 1000;
  return { requests, seconds, rps: requests / seconds, p50, p99, stdout: out };
}

export interface WrkLoad {
  url: string;
  /** Whole seconds (wrk's -d). */
  seconds: number;
  connections: number;
  threads?: number;
  headers?: Readonly<Record<string, string>>;
  /** wrk's --timeout in seconds (default wrk's 2): a slower answer counts as a socket error. */
  timeoutSeconds?: number;
  /** A Lua script (wrk -s) and the arguments its init() receives. */
  script?: { file: string; args?: readonly string[] };
}

const execFileP = promisify(execFile);

export async function wrk(load: WrkLoad): Promise<WrkResult> {
  const args = [
    '-t', String(load.threads ?? 1),
    '-c', String(load.connections),
    '-d', `${Math.max(1, Math.round(load.seconds))}s`,
    '--latency',
    ...(load.timeoutSeconds === undefined ? [] : ['--timeout', `${load.timeoutSeconds}s`]),
    ...Object.entries(load.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    ...(load.script ? ['-s', load.script.file] : []),
    load.url,
    ...(load.script?.args?.length ? ['--', ...load.script.args] : []),
  ];
  const { stdout } = await execFileP('wrk', args, { maxBuffer: 1 << 20 });
  return parseWrk(stdout);
}
