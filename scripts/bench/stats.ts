// Small statistics helpers for the benchmark. Percentiles use the nearest-rank method on sorted samples, so a
// reported p90 or p99 is always a latency that was actually observed.

export interface Summary {
  n: number;
  min: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The median of an odd count is the middle sample; of an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function summarize(values: readonly number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    min: s[0] ?? Number.NaN,
    median: median(s),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.at(-1) ?? Number.NaN,
    mean: s.length ? s.reduce((a, b) => a + b, 0) / s.length : Number.NaN,
  };
}

/** Rounds for display and JSON: 2 decimals below 10, 1 below 1000, integers above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs < 10 ? 100 : abs < 1000 ? 10 : 1;
  return Math.round(value * digits) / digits;
}
