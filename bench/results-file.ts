// bench/RESULTS.md as blocks, one per benchmark, so `npm run bench -- store` replaces only the store
// block and keeps every other benchmark's last figures: a partial run must not erase the figures of
// the runs it did not repeat. Each block sits between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`
// and says when it was measured, since blocks of one file may now come from different runs.

const open = (name: string): string => `<!-- bench:${name} -->`;
const close = (name: string): string => `<!-- /bench:${name} -->`;
const BLOCK = /<!-- bench:([a-z0-9-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g;
export const LAST_RUN = '<!-- bench:last-run -->';

/** The blocks of a RESULTS.md, by benchmark name (a file without markers has none). */
export function parseResults(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of text.matchAll(BLOCK)) blocks.set(m[1]!, m[2]!);
  return blocks;
}

/**
 * The new file: `fresh` blocks replace the old ones of the same name, the old ones of benchmarks
 * not run stay; ordered as `order` (the run's list), then any other old blocks (a benchmark since
 * renamed or removed stays visible rather than silently lost).
 */
export function mergeResults(old: string, fresh: ReadonlyMap<string, string>, order: readonly string[], lastRun: string): string {
  const blocks = parseResults(old);
  for (const [name, body] of fresh) blocks.set(name, body);
  const names = [...order.filter((n) => blocks.has(n)), ...[...blocks.keys()].filter((n) => !order.includes(n))];
  const body = names.map((n) => `${open(n)}\n${blocks.get(n)!.trimEnd()}\n${close(n)}\n`).join('\n');
  return `<!-- written by \`npm run bench\`; each benchmark's block is replaced only when that benchmark runs -->\n\n${body}\n${LAST_RUN}\n${lastRun}\n`;
}
