/** One line of the benchmark table and of bench/results/latest.json. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** What the value is compared with, measured in the same run (null when there is no fair baseline). */
  baseline: string | null;
  baselineValue: number | null;
  /** value / baselineValue for "higher is better" units, baselineValue / value for times. */
  ratio: number | null;
  /** The goal, in words, e.g. "≥0.5× baseline". */
  goal?: string;
  notes?: string;
}

export type BenchSuite = () => Promise<BenchResult[]>;

const LOWER_IS_BETTER = /^(ms|s|µs|us|ns|MB|KB|bytes)$/;

/** Builds a result; the ratio is oriented so that >1 means "better than the baseline". */
export function result(r: Omit<BenchResult, 'ratio'>): BenchResult {
  let ratio: number | null = null;
  if (r.baselineValue !== null && r.baselineValue !== 0 && r.value !== 0) {
    ratio = LOWER_IS_BETTER.test(r.unit) ? r.baselineValue / r.value : r.value / r.baselineValue;
  }
  return { ...r, ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000 };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

/** Runs `fn` `runs` times and answers the median duration in ms (after one warm-up run). */
export async function medianMs(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}
