import { usageBarCount, type UsageHour } from '@spyglass/protocol';

const HOUR_MS = 60 * 60 * 1000;

export interface UsageBar {
  /** Epoch ms where the bar's hour or day starts. */
  start: number;
  count: number;
  size: number;
}

/**
 * The chart's bars for a range: 24 × days hours ending with the current one, or one bar per
 * local day (days bars ending today). Hours without traffic are bars of zero.
 */
export function usageBars(hours: UsageHour[], days: number, hourly: boolean, now: number): UsageBar[] {
  const count = usageBarCount(days, hourly);
  const bars: UsageBar[] = [];
  if (count === 24 * days) {
    const current = now - (now % HOUR_MS);
    for (let i = count - 1; i >= 0; i--) bars.push({ start: current - i * HOUR_MS, count: 0, size: 0 });
  } else {
    const today = new Date(now);
    today.setHours(0, 0, 0, 0);
    for (let i = count - 1; i >= 0; i--) {
      const day = new Date(today);
      day.setDate(today.getDate() - i);
      bars.push({ start: day.getTime(), count: 0, size: 0 });
    }
  }
  for (const h of hours) {
    const at = Date.parse(h.hour);
    // The last bar starting at or before the hour holds it.
    let lo = 0;
    let hi = bars.length - 1;
    if (at < bars[0]!.start) continue;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bars[mid]!.start <= at) lo = mid;
      else hi = mid - 1;
    }
    bars[lo]!.count += h.count;
    bars[lo]!.size += h.size;
  }
  return bars;
}

/**
 * The request counts the chart's vertical axis marks, from 0 up to at most `largest` (the tallest
 * bar, drawn at the full height): steps of 1, 2 or 5 × 10^n, about `target` of them, whole numbers.
 */
export function countTicks(largest: number, target = 4): number[] {
  if (largest <= 0) return [0];
  const rough = largest / target;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks: number[] = [];
  for (let value = 0; value <= largest; value += step) ticks.push(value);
  return ticks;
}

/**
 * The bars the time axis names: `count` spread evenly from the first to the last, so that the
 * range's start and end (today, or the current hour) are always labelled.
 */
export function timeTicks(bars: readonly UsageBar[], count = 5): number[] {
  if (bars.length === 0) return [];
  if (bars.length <= count) return bars.map((_, i) => i);
  const last = bars.length - 1;
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round((i * last) / (count - 1))))];
}
