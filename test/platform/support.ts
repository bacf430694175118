// Helpers of the platform tests: the real captures (hosts rewritten), a config for any base URL, a
// logger whose lines the test can read.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PlatformConfig } from '../../shared/platform';

const CAPTURES = path.join(__dirname, '..', 'fixtures', 'platform-captures');

/** A capture as recorded, with the real platform host moved onto `base` when one is given. */
export function capture(name: string, base?: string): string {
  const text = readFileSync(path.join(CAPTURES, name), 'utf8');
  return base ? text.replaceAll('https://www.youtube.com', base) : text;
}

export function captureJson(name: string, base?: string): unknown {
  return JSON.parse(capture(name, base)) as unknown;
}

export function platformConfig(base: string, over: Partial<PlatformConfig> = {}): PlatformConfig {
  return {
    platformBaseUrl: base,
    transcriptLanguages: ['en'],
    playerClients: [{ name: 'VISIONOS', version: '1.02' }, { name: 'ANDROID', version: '21.03.36' }],
    platformTimeoutMs: 5000,
    ...over,
  };
}

/** A random source that walks through [0, 1) in `n` even steps, so every choice comes up. */
export function stepping(n: number): () => number {
  let i = 0;
  return () => ((i++ % n) + 0.5) / n;
}
