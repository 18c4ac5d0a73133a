/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ] as number;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Count, median, p95, p99, max and mean of a set of timings (sorts a copy). */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

/** "p50 0.012 ms, p99 0.41 ms, max 3.2 ms (n 12,345)" with enough digits for µs-scale values. */
export function describe(s: Summary, unit = "ms"): string {
  const f = (v: number) => (v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0));
  return `p50 ${f(s.p50)} ${unit}, p95 ${f(s.p95)} ${unit}, p99 ${f(s.p99)} ${unit}, max ${f(s.max)} ${unit} (n ${s.n.toLocaleString("en-US")})`;
}
