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
