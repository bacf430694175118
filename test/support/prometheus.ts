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
