// `npm run bench`: runs every benchmark in one process, one after another (never in parallel, so
// they do not steal each other's cores), and prints one Markdown table: the README's figures.
// `npm run bench -- store api` runs only the named ones.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { toMarkdown } from './support';
import type { Benchmark, BenchSection } from './types';

const ALL = ['store', 'api', 'platform', 'end-to-end'] as const;

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
