// The README's benchmark table, rewritten by a full `npm run bench` between two marker comments, so
// the figures a newcomer reads are the ones the last run measured: the five headline rows (under
// their `readme` label); bench/RESULTS.md keeps every row with its full description and the notes
// on how it was measured.

import fs from 'node:fs';
import { fmt } from './support';
import type { BenchRow, BenchSection } from './types';

export const BEGIN = '<!-- bench:table (written by npm run bench) -->';
export const END = '<!-- /bench:table -->';

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function line(r: BenchRow): string {
  const baseline = r.baseline ? `${cell(r.baseline.label)}: ${fmt(r.baseline.value)} ${r.unit}` : '—';
  const ratio = r.ratio === undefined ? '—' : `${fmt(r.ratio)}x`;
  const verdict = r.met === undefined ? '' : r.met ? ' ✓' : ' ✗';
  return `| ${cell(r.readme ?? r.metric)} | ${fmt(r.value)} ${r.unit} | ${baseline} | ${ratio} | ${cell(r.target ?? '')}${verdict} |`;
}

export function readmeTable(sections: readonly BenchSection[], summary: string): string {
  const rows = sections.flatMap((s) => s.rows.filter((r) => r.headline === true));
  return [
    BEGIN,
    '',
    '| what | measured | baseline (same run) | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map(line),
    '',
    `${summary} All rows, and how each is measured: [bench/RESULTS.md](bench/RESULTS.md).`,
    '',
    END,
  ].join('\n');
}

/** Replaces the marked block of `file`; false (and nothing written) when the markers are missing. */
export function writeReadmeTable(file: string, table: string): boolean {
  const text = fs.readFileSync(file, 'utf8');
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END, a);
  if (a < 0 || b < 0) return false;
  fs.writeFileSync(file, text.slice(0, a) + table + text.slice(b + END.length));
  return true;
}
