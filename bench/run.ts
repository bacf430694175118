// `npm run bench`: runs every benchmark in one process, one after another (never in parallel, so
// they do not steal each other's cores), and prints one Markdown table: the README's figures.
// `npm run bench -- store api` runs only the named ones; `end-to-end` names the five that start the
// compiled service as processes. Each benchmark's figures replace only its own block of
// bench/RESULTS.md (bench/results-file.ts), so a partial run keeps the others' last figures. A full
// run (no names) also rewrites the README's benchmark table.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readmeTable, writeReadmeTable } from './readme-table';
import { mergeResults } from './results-file';
import { toMarkdown } from './support';
import type { Benchmark, BenchSection } from './types';

/** Where bench/RESULTS.md's method begins; everything from it on is kept across runs. */
export const METHOD_HEADING = '## How these figures are measured';

const END_TO_END = ['first-feed', 'request-counts', 'feed-at-scale', 'crawler-memory', 'subscriptions', 'import-flood', 'summaries'] as const;
const ALL = ['store', 'search', 'mcp', 'api', 'webapp', 'platform', 'polling-week', ...END_TO_END, 'backup', 'container'] as const;
const GROUPS: Readonly<Record<string, readonly string[]>> = { 'end-to-end': END_TO_END };

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length > 0 ? wanted.flatMap((n) => GROUPS[n] ?? [n]) : [...ALL];
  const sections: BenchSection[] = [];
  const blocks = new Map<string, string>();
  const took: string[] = [];
  const begun = Date.now();
  const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  let missed = 0;
  for (const name of names) {
    const started = Date.now();
    console.error(`bench: ${name} …`);
    const mod = (await import(`./${name}`)) as { default: Benchmark };
    const section = await mod.default();
    sections.push(section);
    missed += section.rows.filter((r) => r.met === false).length;
    const seconds = (Date.now() - started) / 1000;
    took.push(`${name} ${seconds.toFixed(0)} s`);
    blocks.set(name, `${toMarkdown([section])}\n_Measured ${new Date().toISOString()} in ${seconds.toFixed(0)} s, load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}._\n`);
    console.error(`bench: ${name} done in ${seconds.toFixed(1)} s`);
  }
  const total = (Date.now() - begun) / 1000;
  const summary =
    `Whole run: ${total.toFixed(0)} s (${took.join(', ')}) on ${os.cpus().length} CPU(s), node ${process.version}; ` +
    `load average at start ${loadAtStart}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (other work on the machine shows here).`;
  const md = `${toMarkdown(sections)}\n${summary}\n`;
  console.log(md);
  const file = path.join(__dirname, 'RESULTS.md');
  // The method (how the figures are measured, which the load generator limits) is prose kept below
  // the benchmarks' blocks: each run replaces the blocks it measured and keeps it.
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const methodAt = old.indexOf(METHOD_HEADING);
  const method = methodAt < 0 ? '' : `\n${old.slice(methodAt)}`;
  const order = [...new Set([...ALL, ...names])];
  writeFileSync(file, `${mergeResults(methodAt < 0 ? old : old.slice(0, methodAt), blocks, order, `Last run (${new Date().toISOString()}, ${wanted.length === 0 ? 'all' : names.join(' ')}): ${summary}`)}${method}`);
  console.error(`bench: blocks of ${names.join(', ')} written to ${path.relative(process.cwd(), file)}; ${missed} target(s) missed; ${total.toFixed(0)} s in all`);
  if (wanted.length === 0) {
    const readme = path.join(__dirname, '..', 'README.md');
    const written = writeReadmeTable(readme, readmeTable(sections, summary));
    console.error(written ? 'bench: README benchmark table rewritten' : 'bench: README has no bench:table markers; not rewritten');
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
