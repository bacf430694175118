// Shape every benchmark returns, so `npm run bench` (bench/run.ts) can print one table and the README
// can show the same figures. Every figure is a ratio against a baseline measured in the same run,
// or stands beside its baseline.

export interface BenchRow {
  /** What was measured, e.g. "feed 10 items, req/s". */
  metric: string;
  /** A short label: the row's name in the README's table when it is a headline row. */
  readme?: string;
  /** One of the README's five headline rows; every other row is in bench/RESULTS.md only. */
  headline?: true;
  /** The measured value, in `unit`. */
  value: number;
  unit: string;
  /** The baseline measured in the same run (same tool), when there is one. */
  baseline?: { label: string; value: number };
  /** value / baseline.value (or the inverse where lower is better — say so in `metric`). */
  ratio?: number;
  /** The target the figure is held to, in words, e.g. ">= 0.8x of minimal Express". */
  target?: string;
  /** Whether the target was met; omitted when there is no target. */
  met?: boolean;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes?: string[];
}

/** A benchmark module's default export. */
export type Benchmark = () => Promise<BenchSection>;
