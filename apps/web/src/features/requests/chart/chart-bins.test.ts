import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barLabel, binAt, binsOfAnyRows, binsOfOrderedRows, binSpan, binStart, type ChartBins, type TimeAt } from './chart-bins';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);

function drain(work: Generator<void, ChartBins>): ChartBins {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** The obvious answer: one pass over every row. */
function reference(times: number[], binMs: number, offsetMs: number) {
  const bins = new Map<number, { count: number; first: number }>();
  times.forEach((t, i) => {
    if (Number.isNaN(t)) return;
    const key = Math.floor((t - offsetMs) / binMs);
    const bin = bins.get(key) ?? { count: 0, first: i };
    bin.count++;
    bins.set(key, bin);
  });
  return [...bins.entries()].sort((a, b) => a[0] - b[0]).map(([key, b]) => ({ key, count: b.count, first: b.first }));
}

const asRows = (bins: ChartBins) => Array.from(bins.keys, (key, i) => ({ key, count: bins.counts[i]!, first: bins.firstIndex[i]! }));

describe('chart bins', () => {
  it('counts rows per 5-minute bin in a newest-first list, with the first row of each bin', () => {
    const times = [T0 + 11 * MIN, T0 + 10 * MIN + 5, T0 + 9 * MIN, T0 + 4 * MIN, T0 + 1, T0];
    const timeAt: TimeAt = (i) => times[i]!;
    const bins = binsOfOrderedRows(times.length, timeAt, 5 * MIN, 0);
    expect(asRows(bins)).toEqual([
      { key: T0 / (5 * MIN), count: 3, first: 3 },
      { key: T0 / (5 * MIN) + 1, count: 1, first: 2 },
      { key: T0 / (5 * MIN) + 2, count: 2, first: 0 },
    ]);
    expect(bins.max).toBe(3);
    expect(bins.total).toBe(6);
    expect(binSpan(bins)).toBe(3);
    expect(binStart(bins, bins.keys[0]!)).toBe(T0);
  });

  it('fills the gaps with zero and aligns bins with the local clock', () => {
    const offset = 30 * MIN; // +00:30: hours start half past UTC hours
    const times = [T0 + 31 * MIN, T0 + 3 * 60 * MIN + 45 * MIN];
    const bins = binsOfOrderedRows(times.length, (i) => times[i]!, 60 * MIN, offset);
    expect(binSpan(bins)).toBe(4);
    expect(binStart(bins, bins.keys[0]!)).toBe(T0 + 30 * MIN);
    expect(binAt(bins, bins.keys[0]! + 1)).toEqual({ count: 0, firstIndex: -1 });
    expect(binAt(bins, bins.keys[0]! + 3)).toEqual({ count: 1, firstIndex: 1 });
  });

  it('skips rows whose time cannot be read, and handles no rows', () => {
    const times = [T0 + 2 * MIN, Number.NaN, T0 + MIN];
    expect(asRows(binsOfOrderedRows(3, (i) => times[i]!, MIN, 0))).toEqual(reference(times, MIN, 0));
    expect(asRows(drain(binsOfAnyRows(3, (i) => times[i]!, MIN, 0)))).toEqual(reference(times, MIN, 0));
    const empty = binsOfOrderedRows(0, () => 0, MIN, 0);
    expect(empty.keys.length).toBe(0);
    expect(binSpan(empty)).toBe(0);
  });

  it('matches a row-by-row count for every ordered list (either direction) and every granularity', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 6 * 60 }), { maxLength: 400 }),
      fc.constantFrom(1, 5, 30, 60),
      fc.boolean(),
      fc.integer({ min: -12 * 60, max: 14 * 60 }),
      (minutes, granularity, descending, offsetMin) => {
        const times = minutes.map((m, i) => T0 + m * MIN + (i % 7) * 1000).sort((a, b) => (descending ? b - a : a - b));
        const binMs = granularity * MIN;
        const expected = reference(times, binMs, offsetMin * MIN);
        expect(asRows(binsOfOrderedRows(times.length, (i) => times[i]!, binMs, offsetMin * MIN))).toEqual(expected);
      },
    ));
  });

  it('matches a row-by-row count for rows in any order, in chunks', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 600 }), { maxLength: 300 }),
      fc.constantFrom(1, 5, 30, 60),
      fc.integer({ min: 1, max: 50 }),
      (minutes, granularity, chunk) => {
        const times = minutes.map((m) => T0 + m * MIN);
        const bins = drain(binsOfAnyRows(times.length, (i) => times[i]!, granularity * MIN, 0, chunk));
        expect(asRows(bins)).toEqual(reference(times, granularity * MIN, 0));
      },
    ));
  });

  it('reads few rows for a large ordered list', () => {
    const n = 1_000_000;
    let reads = 0;
    // A million rows over three hours, newest first.
    const bins = binsOfOrderedRows(n, (i) => {
      reads++;
      return T0 + 3 * 60 * MIN - Math.floor((i * 3 * 60 * MIN) / n);
    }, 5 * MIN, 0);
    expect(bins.total).toBe(n);
    expect(bins.keys.length).toBe(37);
    expect(reads).toBeLessThan(37 * 2 * 20);
  });

  it('labels bars with hours and minutes, and hours only at 60 minutes', () => {
    const at = new Date(2026, 10, 23, 9, 5).getTime();
    expect(barLabel(at, 1)).toBe('09:05');
    expect(barLabel(at, 30)).toBe('09:05');
    expect(barLabel(at, 60)).toBe('09h');
  });
});
