// The container image (Dockerfile): both targets' sizes and the API's start-up time to its first
// /health inside a container, beside the same API started as a bare process in the same run. The
// container figures come from the smoke test (test/container/smoke.sh, which builds the images with
// podman, reusing cached layers); without podman on the machine the section says so and measures
// only the bare start.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runStandalone } from './support';
import type { Benchmark, BenchRow } from './types';

const ROOT = path.join(__dirname, '..');
const MB = 1_000_000;

interface Figures { base: number; plain: number; browser: number; firstHealthMs: number; stopApiMs: number; stopCrawlerMs: number }

/** Time from spawning `node dist/api/main.js` to its first 200 from /health, in ms. */
async function bareStartMs(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tf-bench-start-'));
  writeFileSync(path.join(dir, 'security.yaml'), 'security:\n  api_keys:\n    bench-start-key-0001:\n      name: bench\n      enabled: true\n');
  const t0 = performance.now();
  const api = spawn(process.execPath, [path.join(ROOT, 'dist/api/main.js')], {
    cwd: dir, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', DATABASE_URL: `sqlite:${path.join(dir, 'feeds.db')}`, SECURITY_CONFIG: path.join(dir, 'security.yaml') },
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      api.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const m = /API listening on http:\/\/[^:]+:(\d+)/.exec(seen);
        if (m) resolve(Number(m[1]));
      });
      api.once('exit', (code) => reject(new Error(`the API exited (${code}) before listening`)));
    });
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      if (res?.ok) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    api.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const bench: Benchmark = async () => {
  const bare = await bareStartMs();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  if (spawnSync('podman', ['--version']).status !== 0) {
    notes.push('podman is not on this machine: only the bare start was measured (test/container/smoke.sh installs podman)');
  } else {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'tf-bench-image-')), 'figures.json');
    const run = spawnSync('bash', [path.join(ROOT, 'test/container/smoke.sh')], { cwd: ROOT, env: { ...process.env, SMOKE_FIGURES: out }, stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0) throw new Error(`test/container/smoke.sh failed (exit ${run.status})`);
    const f = JSON.parse(readFileSync(out, 'utf8')) as Figures;
    rmSync(path.dirname(out), { recursive: true, force: true });
    rows.push(
      { metric: 'plain image, its own layers above the base image', readme: 'container image (plain), above its base', value: Math.round((f.plain - f.base) / MB), unit: 'MB', target: '< 120 MB', met: f.plain - f.base < 120 * MB },
      { metric: 'plain image, whole (base included)', value: Math.round(f.plain / MB), unit: 'MB', baseline: { label: 'the base image', value: Math.round(f.base / MB) } },
      { metric: 'browser image (--target browser, Debian\'s Chromium), whole', value: Math.round(f.browser / MB), unit: 'MB', baseline: { label: 'the plain image', value: Math.round(f.plain / MB) }, ratio: f.browser / f.plain },
      { metric: 'API start to its first /health, in a container (podman run → 200); lower is better', value: Math.round(f.firstHealthMs), unit: 'ms', baseline: { label: 'the same API as a bare process', value: Math.round(bare) }, ratio: f.firstHealthMs / bare },
      // podman stop's own wait is the ceiling these stand beside: a process that ignored SIGTERM would take it whole.
      { metric: 'api container, podman stop (SIGTERM) → exit 0; lower is better', value: f.stopApiMs, unit: 'ms', baseline: { label: 'podman stop -t 10, the kill deadline', value: 10_000 }, ratio: f.stopApiMs / 10_000, target: '< 10 s, exit 0', met: f.stopApiMs < 10_000 },
      { metric: 'crawler container, podman stop (SIGTERM) → exit 0; lower is better', value: f.stopCrawlerMs, unit: 'ms', baseline: { label: 'podman stop -t 10, the kill deadline', value: 10_000 }, ratio: f.stopCrawlerMs / 10_000, target: '< 10 s, exit 0', met: f.stopCrawlerMs < 10_000 },
    );
    notes.push('sizes as podman reports them (uncompressed); the base is the stand-in for node:20-bookworm-slim that test/container/base.sh builds where no image can be pulled');
  }
  if (rows.length === 0) rows.push({ metric: 'API start to its first /health, bare process; lower is better', value: Math.round(bare), unit: 'ms' });
  return { title: 'Container image', rows, notes };
};

export default bench;
if (require.main === module) runStandalone(bench);
