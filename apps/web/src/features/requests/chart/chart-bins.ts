/**
 * Request counts per time bin for the bar chart (spec 001 'Bar chart', §9): granularity 1, 5, 30
 * or 60 minutes, empty bins zero, bar height scaled by the largest count.
 *
 * Bins are kept sparse (only bins holding requests), so a list spanning months at one-minute bins
 * costs no more than the bins it fills; the chart fills the gaps with zero as it draws them.
 */

export const CHART_GRANULARITIES = [1, 5, 30, 60] as const;
export type ChartGranularity = (typeof CHART_GRANULARITIES)[number];
export const DEFAULT_CHART_GRANULARITY: ChartGranularity = 5;

const MINUTE_MS = 60_000;

export interface ChartBins {
  /** Length of one bin in ms. */
  binMs: number;
  /** Offset that aligns bins with the viewer's local clock (a 60-minute bin starts on a local hour). */
  offsetMs: number;
  /** Bin numbers holding requests, ascending; bin `k` starts at `k * binMs + offsetMs`. */
  keys: Float64Array;
  counts: Int32Array;
  /** The smallest row index of each bin: the bin's first request as the list shows it. */
  firstIndex: Int32Array;
  /** The largest count (bar heights are scaled by it). */
  max: number;
  /** Requests counted (rows with an unreadable time are left out). */
  total: number;
}

export function binMsOf(granularity: ChartGranularity): number {
  return granularity * MINUTE_MS;
}

/**
 * The local clock's offset from UTC, taken once: bins of 30 and 60 minutes then start on local
 * half hours and hours, also in zones such as +05:30.
 */
export function localOffsetMs(at = Date.now()): number {
  return -new Date(at).getTimezoneOffset() * MINUTE_MS;
}

export function binStart(bins: Pick<ChartBins, 'binMs' | 'offsetMs'>, key: number): number {
  return key * bins.binMs + bins.offsetMs;
}

export const EMPTY_BINS: ChartBins = {
  binMs: binMsOf(DEFAULT_CHART_GRANULARITY), offsetMs: 0, keys: new Float64Array(0), counts: new Int32Array(0),
  firstIndex: new Int32Array(0), max: 0, total: 0,
};

/** Collects bins in any order of arrival. */
class BinCollector {
  private readonly map = new Map<number, { count: number; first: number }>();

  add(key: number, index: number, count = 1): void {
    const bin = this.map.get(key);
    if (bin) {
      bin.count += count;
      if (index < bin.first) bin.first = index;
    } else this.map.set(key, { count, first: index });
  }

  finish(binMs: number, offsetMs: number): ChartBins {
    const keys = Float64Array.from(this.map.keys()).sort();
    const counts = new Int32Array(keys.length);
    const firstIndex = new Int32Array(keys.length);
    let max = 0;
    let total = 0;
    keys.forEach((key, i) => {
      const bin = this.map.get(key)!;
      counts[i] = bin.count;
      firstIndex[i] = bin.first;
      if (bin.count > max) max = bin.count;
      total += bin.count;
    });
    return { binMs, offsetMs, keys, counts, firstIndex, max, total };
  }
}

/** Reads the time of a row (ms since the epoch; NaN when unreadable). */
export type TimeAt = (index: number) => number;

/**
 * Bins of rows already ordered by time (either direction), as the list is by default: each bin is
 * a run of consecutive rows, whose end is found by galloping and binary search. Cost O(bins ×
 * log(rows per bin)) reads instead of one per row, so a million rows in a few hundred bins take
 * about ten thousand reads.
 */
export function binsOfOrderedRows(count: number, timeAt: TimeAt, binMs: number, offsetMs: number): ChartBins {
  const collector = new BinCollector();
  const keyAt = (index: number) => {
    const t = timeAt(index);
    return t === t ? Math.floor((t - offsetMs) / binMs) : Number.NaN;
  };
  let start = 0;
  while (start < count) {
    const key = keyAt(start);
    // Rows of one bin are consecutive; find the last with the same key (NaN runs compare unequal
    // to themselves, so each unreadable row is a run of one and is skipped).
    let step = 1;
    let lo = start;
    let hi = start + step;
    while (hi < count && keyAt(hi) === key) {
      lo = hi;
      step *= 2;
      hi = start + step;
    }
    hi = Math.min(hi, count);
    // keyAt(lo) === key (or lo === start), and hi is past the run.
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (keyAt(mid) === key) lo = mid;
      else hi = mid;
    }
    if (key === key) collector.add(key, start, lo - start + 1);
    start = lo + 1;
  }
  return collector.finish(binMs, offsetMs);
}

/**
 * Bins of rows in any order (the list sorted by another column): one read per row, yielding every
 * `chunk` rows so that a time slicer can spread a million rows over several frames.
 */
export function* binsOfAnyRows(count: number, timeAt: TimeAt, binMs: number, offsetMs: number, chunk = 4096): Generator<void, ChartBins> {
  const collector = new BinCollector();
  let lastKey = Number.NaN;
  let runStart = 0;
  let runCount = 0;
  for (let i = 0; i < count; i++) {
    const t = timeAt(i);
    if (t === t) {
      const key = Math.floor((t - offsetMs) / binMs);
      // Neighbouring rows often share a bin even in another order: count runs, not rows, in the map.
      if (key === lastKey) runCount++;
      else {
        if (runCount > 0) collector.add(lastKey, runStart, runCount);
        lastKey = key;
        runStart = i;
        runCount = 1;
      }
    }
    if ((i + 1) % chunk === 0) yield;
  }
  if (runCount > 0) collector.add(lastKey, runStart, runCount);
  return collector.finish(binMs, offsetMs);
}

/** Index in `bins.keys` of the first bin at or after `key` (keys.length when none). */
export function lowerBound(keys: Float64Array, key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The count and first row of bin `key`, zero when it holds no requests. */
export function binAt(bins: ChartBins, key: number): { count: number; firstIndex: number } {
  const i = lowerBound(bins.keys, key);
  if (i < bins.keys.length && bins.keys[i] === key) return { count: bins.counts[i]!, firstIndex: bins.firstIndex[i]! };
  return { count: 0, firstIndex: -1 };
}

/** Number of bins from the first to the last holding requests, empty ones included. */
export function binSpan(bins: ChartBins): number {
  const n = bins.keys.length;
  return n === 0 ? 0 : bins.keys[n - 1]! - bins.keys[0]! + 1;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A bar's label in local time; spec 001 'Bar chart': hours only at a granularity of 60 minutes or more. */
export function barLabel(start: number, granularity: ChartGranularity): string {
  const d = new Date(start);
  return granularity >= 60 ? `${pad2(d.getHours())}h` : `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}
