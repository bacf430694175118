// newsboat's own OPML importer (`newsboat -i`), run the way a reader would, with a private HOME,
// config, url file and cache in `dir`: it only reads the OPML, never the network.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The feed URLs newsboat keeps after importing `opml`, in its url file's order. */
export function newsboatImport(dir: string, opml: string): string[] {
  const home = path.join(dir, 'newsboat-home');
  mkdirSync(home);
  const file = path.join(dir, 'subscriptions.opml');
  writeFileSync(file, opml);
  writeFileSync(path.join(home, 'config'), '');
  const urls = path.join(home, 'urls');
  execFileSync('newsboat', ['-u', urls, '-c', path.join(home, 'cache.db'), '-C', path.join(home, 'config'), '-i', file], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15_000,
  });
  return readFileSync(urls, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => l.split(' ')[0]!);
}
