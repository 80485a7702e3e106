/**
 * Pure helpers for the bench report: percentiles, goal checks and the Markdown table. A row that
 * could not be measured carries its reason in `value` ("n/a: …") and `met: null`.
 */

export interface Row {
  figure: string;
  /** The measured figure as shown, e.g. "2.41 s", or "n/a: <why>". */
  value: string;
  goal: string;
  /** true = within the goal, false = misses it, null = no goal or not measured. */
  met: boolean | null;
  /** e.g. "41× faster than online-only at 150 ms". */
  baseline?: string;
  /** Raw numbers for results.json (samples, bytes, counts). */
  detail?: Record<string, unknown>;
}

/** Nearest-rank percentile (p in 0..100) of a non-empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values: readonly number[]) => percentile(values, 50);

export function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "12× faster" when ours is smaller, "0.5× (slower)" otherwise; baseline/ours. */
export function ratio(baseline: number, ours: number): string {
  if (ours <= 0) return baseline > 0 ? '∞× fewer' : '—';
  const r = baseline / ours;
  return r >= 1 ? `${r >= 10 ? Math.round(r) : r.toFixed(1)}×` : `${r.toFixed(2)}× (worse)`;
}

export function naRow(figure: string, goal: string, why: string): Row {
  return { figure, value: `n/a: ${why}`, goal, met: null };
}

const mark = (met: boolean | null) => (met === true ? '✅' : met === false ? '❌ misses' : '—');

export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| figure | measured | goal | met | vs online-only baseline |', '|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.figure} | ${r.value} | ${r.goal} | ${mark(r.met)} | ${r.baseline ?? '—'} |`);
  return lines.join('\n');
}
