// Reading a /metrics answer the way Prometheus does: the text goes through a real exposition-format
// parser (parse-prometheus-text-format), and tests look samples up by name and labels.

import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Families = ReturnType<typeof parsePrometheusTextFormat>;

export function parseMetrics(text: string): Families {
  return parsePrometheusTextFormat(text);
}

const matches = (have: Record<string, string> | undefined, want: Record<string, string>): boolean =>
  Object.entries(want).every(([k, v]) => have?.[k] === v);

/** The sum of the samples of `name` whose labels include `labels` (0 when none). */
export function sample(families: Families, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  if (!family) return 0;
  return family.metrics.filter((m) => matches(m.labels, labels)).reduce((n, m) => n + Number(m.value ?? m.count ?? 0), 0);
}

/** Whether the family exists with this type. */
export function hasFamily(families: Families, name: string, type: string): boolean {
  return families.some((f) => f.name === name && f.type === type);
}

/** Every label value that `label` takes in `name`'s samples. */
export function labelValues(families: Families, name: string, label: string): string[] {
  const family = families.find((f) => f.name === name);
  return [...new Set((family?.metrics ?? []).map((m) => m.labels?.[label]).filter((v): v is string => v !== undefined))];
}

/**
 * A histogram's series one by one. The parser folds a labelled histogram's series into one (it keeps
 * the buckets of the last series and drops their labels), so the family's `# TYPE` line is left out
 * and the same parser reads its `_bucket`, `_sum` and `_count` lines as untyped samples, each with
 * its labels (`le` included): look them up with `sample(…, '<name>_count', {route: '/'})`.
 */
export function histogramSeries(text: string, name: string): Families {
  const typeLine = `# TYPE ${name} histogram`;
  const lines = text.split('\n');
  if (!lines.includes(typeLine)) throw new Error(`no histogram ${name} in the exposition`);
  const parsed = parsePrometheusTextFormat(lines.filter((l) => l !== typeLine && !l.startsWith(`# HELP ${name} `)).join('\n'));
  // Untyped samples of one name that are not adjacent come back as families of their own: merged.
  const byName = new Map<string, Families[number]>();
  for (const f of parsed) {
    const seen = byName.get(f.name);
    if (seen) seen.metrics.push(...f.metrics);
    else byName.set(f.name, { ...f, metrics: [...f.metrics] });
  }
  return [...byName.values()];
}
