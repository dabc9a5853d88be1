import type { CompactItem } from '@spyglass/protocol';

/** An inclusive range of epoch milliseconds. */
export type TimeRange = readonly [from: number, to: number];

/** The span of the items' creation times, or null when fewer than 2 items make a range (spec 001 'Sessions'). */
export function timeBounds(items: readonly CompactItem[]): TimeRange | null {
  if (items.length < 2) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const item of items) {
    const t = Date.parse(item.createdAt);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return min < max ? [min, max] : null;
}

/** The items created within the range; all of them when there is no range or it spans the bounds. */
export function itemsInRange(items: readonly CompactItem[], range: TimeRange | null, bounds: TimeRange | null): readonly CompactItem[] {
  if (!range || !bounds || (range[0] <= bounds[0] && range[1] >= bounds[1])) return items;
  return items.filter((item) => {
    const t = Date.parse(item.createdAt);
    return t >= range[0] && t <= range[1];
  });
}

/** Slider steps: a thousandth of the span, at least 1 ms, so that keys move it visibly on any span. */
export function rangeStep(bounds: TimeRange): number {
  return Math.max(1, Math.round((bounds[1] - bounds[0]) / 1000));
}
