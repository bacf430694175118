// `npm run bench`: runs every benchmark in one process, one after another (never in parallel, so
// they do not steal each other's cores), and prints one Markdown table: the README's figures.
// `npm run bench -- store api` runs only the named ones.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Benchmark, BenchRow, BenchSection } from './types';

const ALL = ['store', 'api', 'platform', 'end-to-end'] as const;

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function row(r: BenchRow): string {
  const baseline = r.baseline ? `${fmt(r.baseline.value)} ${r.unit} (${r.baseline.label})` : '';
  const ratio = r.ratio === undefined ? '' : `${fmt(r.ratio)}x`;
  const verdict = r.met === undefined ? '' : r.met ? 'met' : '**missed**';
  return `| ${r.metric} | ${fmt(r.value)} ${r.unit} | ${baseline} | ${ratio} | ${r.target ?? ''} | ${verdict} |`;
}

export function toMarkdown(sections: BenchSection[]): string {
  const out: string[] = [];
  for (const s of sections) {
    out.push(`#### ${s.title}`, '', '| metric | value | baseline (same run) | ratio | target | |', '|---|---|---|---|---|---|');
    for (const r of s.rows) out.push(row(r));
    for (const n of s.notes ?? []) out.push('', `- ${n}`);
    out.push('');
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length > 0 ? wanted : [...ALL];
  const sections: BenchSection[] = [];
  let missed = 0;
  for (const name of names) {
    const started = Date.now();
    console.error(`bench: ${name} …`);
    const mod = (await import(`./${name}`)) as { default: Benchmark };
    const section = await mod.default();
    sections.push(section);
    missed += section.rows.filter((r) => r.met === false).length;
    console.error(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const md = toMarkdown(sections);
  console.log(md);
  const file = path.join(__dirname, 'RESULTS.md');
  writeFileSync(file, `<!-- written by \`npm run bench\` on ${new Date().toISOString()} -->\n\n${md}`);
  console.error(`bench: table written to ${path.relative(process.cwd(), file)}; ${missed} target(s) missed`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
