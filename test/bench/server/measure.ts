/** Runs a request N times with fixed concurrency and reports latency percentiles and throughput. */

export interface Measurement {
  name: string;
  requests: number;
  p50: number;
  p95: number;
  perSecond: number;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const i = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[i];
}

/**
 * `run(i)` is called for i = 0..n-1 by `concurrency` workers; each call is timed on its own, and
 * requests/s is n over the wall time of the whole batch.
 */
export async function measure(name: string, n: number, concurrency: number, run: (i: number) => Promise<void>): Promise<Measurement> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const t0 = performance.now();
      await run(i);
      times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  return { name, requests: n, p50: percentile(times, 50), p95: percentile(times, 95), perSecond: (n / wall) * 1000 };
}

export function formatTable(rows: Array<Measurement & { backend: string }>): string {
  const head = ['backend', 'operation', 'requests', 'p50 ms', 'p95 ms', 'req/s'];
  const body = rows.map((r) => [r.backend, r.name, String(r.requests), r.p50.toFixed(1), r.p95.toFixed(1), r.perSecond.toFixed(0)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
